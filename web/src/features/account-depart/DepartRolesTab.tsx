import { PlusOutlined } from '@ant-design/icons';
import { ModalForm, ProFormText } from '@ant-design/pro-components';
import { ZDepartRoleAdd, type TDepartRole, type TDepartTreeNode } from '@blrms/contracts';
import { Button, Form, Modal, Popconfirm, Select, Space, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { zodRules } from '../../shared/entity/zod-rules';
import { submitForm } from '../../shared/field-errors';
import { formatDateTime } from '../../shared/format';
import { GrantTree } from './GrantTree';
import {
  useCeilingTree,
  useDepartMembers,
  useDepartMutations,
  useDepartRoles,
  useRolePermissionIds,
  useRoleUserIds,
} from './use-departs';

type RoleValues = { roleName: string; roleCode: string };

function RolePermissionModal({
  depart,
  role,
  onClose,
}: {
  depart: TDepartTreeNode;
  role: TDepartRole | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const tree = useCeilingTree(depart.id, role !== null);
  const granted = useRolePermissionIds(role?.id ?? null);
  const { saveRolePermission } = useDepartMutations();
  return (
    <Modal
      title={t('departAdmin.rolePermissionsOf', { name: role?.roleName ?? '' })}
      open={role !== null}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      width={560}
    >
      <GrantTree
        tree={tree.data}
        granted={granted.data}
        loading={tree.isLoading || granted.isLoading}
        saving={saveRolePermission.isPending}
        onSave={(permissionIds) =>
          role &&
          saveRolePermission.mutate({ roleId: role.id, permissionIds }, { onSuccess: onClose })
        }
        testId="depart-role-permission-tree"
      />
    </Modal>
  );
}

function RoleUsersModal({
  depart,
  role,
  onClose,
}: {
  depart: TDepartTreeNode;
  role: TDepartRole | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const members = useDepartMembers(depart.id, {
    pageNo: 1,
    pageSize: 1000,
    column: 'username',
    order: 'asc',
  });
  const holders = useRoleUserIds(role?.id ?? null);
  // What the user changed; until then the current holders are shown.
  const [edited, setPicked] = useState<string[] | null>(null);
  const picked = edited ?? holders.data ?? [];
  const { saveRoleUsers } = useDepartMutations();
  return (
    <Modal
      title={t('departAdmin.roleUsersOf', { name: role?.roleName ?? '' })}
      open={role !== null}
      onCancel={onClose}
      okButtonProps={{ loading: saveRoleUsers.isPending }}
      onOk={() =>
        role && saveRoleUsers.mutate({ roleId: role.id, userIds: picked }, { onSuccess: onClose })
      }
      destroyOnHidden
    >
      <Select
        mode="multiple"
        style={{ width: '100%' }}
        placeholder={t('departAdmin.pickRoleUsers')}
        value={picked}
        onChange={setPicked}
        optionFilterProp="label"
        loading={members.isFetching || holders.isFetching}
        options={(members.data?.records ?? []).map((u) => ({
          value: u.id,
          label: `${u.realname} (${u.username})`,
        }))}
        data-testid="depart-role-user-picker"
      />
    </Modal>
  );
}

/** Roles of the department: each holds a part of the department's permissions, for its members. */
export function DepartRolesTab({
  depart,
  canManage,
}: {
  depart: TDepartTreeNode;
  canManage: boolean;
}) {
  const { t } = useTranslation();
  const [page, setPage] = useState({ pageNo: 1, pageSize: 10 });
  const [form, setForm] = useState<{ open: boolean; editing: TDepartRole | null }>({
    open: false,
    editing: null,
  });
  const [authorizing, setAuthorizing] = useState<TDepartRole | null>(null);
  const [assigning, setAssigning] = useState<TDepartRole | null>(null);
  const [roleForm] = Form.useForm<RoleValues>();
  const roles = useDepartRoles(depart.id, page.pageNo, page.pageSize);
  const { saveRole, removeRole } = useDepartMutations();

  return (
    <>
      {canManage && (
        <Button
          type="primary"
          icon={<PlusOutlined />}
          style={{ marginBottom: 12 }}
          onClick={() => setForm({ open: true, editing: null })}
          data-testid="depart-role-add"
        >
          {t('departAdmin.addRole')}
        </Button>
      )}
      <Table<TDepartRole>
        rowKey="id"
        size="small"
        loading={roles.isFetching}
        dataSource={roles.data?.records ?? []}
        scroll={{ x: 560 }}
        pagination={{
          current: page.pageNo,
          pageSize: page.pageSize,
          total: roles.data?.total ?? 0,
          size: 'small',
          onChange: (pageNo, pageSize) => setPage({ pageNo, pageSize }),
        }}
        columns={[
          { title: t('departAdmin.roleName'), dataIndex: 'roleName' },
          { title: t('departAdmin.roleCode'), dataIndex: 'roleCode' },
          {
            title: t('departAdmin.createTime'),
            dataIndex: 'createTime',
            render: (v: string) => formatDateTime(v),
          },
          ...(canManage
            ? [
                {
                  title: t('departAdmin.actions'),
                  key: 'actions',
                  width: 220,
                  render: (_: unknown, row: TDepartRole) => (
                    <Space size="small" wrap>
                      <a onClick={() => setAuthorizing(row)} data-testid="depart-role-authorize">
                        {t('departAdmin.authorize')}
                      </a>
                      <a onClick={() => setAssigning(row)} data-testid="depart-role-users">
                        {t('departAdmin.roleUsers')}
                      </a>
                      <a onClick={() => setForm({ open: true, editing: row })}>
                        {t('departAdmin.edit')}
                      </a>
                      <Popconfirm
                        title={t('departAdmin.deleteRoleConfirm', { name: row.roleName })}
                        onConfirm={() => removeRole.mutate(row.id)}
                      >
                        <a>{t('departAdmin.delete')}</a>
                      </Popconfirm>
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
        data-testid="depart-roles"
      />
      <ModalForm<RoleValues>
        form={roleForm}
        name="departRole"
        key={form.editing?.id ?? 'new'}
        title={form.editing ? t('departAdmin.editRole') : t('departAdmin.addRole')}
        open={form.open}
        width={440}
        modalProps={{
          destroyOnHidden: true,
          onCancel: () => setForm({ open: false, editing: null }),
        }}
        initialValues={
          form.editing
            ? { roleName: form.editing.roleName, roleCode: form.editing.roleCode }
            : undefined
        }
        onFinish={async (values) => {
          // A server rule the form broke (a role code taken, say) shows under its field.
          const saved = await submitForm(roleForm, () =>
            saveRole.mutateAsync(
              form.editing
                ? { ...values, id: form.editing.id }
                : { ...values, departId: depart.id },
            ),
          );
          if (!saved) return false;
          setForm({ open: false, editing: null });
          return true;
        }}
        data-testid="depart-role-form"
      >
        <ProFormText
          name="roleName"
          label={t('departAdmin.roleName')}
          rules={zodRules(ZDepartRoleAdd, 'roleName', {
            required: t('departAdmin.roleNameRequired'),
          })}
        />
        <ProFormText
          name="roleCode"
          label={t('departAdmin.roleCode')}
          rules={zodRules(ZDepartRoleAdd, 'roleCode', {
            required: t('departAdmin.roleCodeRequired'),
            pattern: t('departAdmin.roleCodeRule'),
            maxLength: () => t('departAdmin.roleCodeRule'),
          })}
        />
      </ModalForm>
      <RolePermissionModal
        depart={depart}
        role={authorizing}
        onClose={() => setAuthorizing(null)}
      />
      <RoleUsersModal
        key={assigning?.id ?? 'none'}
        depart={depart}
        role={assigning}
        onClose={() => setAssigning(null)}
      />
    </>
  );
}
