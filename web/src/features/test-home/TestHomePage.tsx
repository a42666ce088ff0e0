import type { TMenuItem } from '@blrms/contracts';
import { useQuery } from '@tanstack/react-query';
import { Badge, Card, Descriptions, Space, Tag, Tree, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useTranslation } from 'react-i18next';
import { http } from '../../api/client';
import { getCompanies, getCompanyId } from '../../api/session';
import type { RealtimeStatus } from '../../realtime/realtime-client';
import { useRealtimeStatus } from '../../realtime/use-realtime';
import { useUserPermission } from '../../shared/permission/use-user-permission';
import { useLoginUser } from '../../shared/use-login-user';

type Health = { status: 'ok'; db: 'ok'; version: string };

const SOCKET_BADGE: Record<RealtimeStatus, 'success' | 'processing' | 'error'> = {
  open: 'success',
  connecting: 'processing',
  down: 'error',
};

function menuTree(items: readonly TMenuItem[], hiddenLabel: string): DataNode[] {
  return items.map((item) => ({
    key: item.id,
    title: (
      <Space size={6} wrap>
        <span>{item.meta.title}</span>
        <Typography.Text code>{item.path}</Typography.Text>
        <Typography.Text type="secondary">{item.redirect ?? item.component}</Typography.Text>
        {item.hidden && <Tag bordered={false}>{hiddenLabel}</Tag>}
      </Space>
    ),
    children: menuTree(item.children ?? [], hiddenLabel),
  }));
}

/**
 * The spec's /test/home: what an administrator checks when the console misbehaves for someone —
 * who is signed in, what the server granted (buttons and the menu as sent), whether the
 * websocket is up and which server version answers.
 */
export default function TestHomePage() {
  const { t } = useTranslation();
  const user = useLoginUser();
  const permission = useUserPermission();
  const socket = useRealtimeStatus();
  const health = useQuery({
    queryKey: ['health'],
    queryFn: () => http.get<Health>('/health'),
  });
  const companyId = getCompanyId();
  const company = getCompanies().find((c) => c.id === companyId);
  const codes = (permission.data?.auth ?? []).map((a) => a.action).sort();

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="test-home">
      <Card title={t('testHome.title')}>
        <Descriptions column={{ xs: 1, md: 2 }} bordered size="small">
          <Descriptions.Item label={t('testHome.user')}>
            <span data-testid="test-home-user">
              {user ? `${user.realname} (${user.username})` : '-'}
            </span>
          </Descriptions.Item>
          <Descriptions.Item label={t('testHome.userId')}>
            <Typography.Text copyable>{user?.id ?? '-'}</Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('testHome.company')}>
            {company ? `${company.name} (${company.id})` : (companyId ?? '-')}
          </Descriptions.Item>
          <Descriptions.Item label={t('testHome.depart')}>{user?.orgCode ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('testHome.websocket')}>
            <Badge
              status={SOCKET_BADGE[socket]}
              text={t(`testHome.socket_${socket}`)}
              data-testid="test-home-socket"
              data-status={socket}
            />
          </Descriptions.Item>
          <Descriptions.Item label={t('testHome.serverVersion')}>
            <span data-testid="test-home-version">
              {health.data?.version ?? (health.isError ? t('testHome.unreachable') : '…')}
            </span>
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <Card title={t('testHome.permissions', { count: codes.length })}>
        <Space size={[4, 4]} wrap data-testid="test-home-permissions">
          {codes.map((code) => (
            <Tag key={code}>{code}</Tag>
          ))}
        </Space>
      </Card>
      <Card title={t('testHome.menu')}>
        <Tree
          treeData={menuTree(permission.data?.menu ?? [], t('testHome.hidden'))}
          defaultExpandAll
          selectable={false}
          data-testid="test-home-menu"
        />
      </Card>
    </Space>
  );
}
