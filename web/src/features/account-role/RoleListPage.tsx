import { PlusOutlined } from '@ant-design/icons';
import type { ProColumns } from '@ant-design/pro-components';
import { ProTable } from '@ant-design/pro-components';
import type { TRole, TRoleListItem } from '@blrms/contracts';
import { ROLE_SORT_COLUMNS } from '@blrms/contracts';
import { Button, Card, Popconfirm, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../shared/format';
import { useHasAction } from '../../shared/permission/use-has-action';
import { RoleAuthorizeDrawer } from './RoleAuthorizeDrawer';
import { RoleFormModal } from './RoleFormModal';
import type { RoleParams } from './use-roles';
import { useRoleMutations, useRoles } from './use-roles';
import { sortOf } from '../../shared/table-sort';

const DEFAULT_PARAMS: RoleParams = { pageNo: 1, pageSize: 10, column: 'createTime', order: 'desc' };

type Search = { roleName?: string };

/** Role management: roles of the company and the menus, buttons and data rules they grant. */
export default function RoleListPage() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useState<RoleParams>(DEFAULT_PARAMS);
  const [form, setForm] = useState<{ open: boolean; editing: TRole | null }>({
    open: false,
    editing: null,
  });
  const [authorizing, setAuthorizing] = useState<TRole | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const roles = useRoles(params);
  const { save, remove } = useRoleMutations();
  const can = {
    add: useHasAction('account:role:add'),
    edit: useHasAction('account:role:edit'),
    delete: useHasAction('account:role:delete'),
    authorize: useHasAction('account:role:authorize'),
  };
  const nameOf = (r: TRole) => (i18n.language === 'en-US' && r.roleNameEn) || r.roleName;

  const heldBySelected = (roles.data?.records ?? [])
    .filter((r) => selected.includes(r.id))
    .reduce((sum, r) => sum + r.userCount, 0);

  const columns: ProColumns<TRoleListItem>[] = [
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
            <a onClick={() => setAuthorizing(row)} data-testid="role-authorize-open">
              {t('roleAdmin.authorize')}
            </a>
          )}
          {can.edit && (
            <a onClick={() => setForm({ open: true, editing: row })} data-testid="role-edit">
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
              onConfirm={() => remove.mutate([row.id])}
            >
              <a data-testid="role-delete">{t('roleAdmin.delete')}</a>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card styles={{ body: { padding: 0 } }} data-testid="role-page">
      <ProTable<TRoleListItem, Search>
        rowKey="id"
        columns={columns}
        dataSource={roles.data?.records ?? []}
        loading={roles.isFetching}
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        onSubmit={(values) =>
          setParams((p) => ({ ...p, pageNo: 1, roleName: values.roleName?.trim() || undefined }))
        }
        onReset={() => setParams(DEFAULT_PARAMS)}
        options={{ reload: () => void roles.refetch(), density: true, setting: true }}
        scroll={{ x: 800 }}
        rowSelection={
          can.delete
            ? {
                selectedRowKeys: selected,
                onChange: (keys) => setSelected(keys.map(String)),
                getCheckboxProps: (row) => ({ disabled: row.roleCode === 'admin' }),
              }
            : undefined
        }
        toolBarRender={() => [
          can.add && (
            <Button
              key="add"
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setForm({ open: true, editing: null })}
              data-testid="role-add"
            >
              {t('roleAdmin.add')}
            </Button>
          ),
          can.delete && selected.length > 0 && (
            <Popconfirm
              key="delete"
              title={
                heldBySelected > 0
                  ? t('roleAdmin.deleteSelectedHeld', {
                      count: selected.length,
                      users: heldBySelected,
                    })
                  : t('roleAdmin.deleteSelectedConfirm', { count: selected.length })
              }
              styles={{ root: { maxWidth: 360 } }}
              onConfirm={() => remove.mutate(selected, { onSuccess: () => setSelected([]) })}
            >
              <Button danger>{t('roleAdmin.deleteSelected')}</Button>
            </Popconfirm>
          ),
        ]}
        pagination={{
          current: params.pageNo,
          pageSize: params.pageSize,
          total: roles.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (total, [from, to]) => `${from}-${to} / ${total}`,
          onChange: (pageNo, pageSize) => setParams((p) => ({ ...p, pageNo, pageSize })),
        }}
        onChange={(_, __, sorter) => {
          const { column, order } = sortOf(sorter, ROLE_SORT_COLUMNS, 'createTime');
          setParams((p) =>
            p.column === column && p.order === order ? p : { ...p, column, order, pageNo: 1 },
          );
        }}
      />
      <RoleFormModal
        open={form.open}
        editing={form.editing}
        onClose={() => setForm({ open: false, editing: null })}
        onSubmit={(values) =>
          save.mutateAsync(form.editing ? { ...values, id: form.editing.id } : values)
        }
      />
      <RoleAuthorizeDrawer
        key={authorizing?.id ?? 'closed'}
        role={authorizing}
        onClose={() => setAuthorizing(null)}
      />
    </Card>
  );
}
