import { PlusOutlined } from '@ant-design/icons';
import type { TApiKey } from '@blrms/contracts';
import { App, Button, Card, Popconfirm, Space, Table, Tabs, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../shared/format';
import { useHasAction } from '../../shared/permission/use-has-action';
import { CreateApiKeyModal } from './CreateApiKeyModal';
import { apiKeyApi, useApiKeys, useReloadApiKeys } from './api-key-api';

const STATUS_COLORS: Record<TApiKey['status'], string> = {
  active: 'green',
  expired: 'default',
  revoked: 'red',
};

/** Codes shown in a cell before "+n". */
const SHOWN_CODES = 3;

function KeyTable({ scope }: { scope: 'own' | 'all' }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const list = useApiKeys(scope);
  const reload = useReloadApiKeys();

  const revoke = async (row: TApiKey) => {
    try {
      await (scope === 'own' ? apiKeyApi.revokeOwn(row.id) : apiKeyApi.revokeAny(row.id));
      void message.success(t('apiKey.revoked'));
      await reload();
    } catch {
      // Reported by the HTTP client.
    }
  };

  const columns: ColumnsType<TApiKey> = [
    ...(scope === 'all'
      ? [{ title: t('apiKey.user'), dataIndex: 'username', width: 120 } as const]
      : []),
    { title: t('apiKey.name'), dataIndex: 'name', width: 160, ellipsis: true },
    {
      title: t('apiKey.prefix'),
      dataIndex: 'prefix',
      width: 200,
      render: (prefix: string) => (
        <Tooltip title={prefix}>
          <code>{`${prefix.slice(0, 14)}…`}</code>
        </Tooltip>
      ),
    },
    {
      title: t('apiKey.permissions'),
      dataIndex: 'permissions',
      width: 260,
      render: (codes: string[]) => (
        <Tooltip title={codes.join(', ')}>
          <Space size={[0, 4]} wrap>
            {codes.slice(0, SHOWN_CODES).map((code) => (
              <Tag key={code}>{code}</Tag>
            ))}
            {codes.length > SHOWN_CODES && <Tag>+{codes.length - SHOWN_CODES}</Tag>}
          </Space>
        </Tooltip>
      ),
    },
    {
      title: t('apiKey.status'),
      dataIndex: 'status',
      width: 100,
      render: (status: TApiKey['status'], row) => (
        <Tag color={STATUS_COLORS[status]} data-testid="api-key-status">
          {t(`apiKey.statuses.${status}`)}
          {row.revokeReason && row.revokeReason !== 'user'
            ? ` (${t(`apiKey.reasons.${row.revokeReason}`)})`
            : ''}
        </Tag>
      ),
    },
    {
      title: t('common.createTime'),
      dataIndex: 'createTime',
      width: 170,
      render: (v: string) => formatDateTime(v),
    },
    {
      title: t('apiKey.expireTime'),
      dataIndex: 'expireTime',
      width: 170,
      render: (v: string) => formatDateTime(v),
    },
    {
      title: t('apiKey.lastUsed'),
      dataIndex: 'lastUsedTime',
      width: 200,
      render: (v: string | null, row) => (
        <span data-testid="api-key-last-used">
          {v ? `${formatDateTime(v)} ${row.lastUsedIp ?? ''}` : t('apiKey.neverUsed')}
        </span>
      ),
    },
    {
      title: t('common.actions'),
      width: 90,
      render: (_, row) =>
        row.status === 'active' && (
          <Popconfirm
            title={t('apiKey.revokeConfirm', { name: row.name })}
            onConfirm={() => revoke(row)}
          >
            <a data-testid="api-key-revoke">{t('apiKey.revoke')}</a>
          </Popconfirm>
        ),
    },
  ];

  return (
    <Table<TApiKey>
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={list.data ?? []}
      loading={list.isFetching}
      pagination={false}
      // Every column has its width: one without would be squeezed to a letter a line on a phone.
      scroll={{ x: columns.reduce((sum, column) => sum + Number(column.width ?? 0), 0) }}
      data-testid={`api-key-table-${scope}`}
    />
  );
}

/** /isps/apiKey, from the user menu: one's own API keys; every key for administrators. */
export default function ApiKeysPage() {
  const { t } = useTranslation();
  const [creating, setCreating] = useState(false);
  const reload = useReloadApiKeys();
  const isAdmin = useHasAction('apikey:admin');

  const create = (
    <Button
      type="primary"
      icon={<PlusOutlined />}
      onClick={() => setCreating(true)}
      data-testid="api-key-create"
    >
      {t('apiKey.create')}
    </Button>
  );

  return (
    <Card title={t('apiKey.title')} extra={create}>
      <p style={{ marginTop: 0 }}>{t('apiKey.intro')}</p>
      {isAdmin ? (
        <Tabs
          items={[
            { key: 'own', label: t('apiKey.mine'), children: <KeyTable scope="own" /> },
            { key: 'all', label: t('apiKey.all'), children: <KeyTable scope="all" /> },
          ]}
        />
      ) : (
        <KeyTable scope="own" />
      )}
      <CreateApiKeyModal
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={() => void reload()}
      />
    </Card>
  );
}
