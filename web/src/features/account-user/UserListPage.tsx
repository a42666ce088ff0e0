import { DownOutlined, ExportOutlined, ImportOutlined, PlusOutlined } from '@ant-design/icons';
import type { ProColumns } from '@ant-design/pro-components';
import { ProTable } from '@ant-design/pro-components';
import type { TAdminUser } from '@blrms/contracts';
import { ADMIN_USER_SORT_COLUMNS, ADMIN_USER_STATUS } from '@blrms/contracts';
import { App, Button, Card, Dropdown, Popconfirm, Space, Tag, TreeSelect, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getCompanyId } from '../../api/session';
import { formatDateTime } from '../../shared/format';
import { useHasAction } from '../../shared/permission/use-has-action';
import { TWO_FACTOR_NS } from '../../app/i18n/two-factor';
import { LoginSecurityTags } from './LoginSecurityTags';
import { ResetPasswordModal } from './ResetPasswordModal';
import { useLoginSecurity, useLoginSecurityMutations } from './use-login-security';
import { UserFormModal } from './UserFormModal';
import type { UserFilters, UserParams } from './use-users';
import { exportUsers, useDepartTree, useUserMutations, useUsers } from './use-users';
import { sortOf } from '../../shared/table-sort';

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
  const { t: tf } = useTranslation(TWO_FACTOR_NS);
  const { modal } = App.useApp();
  const [params, setParams] = useState<UserParams>(DEFAULT_PARAMS);
  const [form, setForm] = useState<{ open: boolean; editing: TAdminUser | null }>({
    open: false,
    editing: null,
  });
  const [resetting, setResetting] = useState<TAdminUser | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const users = useUsers(params);
  const departs = useDepartTree(true);
  const { save, setFrozen, remove, resetPassword, importFile } = useUserMutations();
  const security = useLoginSecurity((users.data?.records ?? []).map((u) => u.id));
  const { unlock, resetTwoFactor } = useLoginSecurityMutations();
  const can = {
    add: useHasAction('account:user:add'),
    edit: useHasAction('account:user:edit'),
    delete: useHasAction('account:user:delete'),
    freeze: useHasAction('account:user:freeze'),
    reset: useHasAction('account:user:resetPassword'),
    import: useHasAction('account:user:import'),
    export: useHasAction('account:user:export'),
    chooseCompany: useHasAction('system:company:list'),
    unlock: useHasAction('account:user:unlock'),
    resetTwoFactor: useHasAction('account:user:resetTwoFactor'),
  };

  const statusTag = (status: number) =>
    status === ADMIN_USER_STATUS.frozen ? (
      <Tag color="error">{t('userAdmin.frozen')}</Tag>
    ) : (
      <Tag color="success">{t('userAdmin.normal')}</Tag>
    );

  const rowActions = (row: TAdminUser) => {
    const frozen = row.status === ADMIN_USER_STATUS.frozen;
    const items = [
      can.reset && { key: 'reset', label: t('userAdmin.resetPassword') },
      can.freeze && {
        key: 'freeze',
        label: frozen ? t('userAdmin.unfreeze') : t('userAdmin.freeze'),
      },
      can.unlock && security.data?.get(row.id)?.locked && { key: 'unlock', label: tf('unlock') },
      can.resetTwoFactor &&
        security.data?.get(row.id)?.twoFactorEnabled && {
          key: 'resetTwoFactor',
          label: tf('reset'),
        },
      can.delete && { key: 'delete', label: t('userAdmin.delete'), danger: true },
    ].filter((i) => i !== false && i !== undefined);
    const onClick = ({ key }: { key: string }) => {
      if (key === 'reset') setResetting(row);
      if (key === 'unlock') unlock.mutate(row.id);
      if (key === 'resetTwoFactor') {
        modal.confirm({
          title: tf('resetConfirm', { username: row.username }),
          onOk: () => resetTwoFactor.mutateAsync(row.id),
        });
      }
      if (key === 'freeze') setFrozen.mutate({ ids: [row.id], frozen: !frozen });
      if (key === 'delete') {
        modal.confirm({
          title: t('userAdmin.deleteConfirm', { username: row.username }),
          okButtonProps: { danger: true },
          onOk: () => remove.mutateAsync([row.id]),
        });
      }
    };
    return (
      <Space size="small">
        {can.edit && (
          <a onClick={() => setForm({ open: true, editing: row })} data-testid="user-edit">
            {t('userAdmin.edit')}
          </a>
        )}
        {items.length > 0 && (
          <Dropdown menu={{ items, onClick }} trigger={['click']}>
            <a data-testid="user-more">
              {t('userAdmin.more')} <DownOutlined />
            </a>
          </Dropdown>
        )}
      </Space>
    );
  };

  const allColumns: (ProColumns<TAdminUser> | false)[] = [
    {
      title: t('userAdmin.username'),
      dataIndex: 'username',
      key: 'username',
      sorter: true,
      width: 120,
      fixed: 'left',
    },
    {
      title: t('userAdmin.realname'),
      dataIndex: 'realname',
      key: 'realname',
      sorter: true,
      width: 110,
      ellipsis: true,
    },
    { title: t('userAdmin.phone'), dataIndex: 'phone', width: 110 },
    {
      title: t('userAdmin.email'),
      dataIndex: 'email',
      width: 150,
      hideInSearch: true,
      ellipsis: true,
    },
    {
      title: t('userAdmin.status'),
      dataIndex: 'status',
      width: 90,
      valueType: 'select',
      fieldProps: {
        options: [
          { value: String(ADMIN_USER_STATUS.normal), label: t('userAdmin.normal') },
          { value: String(ADMIN_USER_STATUS.frozen), label: t('userAdmin.frozen') },
        ],
      },
      render: (_, row) => (
        <>
          {statusTag(row.status)}
          <LoginSecurityTags security={security.data?.get(row.id)} />
        </>
      ),
    },
    {
      title: t('userAdmin.departs'),
      dataIndex: 'departId',
      hideInTable: true,
      renderFormItem: () => (
        <TreeSelect<string>
          allowClear
          treeDefaultExpandAll
          treeData={departs.data ?? []}
          fieldNames={{ label: 'title', value: 'id', children: 'children' }}
          placeholder={t('userAdmin.departPlaceholder')}
        />
      ),
    },
    {
      title: t('userAdmin.roles'),
      dataIndex: 'roleNames',
      hideInSearch: true,
      width: 140,
      render: (_, row) => row.roleNames.map((n) => <Tag key={n}>{n}</Tag>),
    },
    {
      title: t('userAdmin.departs'),
      dataIndex: 'departNames',
      hideInSearch: true,
      width: 130,
      ellipsis: true,
      render: (_, row) => row.departNames.join(', '),
    },
    can.chooseCompany && {
      title: t('userAdmin.company'),
      dataIndex: 'companyName',
      hideInSearch: true,
      width: 120,
      ellipsis: true,
    },
    {
      title: t('userAdmin.createTime'),
      dataIndex: 'createTime',
      key: 'createTime',
      sorter: true,
      hideInSearch: true,
      width: 170,
      render: (_, row) => formatDateTime(row.createTime),
    },
    {
      title: t('userAdmin.actions'),
      valueType: 'option',
      width: 140,
      fixed: 'right',
      hidden: !can.edit && !can.reset && !can.freeze && !can.delete,
      render: (_, row) => rowActions(row),
    },
  ];
  const columns = allColumns.filter((c): c is ProColumns<TAdminUser> => c !== false);

  const batch = (frozen: boolean) =>
    setFrozen.mutate({ ids: selected, frozen }, { onSuccess: () => setSelected([]) });

  return (
    <Card styles={{ body: { padding: 0 } }} data-testid="user-page">
      <ProTable<TAdminUser, Search>
        rowKey="id"
        columns={columns}
        dataSource={users.data?.records ?? []}
        loading={users.isFetching}
        search={{ labelWidth: 'auto', defaultCollapsed: true }}
        onSubmit={(values) =>
          setParams((p) => ({
            ...p,
            pageNo: 1,
            username: values.username?.trim() || undefined,
            realname: values.realname?.trim() || undefined,
            phone: values.phone?.trim() || undefined,
            status: values.status ? Number(values.status) : undefined,
            departId: values.departId || undefined,
          }))
        }
        onReset={() => setParams(DEFAULT_PARAMS)}
        options={{ reload: () => void users.refetch(), density: true, setting: true }}
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
                  void exportUsers(filtersOf(params), key === 'csv' ? 'csv' : 'xlsx'),
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
        pagination={{
          current: params.pageNo,
          pageSize: params.pageSize,
          total: users.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (total, [from, to]) => `${from}-${to} / ${total}`,
          onChange: (pageNo, pageSize) => setParams((p) => ({ ...p, pageNo, pageSize })),
        }}
        onChange={(_, __, sorter) => {
          const { column, order } = sortOf(sorter, ADMIN_USER_SORT_COLUMNS, 'createTime');
          setParams((p) =>
            p.column === column && p.order === order ? p : { ...p, column, order, pageNo: 1 },
          );
        }}
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
