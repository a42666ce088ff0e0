import type { ProColumns } from '@ant-design/pro-components';
import type { TRole, TRoleListItem } from '@blrms/contracts';
import { Popconfirm, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../shared/format';

/**
 * The role table's columns, with the row actions: authorize (menus, buttons, data rules), edit
 * and delete (never the `admin` role; the confirmation says how many users hold it).
 */
export function useRoleColumns({
  can,
  nameOf,
  onEdit,
  onAuthorize,
  onDelete,
}: {
  can: { edit: boolean; delete: boolean; authorize: boolean };
  nameOf: (role: TRole) => string;
  onEdit: (role: TRole) => void;
  onAuthorize: (role: TRole) => void;
  onDelete: (role: TRole) => void;
}): ProColumns<TRoleListItem>[] {
  const { t } = useTranslation();

  return [
    {
      title: t('roleAdmin.search'),
      dataIndex: 'roleName',
      hideInTable: true,
      fieldProps: { placeholder: t('roleAdmin.searchPlaceholder') },
    },
    {
      title: t('roleAdmin.roleName'),
      dataIndex: 'roleName',
      key: 'roleName',
      sorter: true,
      hideInSearch: true,
      render: (_, row) => nameOf(row),
    },
    {
      title: t('roleAdmin.roleCode'),
      dataIndex: 'roleCode',
      key: 'roleCode',
      sorter: true,
      hideInSearch: true,
      width: 160,
    },
    {
      title: t('roleAdmin.userCount'),
      dataIndex: 'userCount',
      hideInSearch: true,
      width: 90,
      align: 'right',
    },
    {
      title: t('roleAdmin.description'),
      dataIndex: 'description',
      hideInSearch: true,
      ellipsis: true,
    },
    {
      title: t('roleAdmin.createTime'),
      dataIndex: 'createTime',
      key: 'createTime',
      sorter: true,
      hideInSearch: true,
      width: 170,
      render: (_, row) => formatDateTime(row.createTime),
    },
    {
      title: t('roleAdmin.actions'),
      valueType: 'option',
      width: 180,
      hidden: !can.edit && !can.delete && !can.authorize,
      render: (_, row) => (
        <Space size="small">
          {can.authorize && (
            <a onClick={() => onAuthorize(row)} data-testid="role-authorize-open">
              {t('roleAdmin.authorize')}
            </a>
          )}
          {can.edit && (
            <a onClick={() => onEdit(row)} data-testid="role-edit">
              {t('roleAdmin.edit')}
            </a>
          )}
          {can.delete && row.roleCode !== 'admin' && (
            <Popconfirm
              title={
                row.userCount > 0
                  ? t('roleAdmin.deleteConfirmHeld', { name: nameOf(row), count: row.userCount })
                  : t('roleAdmin.deleteConfirm', { name: nameOf(row) })
              }
              styles={{ root: { maxWidth: 360 } }}
              onConfirm={() => onDelete(row)}
            >
              <a data-testid="role-delete">{t('roleAdmin.delete')}</a>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];
}
