import type { ProColumns } from '@ant-design/pro-components';
import { ProTable } from '@ant-design/pro-components';
import type { TDeviceLog, TDeviceLogState } from '@blrms/contracts';
import { DEVICE_LOG_SORT_COLUMNS, DEVICE_LOG_STATES } from '@blrms/contracts';
import { Button, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatPageRange } from '../format';
import { sortOf } from '../table-sort';
import { useNarrowScreen } from '../use-narrow-screen';
import { DeviceLogStateTag } from './DeviceLogStateTag';
import { LogContentModal } from './LogContentModal';
import type { DeviceLogParams } from './use-device-logs';
import { useDeviceLogs } from './use-device-logs';
import { useDictOptions } from '../use-dict-items';

/** Fields of the filter form; the time range is sent as logTime_begin/_end. */
type LogSearch = {
  logTime?: [string, string];
  sn?: string;
  user?: string;
  subject?: string;
  state?: TDeviceLogState;
};

const text = (value: string | undefined) => value?.trim() || undefined;

function columns(
  t: TFunction,
  showSn: boolean,
  pinActions: boolean,
  view: (log: TDeviceLog) => void,
  states: { value: string; label: string }[],
): ProColumns<TDeviceLog>[] {
  const all: (ProColumns<TDeviceLog> | false)[] = [
    {
      title: t('deviceLog.logTime'),
      dataIndex: 'logTime',
      valueType: 'dateTimeRange',
      hideInTable: true,
    },
    {
      title: t('deviceLog.logTime'),
      dataIndex: 'logTime',
      key: 'logTime',
      width: 170,
      sorter: true,
      defaultSortOrder: 'descend',
      hideInSearch: true,
      render: (_, row) => formatDateTime(row.logTime),
    },
    showSn && { title: t('deviceLog.sn'), dataIndex: 'sn', width: 160, ellipsis: true },
    {
      title: t('deviceLog.subject'),
      dataIndex: 'subject',
      key: 'subject',
      width: 180,
      sorter: true,
      ellipsis: true,
    },
    {
      title: t('deviceLog.user'),
      dataIndex: 'user',
      hideInTable: true,
      fieldProps: { placeholder: t('deviceLog.userPlaceholder') },
    },
    {
      title: t('deviceLog.sourceUser'),
      dataIndex: 'sourceUser',
      width: 120,
      hideInSearch: true,
      render: (_, row) => row.sourceUser ?? t('deviceLog.platform'),
    },
    {
      title: t('deviceLog.targetUser'),
      dataIndex: 'targetUser',
      width: 120,
      hideInSearch: true,
      render: (_, row) => row.targetUser ?? '-',
    },
    {
      title: t('deviceLog.requestUrl'),
      dataIndex: 'requestUrl',
      ellipsis: true,
      hideInSearch: true,
      render: (_, row) => <Typography.Text code>{row.requestUrl}</Typography.Text>,
    },
    {
      title: t('deviceLog.sourceIp'),
      dataIndex: 'sourceIp',
      width: 130,
      hideInSearch: true,
      render: (_, row) => row.sourceIp ?? '-',
    },
    {
      title: t('deviceLog.state'),
      dataIndex: 'state',
      key: 'state',
      width: 110,
      sorter: true,
      valueType: 'select',
      fieldProps: {
        options: states,
      },
      render: (_, row) => <DeviceLogStateTag state={row.state} />,
    },
    {
      title: t('common.actions'),
      key: 'actions',
      width: 110,
      fixed: pinActions ? 'right' : undefined,
      hideInSearch: true,
      render: (_, row) => (
        <Button
          type="link"
          size="small"
          onClick={() => view(row)}
          data-testid={`view-log-${row.id}`}
        >
          {t('deviceLog.viewContent')}
        </Button>
      ),
    },
  ];
  return all.filter((c): c is ProColumns<TDeviceLog> => c !== false);
}

/**
 * Device logs with their filters (time, SN, user, subject, state), sort and pages, and a viewer
 * for the content. With `deviceId` the list holds that device's logs only (its detail page).
 * `toolbar` adds buttons before the table's own options.
 */
export function DeviceLogTable({
  deviceId,
  toolbar,
}: {
  deviceId?: string;
  toolbar?: ReactNode[];
}) {
  const { t } = useTranslation();
  // The `device_log_state` dictionary words and orders the filter; the server checks the values.
  const states = useDictOptions(
    'device_log_state',
    DEVICE_LOG_STATES,
    DEVICE_LOG_STATES.map((state) => ({ value: state, label: t(`deviceLogState.${state}`) })),
  );
  const [params, setParams] = useState<DeviceLogParams>({
    deviceId,
    pageNo: 1,
    pageSize: 10,
    column: 'logTime',
    order: 'desc',
  });
  const [viewing, setViewing] = useState<TDeviceLog | null>(null);
  const logs = useDeviceLogs(params);
  const narrow = useNarrowScreen();

  const search = (values: LogSearch) =>
    setParams((p) => ({
      deviceId: p.deviceId,
      pageNo: 1,
      pageSize: p.pageSize,
      column: p.column,
      order: p.order,
      logTime_begin: values.logTime?.[0],
      logTime_end: values.logTime?.[1],
      sn: text(values.sn),
      user: text(values.user),
      subject: text(values.subject),
      state: values.state,
    }));

  return (
    <>
      <ProTable<TDeviceLog, LogSearch>
        rowKey="id"
        showSorterTooltip={{ target: 'sorter-icon' }}
        headerTitle={deviceId === undefined ? t('deviceLog.title') : undefined}
        columns={columns(t, deviceId === undefined, !narrow, setViewing, states)}
        ghost={deviceId !== undefined}
        dataSource={logs.data?.records ?? []}
        loading={logs.isFetching}
        search={{ labelWidth: 'auto', defaultCollapsed: deviceId !== undefined }}
        dateFormatter={(value: Dayjs) => value.toISOString()}
        onSubmit={search}
        onReset={() => search({})}
        options={{ reload: () => void logs.refetch(), density: true, setting: true }}
        toolBarRender={toolbar ? () => toolbar : undefined}
        cardProps={{ bodyStyle: { padding: 0 } }}
        scroll={{ x: 1200 }}
        pagination={{
          current: params.pageNo,
          pageSize: params.pageSize,
          total: logs.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: formatPageRange,
          onChange: (pageNo, pageSize) => setParams((p) => ({ ...p, pageNo, pageSize })),
        }}
        onChange={(_, __, sorter) => {
          const sort = sortOf(sorter, DEVICE_LOG_SORT_COLUMNS, 'logTime');
          setParams((p) =>
            p.column === sort.column && p.order === sort.order ? p : { ...p, ...sort, pageNo: 1 },
          );
        }}
        data-testid="device-log-table"
      />
      <LogContentModal log={viewing} onClose={() => setViewing(null)} />
    </>
  );
}
