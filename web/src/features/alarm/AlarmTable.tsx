import type { ProFormInstance } from '@ant-design/pro-components';
import { ProTable } from '@ant-design/pro-components';
import type { TAlarm } from '@blrms/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import type { ReactNode } from 'react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ALARM_COUNTS_KEY } from '../../shared/alarm/use-alarm-counts';
import { ExportButton } from '../../shared/ExportButton';
import { useLiveReload } from '../../shared/device/use-device-status';
import { formatPageRange } from '../../shared/format';
import { useHasAction } from '../../shared/permission/use-has-action';
import { useNarrowScreen } from '../../shared/use-narrow-screen';
import { AlarmActionModal, type AlarmAction } from './AlarmActionModal';
import { AlarmDetailDrawer } from './AlarmDetailDrawer';
import type { AlarmPage, AlarmParams, AlarmSearch } from './alarm-filters';
import { ALARM_PAGE, applyAlarm, filterOf, searchFromUrl } from './alarm-filters';
import {
  alarmListKey,
  exportAlarms,
  useAlarms,
  useGroupOptions,
  useRuleOptions,
} from './alarm-api';
import { alarmColumns } from './columns';
import { useAlarmUpdates } from './use-alarm-live';

const BLANK_SEARCH: Record<keyof AlarmSearch, undefined> = {
  severity: undefined,
  state: undefined,
  ruleId: undefined,
  groupId: undefined,
  sn: undefined,
  lastTime: undefined,
};

const EXPORT_FORMATS = ['xlsx', 'csv'] as const;

/**
 * Alarms with their filters, bulk acknowledge and clear, export and a detail drawer, kept live
 * over the `alarms` channel: a change of a shown alarm patches its row; one that joins or leaves
 * the filter (a new alarm) reloads the page, at most once a second. With `deviceId`, that
 * device's alarms (its detail page's tab); without, every alarm, filtered by the URL's search
 * params when a link (the header's, the dashboard's) brings some.
 */
export function AlarmTable({ deviceId, extra }: { deviceId?: string; extra?: ReactNode }) {
  const { t } = useTranslation();
  const oneDevice = deviceId !== undefined;
  const [urlQuery] = useSearchParams();
  const urlSearch = oneDevice ? '' : urlQuery.toString();
  const [appliedUrl, setAppliedUrl] = useState(urlSearch);
  const [params, setParams] = useState<AlarmParams>(() => ({
    ...ALARM_PAGE,
    deviceId,
    ...filterOf(searchFromUrl(new URLSearchParams(urlSearch))),
  }));
  // A link into the open list (the header's critical count) replaces the filter with the link's.
  if (appliedUrl !== urlSearch) {
    setAppliedUrl(urlSearch);
    setParams((p) => ({
      ...ALARM_PAGE,
      pageSize: p.pageSize,
      deviceId,
      ...filterOf(searchFromUrl(new URLSearchParams(urlSearch))),
    }));
  }
  const formRef = useRef<ProFormInstance<AlarmSearch>>(undefined);
  useEffect(() => {
    formRef.current?.setFieldsValue({
      ...BLANK_SEARCH,
      ...searchFromUrl(new URLSearchParams(urlSearch)),
    });
  }, [urlSearch]);

  const can = {
    ack: useHasAction('alarm:ack'),
    clear: useHasAction('alarm:clear'),
    export: useHasAction('alarm:export'),
    rules: useHasAction('alarm:rule:list'),
  };
  const narrow = useNarrowScreen();
  const client = useQueryClient();
  const alarms = useAlarms(params);
  const rules = useRuleOptions(can.rules);
  const groups = useGroupOptions(!oneDevice);
  const [selected, setSelected] = useState<string[]>([]);
  const [action, setAction] = useState<AlarmAction | null>(null);
  const [viewing, setViewing] = useState<TAlarm | null>(null);

  const liveReload = useLiveReload(() => alarms.refetch());
  const countsReload = useLiveReload(() =>
    client.invalidateQueries({ queryKey: ALARM_COUNTS_KEY }),
  );
  useAlarmUpdates(
    (alarm) => {
      countsReload.request();
      const key = alarmListKey(params);
      // A load under way may have read the rows before this change and would undo the patch.
      const loading = client.isFetching({ queryKey: key }) > 0;
      const page = client.getQueryData<AlarmPage>(key);
      const live = page ? applyAlarm(params, page, alarm) : null;
      if (page && live && live.page !== page) client.setQueryData(key, live.page);
      if (loading || live?.reload) liveReload.request();
      setViewing((shown) => (shown?.id === alarm.id ? alarm : shown));
    },
    () => {
      liveReload.request();
      countsReload.request();
    },
  );

  const search = (values: AlarmSearch) =>
    setParams((p) => ({ ...ALARM_PAGE, pageSize: p.pageSize, deviceId, ...filterOf(values) }));

  const columns = alarmColumns(t, {
    oneDevice,
    pinColumns: !narrow,
    rules: can.rules ? (rules.data ?? []) : null,
    groups: groups.data ?? [],
    actions: (row) => (
      <Space size={0}>
        {can.ack && row.state === 'active' && (
          <Button
            type="link"
            size="small"
            onClick={() => setAction({ kind: 'ack', ids: [row.id] })}
            data-testid={`alarm-ack-${row.id}`}
          >
            {t('alarm.ack')}
          </Button>
        )}
        {can.clear && row.state !== 'cleared' && (
          <Button
            type="link"
            size="small"
            danger
            onClick={() => setAction({ kind: 'clear', ids: [row.id] })}
            data-testid={`alarm-clear-${row.id}`}
          >
            {t('alarm.clear')}
          </Button>
        )}
        <Button type="link" size="small" onClick={() => setViewing(row)}>
          {t('alarm.detail')}
        </Button>
      </Space>
    ),
  });

  const selectable = can.ack || can.clear;
  return (
    <>
      <ProTable<TAlarm, AlarmSearch>
        rowKey="id"
        headerTitle={oneDevice ? undefined : t('alarm.title')}
        ghost={oneDevice}
        columns={columns}
        dataSource={alarms.data?.records ?? []}
        loading={alarms.isPlaceholderData || (alarms.isFetching && !liveReload.reloading)}
        formRef={formRef}
        form={{ initialValues: searchFromUrl(new URLSearchParams(urlSearch)) }}
        search={{ labelWidth: 'auto', defaultCollapsed: true }}
        dateFormatter={(value: Dayjs) => value.toISOString()}
        onSubmit={search}
        onReset={() => search({})}
        options={{ reload: () => void alarms.refetch(), density: true, setting: true }}
        cardProps={oneDevice ? { bodyStyle: { padding: 0 } } : undefined}
        rowSelection={
          selectable
            ? {
                selectedRowKeys: selected,
                preserveSelectedRowKeys: true,
                getCheckboxProps: (row) => ({ disabled: row.state === 'cleared' }),
                onChange: (keys) => setSelected(keys.map(String)),
              }
            : undefined
        }
        tableAlertRender={() => t('common.selected', { count: selected.length })}
        tableAlertOptionRender={() => (
          <Space wrap>
            {can.ack && (
              <Button
                size="small"
                onClick={() => setAction({ kind: 'ack', ids: selected })}
                data-testid="alarm-bulk-ack"
              >
                {t('alarm.bulkAck')}
              </Button>
            )}
            {can.clear && (
              <Button
                size="small"
                danger
                onClick={() => setAction({ kind: 'clear', ids: selected })}
                data-testid="alarm-bulk-clear"
              >
                {t('alarm.bulkClear')}
              </Button>
            )}
            <Button size="small" type="link" onClick={() => setSelected([])}>
              {t('common.clearSelection')}
            </Button>
          </Space>
        )}
        toolBarRender={() => [
          extra,
          can.export && (
            <ExportButton
              key="export"
              formats={EXPORT_FORMATS}
              label={t('alarm.export')}
              formatLabel={(format) => t(`alarm.exportFormats.${format}`)}
              onExport={(format) => exportAlarms(params, format)}
              testId="alarm-export"
            />
          ),
        ]}
        scroll={{ x: oneDevice ? 1300 : 1500 }}
        pagination={{
          current: params.pageNo,
          pageSize: params.pageSize,
          total: alarms.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: formatPageRange,
          onChange: (pageNo, pageSize) => setParams((p) => ({ ...p, pageNo, pageSize })),
        }}
        data-testid="alarm-table"
      />
      <AlarmActionModal
        action={action}
        onClose={(done) => {
          if (done && action) setSelected((s) => s.filter((id) => !action.ids.includes(id)));
          setAction(null);
        }}
      />
      <AlarmDetailDrawer alarm={viewing} onClose={() => setViewing(null)} />
    </>
  );
}
