import { ProTable } from '@ant-design/pro-components';
import type { TSysLog } from '@blrms/contracts';
import { LOG_TYPE, SYS_LOG_SORT_COLUMNS } from '@blrms/contracts';
import { Card, Descriptions, Drawer, Tabs, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useListPage } from '../../shared/entity/use-list-page';
import { formatDateTime } from '../../shared/format';
import { useNarrowScreen } from '../../shared/use-narrow-screen';
import { useHasAction } from '../../shared/permission/use-has-action';
import type { LogSearch } from './columns';
import { logColumns } from './columns';
import type { SysLogParams } from './use-sys-logs';
import { useSysLogs } from './use-sys-logs';
import './log-list.css';

const DEFAULT_PARAMS: SysLogParams = {
  logType: LOG_TYPE.login,
  pageNo: 1,
  pageSize: 10,
  column: 'createTime',
  order: 'desc',
};

/** The stored parameters indented; kept as stored when cut short (they are capped in length). */
function readableParams(stored: string): string {
  try {
    return JSON.stringify(JSON.parse(stored), null, 2);
  } catch {
    return stored;
  }
}

/** Backend logs (spec section 2): login and operation logs with search, time range, sort, pages. */
export default function LogListPage() {
  const { t } = useTranslation();
  const list = useListPage<SysLogParams, LogSearch>({
    defaults: DEFAULT_PARAMS,
    filters: (values) => ({
      keyWord: values.keyWord?.trim() || undefined,
      createTime_begin: values.createTime?.[0],
      createTime_end: values.createTime?.[1],
    }),
    sort: { columns: SYS_LOG_SORT_COLUMNS, fallback: 'createTime', cleared: 'column' },
  });
  const { params } = list;
  const [details, setDetails] = useState<TSysLog | null>(null);
  const narrow = useNarrowScreen();
  const logs = useSysLogs(params);
  // The filter form needs the list permission; the server checks it again on every call.
  const canFilter = useHasAction('system:log:list');

  return (
    <Card styles={{ body: { paddingTop: 8 } }} data-testid="log-page">
      <Tabs
        activeKey={String(params.logType)}
        onChange={(key) => list.setParams({ ...DEFAULT_PARAMS, logType: Number(key) })}
        items={[
          {
            key: String(LOG_TYPE.login),
            label: <span data-testid="log-tab-login">{t('log.loginTab')}</span>,
          },
          {
            key: String(LOG_TYPE.operation),
            label: <span data-testid="log-tab-operation">{t('log.operationTab')}</span>,
          },
        ]}
      />
      <ProTable<TSysLog, LogSearch>
        key={params.logType}
        rowKey="id"
        {...list.tableProps(logs)}
        columns={logColumns(t, params.logType, setDetails)}
        search={canFilter ? { labelWidth: 'auto', defaultCollapsed: false } : false}
        dateFormatter={(value: Dayjs) => value.toISOString()}
        cardProps={{ bodyStyle: { padding: 0 } }}
        scroll={{ x: params.logType === LOG_TYPE.operation ? 1200 : 720 }}
        data-testid="log-table"
      />
      <Drawer
        open={details !== null}
        title={details?.logContent}
        width={narrow ? '100%' : 560}
        onClose={() => setDetails(null)}
        data-testid="log-details"
      >
        {details && (
          <Descriptions column={1} bordered size="small">
            <Descriptions.Item label={t('log.time')}>
              {formatDateTime(details.createTime)}
            </Descriptions.Item>
            <Descriptions.Item label={t('log.username')}>{details.username}</Descriptions.Item>
            <Descriptions.Item label={t('log.ip')}>{details.ip}</Descriptions.Item>
            <Descriptions.Item label={t('log.method')}>{details.method}</Descriptions.Item>
            <Descriptions.Item label={t('log.url')}>
              <Typography.Text code>{details.requestUrl}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('log.params')}>
              {details.requestParams ? (
                <pre className="log-details__params">{readableParams(details.requestParams)}</pre>
              ) : (
                '-'
              )}
            </Descriptions.Item>
            <Descriptions.Item label={t('log.status')}>{details.status ?? '-'}</Descriptions.Item>
            <Descriptions.Item label={t('log.costTime')}>
              {details.costTime ?? '-'}
            </Descriptions.Item>
          </Descriptions>
        )}
      </Drawer>
    </Card>
  );
}
