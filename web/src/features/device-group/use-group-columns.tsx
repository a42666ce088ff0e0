import type { ProColumns } from '@ant-design/pro-components';
import type { TDeviceGroup } from '@blrms/contracts';
import { Badge, Button, Popconfirm, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime, formatNumber } from '../../shared/format';
import { useHasAction } from '../../shared/permission/use-has-action';
import { useNarrowScreen } from '../../shared/use-narrow-screen';

/**
 * The group table's columns: the device counts (online, offline, all) link to the device list
 * filtered by the group; the row actions edit and delete.
 */
export function useGroupColumns({
  onEdit,
  onDelete,
}: {
  onEdit: (group: TDeviceGroup) => void;
  onDelete: (group: TDeviceGroup) => Promise<void>;
}): ProColumns<TDeviceGroup>[] {
  const { t } = useTranslation();
  const canEdit = useHasAction('group:edit');
  const canDelete = useHasAction('group:delete');
  const narrow = useNarrowScreen();

  const devicesLink = (row: TDeviceGroup, count: number, status?: 'online' | 'offline') => (
    <Link
      to={`/device/list?groupId=${row.id}${status ? `&status=${status}` : ''}`}
      data-testid={`group-${status ?? 'total'}-${row.id}`}
    >
      {formatNumber(count)}
    </Link>
  );

  return [
    {
      title: t('deviceGroup.name'),
      dataIndex: 'name',
      key: 'name',
      sorter: true,
      ellipsis: true,
      width: 200,
      fieldProps: { placeholder: t('deviceGroup.namePlaceholder') },
    },
    {
      title: <Badge status="success" text={t('deviceGroup.online')} />,
      dataIndex: 'onlineCount',
      width: 110,
      align: 'right',
      hideInSearch: true,
      render: (_, row) => devicesLink(row, row.onlineCount, 'online'),
    },
    {
      title: <Badge status="default" text={t('deviceGroup.offline')} />,
      dataIndex: 'offlineCount',
      width: 110,
      align: 'right',
      hideInSearch: true,
      render: (_, row) => devicesLink(row, row.offlineCount, 'offline'),
    },
    {
      title: t('deviceGroup.total'),
      dataIndex: 'deviceCount',
      width: 110,
      align: 'right',
      hideInSearch: true,
      render: (_, row) => devicesLink(row, row.deviceCount),
    },
    {
      title: t('common.createTime'),
      dataIndex: 'createTime',
      key: 'createTime',
      width: 170,
      sorter: true,
      defaultSortOrder: 'descend',
      hideInSearch: true,
      render: (_, row) => formatDateTime(row.createTime),
    },
    { title: t('common.remark'), dataIndex: 'remark', ellipsis: true, hideInSearch: true },
    {
      title: t('common.actions'),
      key: 'actions',
      width: 140,
      fixed: narrow ? undefined : 'right',
      hideInSearch: true,
      render: (_, row) => (
        <Space size={0}>
          {canEdit && (
            <Button
              type="link"
              size="small"
              onClick={() => onEdit(row)}
              data-testid={`group-edit-${row.id}`}
            >
              {t('common.edit')}
            </Button>
          )}
          {canDelete && (
            <Popconfirm
              title={t('deviceGroup.deleteTitle', { name: row.name })}
              description={t('deviceGroup.deleteContent')}
              okText={t('common.delete')}
              okButtonProps={{ danger: true }}
              cancelText={t('common.cancel')}
              onConfirm={() => onDelete(row)}
            >
              <Button type="link" size="small" danger data-testid={`group-delete-${row.id}`}>
                {t('common.delete')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];
}
