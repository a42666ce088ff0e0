import { ProTable, type ProColumns } from '@ant-design/pro-components';
import type { TOnlineUser } from '@blrms/contracts';
import { Button, Card, Popconfirm, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useListPage } from '../../shared/entity/use-list-page';
import { formatDateTime } from '../../shared/format';
import { useHasAction } from '../../shared/permission/use-has-action';
import { useForceLogout, useOnlineUsers, type OnlineUserParams } from './use-monitor';

const DEFAULT_PARAMS: OnlineUserParams = { pageNo: 1, pageSize: 10, order: 'desc' };

type Search = { username?: string };

/** 在线用户 (platform administrators): live sessions of every company, and force logout. */
export default function OnlineUserListPage() {
  const { t } = useTranslation();
  const list = useListPage<OnlineUserParams, Search>({
    defaults: DEFAULT_PARAMS,
    filters: (values) => ({ username: values.username?.trim() || undefined }),
  });
  const sessions = useOnlineUsers(list.params);
  const forceLogout = useForceLogout();
  const canForce = useHasAction('system:online:forceLogout');

  const columns: ProColumns<TOnlineUser>[] = [
    {
      title: t('onlineUser.username'),
      dataIndex: 'username',
      render: (_, row) => (
        <span>
          {row.username}
          {row.current && (
            <Tag color="blue" style={{ marginLeft: 8 }}>
              {t('onlineUser.current')}
            </Tag>
          )}
        </span>
      ),
    },
    { title: t('onlineUser.realname'), dataIndex: 'realname', search: false },
    { title: t('onlineUser.company'), dataIndex: 'companyName', search: false },
    {
      title: t('onlineUser.ip'),
      dataIndex: 'ip',
      search: false,
      render: (_, row) => row.ip ?? '-',
    },
    {
      title: t('onlineUser.loginTime'),
      dataIndex: 'loginTime',
      search: false,
      render: (_, row) => formatDateTime(row.loginTime),
    },
    {
      title: t('onlineUser.lastSeen'),
      dataIndex: 'lastSeen',
      search: false,
      render: (_, row) => formatDateTime(row.lastSeen),
    },
    {
      title: t('onlineUser.expireTime'),
      dataIndex: 'expireTime',
      search: false,
      render: (_, row) => formatDateTime(row.expireTime),
    },
    {
      title: t('onlineUser.userAgent'),
      dataIndex: 'userAgent',
      search: false,
      ellipsis: true,
      width: 200,
    },
    {
      title: t('onlineUser.actions'),
      key: 'actions',
      search: false,
      fixed: 'right',
      width: 110,
      render: (_, row) =>
        canForce && !row.current ? (
          <Popconfirm
            title={t('onlineUser.forceLogoutConfirm', { username: row.username })}
            onConfirm={() => forceLogout.mutateAsync({ id: row.id })}
          >
            <Button type="link" danger size="small" data-testid={`force-logout-${row.username}`}>
              {t('onlineUser.forceLogout')}
            </Button>
          </Popconfirm>
        ) : null,
    },
  ];

  return (
    <Card styles={{ body: { paddingTop: 8 } }} data-testid="online-user-page">
      <Typography.Paragraph type="secondary">{t('onlineUser.hint')}</Typography.Paragraph>
      <ProTable<TOnlineUser, Search>
        rowKey="id"
        {...list.tableProps(sessions)}
        columns={columns}
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        cardProps={{ bodyStyle: { padding: 0 } }}
        scroll={{ x: 1200 }}
        data-testid="online-user-table"
      />
    </Card>
  );
}
