import type { ProColumns } from '@ant-design/pro-components';
import type { TSysLog } from '@blrms/contracts';
import { LOG_TYPE } from '@blrms/contracts';
import { Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { formatDateTime } from '../../shared/format';

/** Filter fields of the search form; the time range is sent as createTime_begin/_end. */
export type LogSearch = { keyWord?: string; createTime?: [string, string] };

const statusColor = (status: number) =>
  status >= 500 ? 'error' : status >= 400 ? 'warning' : 'success';

export function logColumns(t: TFunction, logType: number): ProColumns<TSysLog>[] {
  const isOperation = logType === LOG_TYPE.operation;
  const columns: (ProColumns<TSysLog> | false)[] = [
    {
      title: t('log.keyWord'),
      dataIndex: 'keyWord',
      hideInTable: true,
      fieldProps: { placeholder: t('log.keyWordPlaceholder') },
    },
    {
      title: t('log.time'),
      dataIndex: 'createTime',
      valueType: 'dateTimeRange',
      hideInTable: true,
    },
    {
      title: t('log.time'),
      dataIndex: 'createTime',
      key: 'createTime',
      width: 180,
      sorter: true,
      defaultSortOrder: 'descend',
      hideInSearch: true,
      render: (_, row) => formatDateTime(row.createTime),
    },
    {
      title: t('log.username'),
      dataIndex: 'username',
      key: 'username',
      width: 120,
      sorter: true,
      hideInSearch: true,
    },
    { title: t('log.ip'), dataIndex: 'ip', width: 140, hideInSearch: true },
    isOperation && {
      title: t('log.operateType'),
      dataIndex: 'operateType',
      width: 110,
      hideInSearch: true,
    },
    isOperation && { title: t('log.method'), dataIndex: 'method', width: 90, hideInSearch: true },
    isOperation && {
      title: t('log.url'),
      dataIndex: 'requestUrl',
      ellipsis: true,
      hideInSearch: true,
      render: (_, row) => <Typography.Text code>{row.requestUrl}</Typography.Text>,
    },
    isOperation && {
      title: t('log.status'),
      dataIndex: 'status',
      width: 80,
      hideInSearch: true,
      render: (_, row) =>
        row.status === null ? '-' : <Tag color={statusColor(row.status)}>{row.status}</Tag>,
    },
    isOperation && {
      title: t('log.costTime'),
      dataIndex: 'costTime',
      key: 'costTime',
      width: 120,
      sorter: true,
      align: 'right',
      hideInSearch: true,
    },
    { title: t('log.content'), dataIndex: 'logContent', ellipsis: true, hideInSearch: true },
  ];
  return columns.filter((c): c is ProColumns<TSysLog> => c !== false);
}
