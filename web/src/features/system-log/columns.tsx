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

const TYPE_COLOR = {
  add: 'green',
  edit: 'blue',
  delete: 'red',
  import: 'purple',
  export: 'cyan',
  query: 'default',
  login: 'gold',
} as const;

type OperateType = keyof typeof TYPE_COLOR;
const isKnownType = (type: string): type is OperateType => type in TYPE_COLOR;

/** 查询/新增/修改/删除/导入/导出/登录; a type the console does not know shows as stored. */
function typeTag(t: TFunction, type: string | null) {
  if (!type) return '-';
  if (!isKnownType(type)) return <Tag>{type}</Tag>;
  return <Tag color={TYPE_COLOR[type]}>{t(`log.types.${type}`)}</Tag>;
}

export function logColumns(
  t: TFunction,
  logType: number,
  showDetails: (row: TSysLog) => void,
): ProColumns<TSysLog>[] {
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
      render: (_, row) => typeTag(t, row.operateType),
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
    isOperation && {
      title: t('log.actions'),
      key: 'actions',
      width: 90,
      fixed: 'right',
      hideInSearch: true,
      render: (_, row) => (
        <Typography.Link onClick={() => showDetails(row)} data-testid="log-details-open">
          {t('log.details')}
        </Typography.Link>
      ),
    },
  ];
  return columns.filter((c): c is ProColumns<TSysLog> => c !== false);
}
