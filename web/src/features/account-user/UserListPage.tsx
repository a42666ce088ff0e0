import { DownOutlined, ExportOutlined, ImportOutlined, PlusOutlined } from '@ant-design/icons';
import { ProTable } from '@ant-design/pro-components';
import type { TAdminUser } from '@blrms/contracts';
import { ADMIN_USER_SORT_COLUMNS } from '@blrms/contracts';
import { App, Button, Card, Dropdown, Popconfirm, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getCompanyId } from '../../api/session';
import { useListPage } from '../../shared/entity/use-list-page';
import { ResetPasswordModal } from './ResetPasswordModal';
import { UserFormModal } from './UserFormModal';
import type { UserFilters, UserParams } from './use-users';
import { exportUsers, useUserMutations, useUsers } from './use-users';
import { useUserActions, useUserColumns } from './use-user-columns';

const DEFAULT_PARAMS: UserParams = {
  pageNo: 1,
  pageSize: 10,
  column: 'createTime',
  order: 'desc',
};

type Search = {
  username?: string;
  realname?: string;
  phone?: string;
  status?: string;
  departId?: string;
};

const filtersOf = (p: UserParams): UserFilters => {
  const { pageNo: _p, pageSize: _s, column: _c, order: _o, ...filters } = p;
  return filters;
};

/** Login accounts: search, add/edit with roles, departments and positions, freeze, reset, import/export. */
export default function UserListPage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const list = useListPage<UserParams, Search>({
    defaults: DEFAULT_PARAMS,
    filters: (values) => ({
      username: values.username?.trim() || undefined,
      realname: values.realname?.trim() || undefined,
      phone: values.phone?.trim() || undefined,
      status: values.status ? Number(values.status) : undefined,
      departId: values.departId || undefined,
    }),
    sort: { columns: ADMIN_USER_SORT_COLUMNS, fallback: 'createTime' },
    reset: 'defaults',
  });
  const [form, setForm] = useState<{ open: boolean; editing: TAdminUser | null }>({
    open: false,
    editing: null,
  });
  const [resetting, setResetting] = useState<TAdminUser | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const users = useUsers(list.params);
  const { save, setFrozen, remove, resetPassword, importFile } = useUserMutations();
  const can = useUserActions();

  const columns = useUserColumns({
    rows: users.data?.records ?? [],
    can,
    onEdit: (user) => setForm({ open: true, editing: user }),
    onResetPassword: setResetting,
    setFrozen,
    remove,
  });

  const batch = (frozen: boolean) =>
    setFrozen.mutate({ ids: selected, frozen }, { onSuccess: () => setSelected([]) });

  return (
    <Card styles={{ body: { padding: 0 } }} data-testid="user-page">
      <ProTable<TAdminUser, Search>
        rowKey="id"
        {...list.tableProps(users)}
        columns={columns}
        search={{ labelWidth: 'auto', defaultCollapsed: true }}
        // Every column but the creation time (offered in the column settings) fits at 1440 px
        // next to the 200 px menu, departments and company included.
        scroll={{ x: 1130 }}
        columnsState={{ defaultValue: { createTime: { show: false } } }}
        rowSelection={
          can.delete || can.freeze
            ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) }
            : undefined
        }
        toolBarRender={() => [
          can.add && (
            <Button
              key="add"
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setForm({ open: true, editing: null })}
              data-testid="user-add"
            >
              {t('userAdmin.add')}
            </Button>
          ),
          can.import && (
            <Upload
              key="import"
              accept=".xlsx,.csv"
              showUploadList={false}
              beforeUpload={(file) => {
                importFile.mutate(file, {
                  onSuccess: ({ result, message }) =>
                    modal.info({
                      title: message,
                      content:
                        result.errors.length === 0
                          ? null
                          : result.errors.map((e) => (
                              <div key={e.row}>{t('userAdmin.importRowError', e)}</div>
                            )),
                    }),
                });
                return false;
              }}
            >
              <Button
                icon={<ImportOutlined />}
                loading={importFile.isPending}
                data-testid="user-import"
              >
                {t('userAdmin.import')}
              </Button>
            </Upload>
          ),
          can.export && (
            <Dropdown
              key="export"
              menu={{
                items: [
                  { key: 'xlsx', label: 'Excel (.xlsx)' },
                  { key: 'csv', label: 'CSV (.csv)' },
                ],
                onClick: ({ key }) =>
                  void exportUsers(filtersOf(list.params), key === 'csv' ? 'csv' : 'xlsx'),
              }}
            >
              <Button icon={<ExportOutlined />} data-testid="user-export">
                {t('userAdmin.export')} <DownOutlined />
              </Button>
            </Dropdown>
          ),
          selected.length > 0 && can.freeze && (
            <Button key="freeze" onClick={() => batch(true)}>
              {t('userAdmin.freezeSelected')}
            </Button>
          ),
          selected.length > 0 && can.freeze && (
            <Button key="unfreeze" onClick={() => batch(false)}>
              {t('userAdmin.unfreezeSelected')}
            </Button>
          ),
          selected.length > 0 && can.delete && (
            <Popconfirm
              key="delete"
              title={t('userAdmin.deleteSelectedConfirm', { count: selected.length })}
              onConfirm={() => remove.mutate(selected, { onSuccess: () => setSelected([]) })}
            >
              <Button danger>{t('userAdmin.deleteSelected')}</Button>
            </Popconfirm>
          ),
        ]}
      />
      <UserFormModal
        open={form.open}
        editing={form.editing}
        currentCompanyId={getCompanyId()}
        canChooseCompany={can.chooseCompany}
        onClose={() => setForm({ open: false, editing: null })}
        onSubmit={(values) => save.mutateAsync(values)}
      />
      <ResetPasswordModal
        user={resetting}
        onClose={() => setResetting(null)}
        onSubmit={(body) => resetPassword.mutateAsync(body)}
      />
    </Card>
  );
}
