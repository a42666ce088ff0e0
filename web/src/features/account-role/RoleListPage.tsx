import { PlusOutlined } from '@ant-design/icons';
import { ProTable } from '@ant-design/pro-components';
import { ROLE_SORT_COLUMNS, ZRoleQuery, type TRole, type TRoleListItem } from '@blrms/contracts';
import { Button, Card, Popconfirm } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useListPage } from '../../shared/entity/use-list-page';
import { useHasAction } from '../../shared/permission/use-has-action';
import { RoleAuthorizeDrawer } from './RoleAuthorizeDrawer';
import { RoleFormModal } from './RoleFormModal';
import type { RoleParams } from './use-roles';
import { useRoleMutations, useRoles } from './use-roles';
import { useRoleColumns } from './use-role-columns';

const DEFAULT_PARAMS: RoleParams = { pageNo: 1, pageSize: 10, column: 'createTime', order: 'desc' };

type Search = { roleName?: string };

/** Role management: roles of the company and the menus, buttons and data rules they grant. */
export default function RoleListPage() {
  const { t, i18n } = useTranslation();
  const list = useListPage<RoleParams, Search>({
    defaults: DEFAULT_PARAMS,
    filters: (values) => ({ roleName: values.roleName?.trim() || undefined }),
    sort: { columns: ROLE_SORT_COLUMNS, fallback: 'createTime' },
    reset: 'defaults',
    url: ZRoleQuery,
  });
  const [form, setForm] = useState<{ open: boolean; editing: TRole | null }>({
    open: false,
    editing: null,
  });
  const [authorizing, setAuthorizing] = useState<TRole | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const roles = useRoles(list.params);
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

  const columns = useRoleColumns({
    can,
    nameOf,
    onEdit: (role) => setForm({ open: true, editing: role }),
    onAuthorize: setAuthorizing,
    onDelete: (role) => remove.mutate([role.id]),
  });

  return (
    <Card styles={{ body: { padding: 0 } }} data-testid="role-page">
      <ProTable<TRoleListItem, Search>
        rowKey="id"
        {...list.tableProps(roles)}
        columns={list.withSortOrder(columns)}
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
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
