import { DownOutlined } from '@ant-design/icons';
import type { ProColumns } from '@ant-design/pro-components';
import type { TAdminUser } from '@blrms/contracts';
import { ADMIN_USER_STATUS } from '@blrms/contracts';
import { App, Dropdown, Space, Tag, TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import { TWO_FACTOR_NS } from '../../app/i18n/two-factor';
import { formatDateTime } from '../../shared/format';
import { useHasAction } from '../../shared/permission/use-has-action';
import { useDictOptions } from '../../shared/use-dict-items';
import { LoginSecurityTags } from './LoginSecurityTags';
import { useLoginSecurity, useLoginSecurityMutations } from './use-login-security';
import type { useUserMutations } from './use-users';
import { useDepartTree } from './use-users';

/** The values the server's status filter takes; the `user_status` dictionary words them. */
const USER_STATUS_VALUES = [String(ADMIN_USER_STATUS.normal), String(ADMIN_USER_STATUS.frozen)];

/** The user-list actions the signed-in user may take. */
export function useUserActions() {
  return {
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
}

type UserMutations = ReturnType<typeof useUserMutations>;

/**
 * The user table's columns: status, login-security tags (locked, two-factor) and departments,
 * with the row actions (edit, reset password, freeze, unlock, reset two-factor, delete).
 */
export function useUserColumns({
  rows,
  can,
  onEdit,
  onResetPassword,
  setFrozen,
  remove,
}: {
  rows: TAdminUser[];
  can: ReturnType<typeof useUserActions>;
  onEdit: (user: TAdminUser) => void;
  onResetPassword: (user: TAdminUser) => void;
  setFrozen: UserMutations['setFrozen'];
  remove: UserMutations['remove'];
}): ProColumns<TAdminUser>[] {
  const { t } = useTranslation();
  const { t: tf } = useTranslation(TWO_FACTOR_NS);
  const statuses = useDictOptions('user_status', USER_STATUS_VALUES, [
    { value: String(ADMIN_USER_STATUS.normal), label: t('userAdmin.normal') },
    { value: String(ADMIN_USER_STATUS.frozen), label: t('userAdmin.frozen') },
  ]);
  const { modal } = App.useApp();
  const departs = useDepartTree(true);
  const security = useLoginSecurity(rows.map((u) => u.id));
  const { unlock, resetTwoFactor } = useLoginSecurityMutations();

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
      if (key === 'reset') onResetPassword(row);
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
          <a onClick={() => onEdit(row)} data-testid="user-edit">
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
        options: statuses,
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
  return allColumns.filter((c): c is ProColumns<TAdminUser> => c !== false);
}
