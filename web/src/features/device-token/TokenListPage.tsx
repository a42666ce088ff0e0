import { PlusOutlined } from '@ant-design/icons';
import type { ProColumns } from '@ant-design/pro-components';
import { ProTable } from '@ant-design/pro-components';
import type { TDeviceToken } from '@blrms/contracts';
import { TOKEN_SORT_COLUMNS } from '@blrms/contracts';
import { App, Button, Popconfirm, Space, Switch, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatNumber, formatPageRange } from '../../shared/format';
import { Authorized } from '../../shared/permission/Authorized';
import { useHasAction } from '../../shared/permission/use-has-action';
import { useNarrowScreen } from '../../shared/use-narrow-screen';
import { sortOf } from '../../shared/table-sort';
import { NewKeyModal } from './NewKeyModal';
import { RemovedSnsModal } from './RemovedSnsModal';
import { TokenFormModal } from './TokenFormModal';
import { TokenKeyCell } from './TokenKeyCell';
import type { TokenParams } from './use-tokens';
import { useDeleteToken, useEditToken, useRegenerateToken, useTokens } from './use-tokens';

type TokenSearch = { name?: string; enabled?: 'true' | 'false' };

const DEFAULT_PARAMS: TokenParams = {
  pageNo: 1,
  pageSize: 10,
  column: 'createTime',
  order: 'desc',
};

type Form = { open: false } | { open: true; editing: TDeviceToken | null };

/**
 * Token keys (spec section 2): the secrets devices connect with. Create, edit, enable or disable,
 * regenerate and delete; the key is masked, revealed and copied on request. Each token lists the
 * devices deleted from it, which it refuses until they are allowed again.
 */
export default function TokenListPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [params, setParams] = useState<TokenParams>(DEFAULT_PARAMS);
  const [form, setForm] = useState<Form>({ open: false });
  const [newKey, setNewKey] = useState<{
    code: string;
    key: string;
    regenerated: boolean;
  } | null>(null);
  const [removedOf, setRemovedOf] = useState<TDeviceToken | null>(null);
  const tokens = useTokens(params);
  const edit = useEditToken();
  const regenerate = useRegenerateToken();
  const remove = useDeleteToken();
  const canEdit = useHasAction('token:edit');
  const canDelete = useHasAction('token:delete');
  const narrow = useNarrowScreen();

  const setEnabled = (token: TDeviceToken, enabled: boolean) => {
    const apply = async () => {
      await edit.mutateAsync({
        id: token.id,
        name: token.name,
        remark: token.remark,
        autoRegister: token.autoRegister,
        enabled,
      });
      void message.success(enabled ? t('deviceToken.enabledDone') : t('deviceToken.disabledDone'));
    };
    if (enabled) {
      void apply().catch(() => undefined);
      return;
    }
    modal.confirm({
      title: t('deviceToken.disableTitle', { name: token.name }),
      content: t('deviceToken.disableContent'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: () => apply().catch(() => undefined),
    });
  };

  const columns: ProColumns<TDeviceToken>[] = [
    {
      title: t('deviceToken.name'),
      dataIndex: 'name',
      key: 'name',
      width: 160,
      sorter: true,
      ellipsis: true,
      fieldProps: { placeholder: t('deviceToken.namePlaceholder') },
    },
    {
      title: t('deviceToken.code'),
      dataIndex: 'code',
      width: 130,
      hideInSearch: true,
      render: (_, row) => <Typography.Text copyable>{row.code}</Typography.Text>,
    },
    {
      title: t('deviceToken.key'),
      dataIndex: 'tokenKeyMasked',
      width: 280,
      hideInSearch: true,
      render: (_, row) => <TokenKeyCell token={row} />,
    },
    {
      title: t('deviceToken.autoRegister'),
      dataIndex: 'autoRegister',
      width: 110,
      hideInSearch: true,
      render: (_, row) =>
        row.autoRegister ? <Tag color="blue">{t('common.on')}</Tag> : <Tag>{t('common.off')}</Tag>,
    },
    {
      title: t('deviceToken.enabled'),
      dataIndex: 'enabled',
      width: 100,
      valueType: 'select',
      fieldProps: {
        options: [
          { value: 'true', label: t('common.enabled') },
          { value: 'false', label: t('common.disabled') },
        ],
      },
      render: (_, row) => (
        <Switch
          size="small"
          checked={row.enabled}
          disabled={!canEdit}
          loading={edit.isPending && edit.variables?.id === row.id}
          onChange={(checked) => setEnabled(row, checked)}
          aria-label={t('deviceToken.enabled')}
          data-testid={`token-enabled-${row.id}`}
        />
      ),
    },
    {
      title: t('deviceToken.deviceCount'),
      dataIndex: 'deviceCount',
      width: 100,
      align: 'right',
      hideInSearch: true,
      render: (_, row) => formatNumber(row.deviceCount),
    },
    {
      title: t('common.owner'),
      dataIndex: 'ownerName',
      width: 110,
      hideInSearch: true,
    },
    {
      title: t('common.createTime'),
      dataIndex: 'createTime',
      key: 'createTime',
      width: 170,
      sorter: true,
      defaultSortOrder: 'descend',
      hideInSearch: true,
      render: (_, row) => formatDateTime(row.createTime),
    },
    {
      title: t('common.remark'),
      dataIndex: 'remark',
      ellipsis: true,
      hideInSearch: true,
    },
    {
      title: t('common.actions'),
      key: 'actions',
      width: 320,
      fixed: narrow ? undefined : 'right',
      hideInSearch: true,
      render: (_, row) => (
        <Space size={0} wrap>
          <Button
            type="link"
            size="small"
            onClick={() => setRemovedOf(row)}
            data-testid={`token-removed-${row.id}`}
          >
            {t('deviceToken.removedSns')}
          </Button>
          {canEdit && (
            <Button
              type="link"
              size="small"
              onClick={() => setForm({ open: true, editing: row })}
              data-testid={`token-edit-${row.id}`}
            >
              {t('common.edit')}
            </Button>
          )}
          {canEdit && (
            <Popconfirm
              title={t('deviceToken.regenerateTitle')}
              description={t('deviceToken.regenerateContent')}
              okText={t('deviceToken.regenerate')}
              cancelText={t('common.cancel')}
              onConfirm={async () => {
                try {
                  const key = await regenerate.mutateAsync(row.id);
                  setNewKey({ code: row.code, key, regenerated: true });
                } catch {
                  // Reported by the HTTP client.
                }
              }}
            >
              <Button type="link" size="small" data-testid={`token-regenerate-${row.id}`}>
                {t('deviceToken.regenerate')}
              </Button>
            </Popconfirm>
          )}
          {canDelete && (
            <Popconfirm
              title={t('deviceToken.deleteTitle', { name: row.name })}
              description={t('deviceToken.deleteContent')}
              okText={t('common.delete')}
              okButtonProps={{ danger: true }}
              cancelText={t('common.cancel')}
              onConfirm={async () => {
                try {
                  await remove.mutateAsync(row.id);
                  void message.success(t('common.deleted'));
                } catch {
                  // Reported by the HTTP client.
                }
              }}
            >
              <Button type="link" size="small" danger data-testid={`token-delete-${row.id}`}>
                {t('common.delete')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  const search = (values: TokenSearch) =>
    setParams((p) => ({
      ...p,
      pageNo: 1,
      name: values.name?.trim() || undefined,
      enabled: values.enabled,
    }));

  return (
    <>
      <ProTable<TDeviceToken, TokenSearch>
        rowKey="id"
        showSorterTooltip={{ target: 'sorter-icon' }}
        headerTitle={t('deviceToken.title')}
        columns={columns}
        dataSource={tokens.data?.records ?? []}
        loading={tokens.isFetching}
        search={{ labelWidth: 'auto' }}
        onSubmit={search}
        onReset={() => search({})}
        options={{ reload: () => void tokens.refetch(), density: true, setting: true }}
        toolBarRender={() => [
          <Authorized action="token:add" key="add">
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setForm({ open: true, editing: null })}
              data-testid="token-add"
            >
              {t('common.add')}
            </Button>
          </Authorized>,
        ]}
        scroll={{ x: 1580 }}
        pagination={{
          current: params.pageNo,
          pageSize: params.pageSize,
          total: tokens.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: formatPageRange,
          onChange: (pageNo, pageSize) => setParams((p) => ({ ...p, pageNo, pageSize })),
        }}
        onChange={(_, __, sorter) => {
          const sort = sortOf(sorter, TOKEN_SORT_COLUMNS, 'createTime');
          setParams((p) =>
            p.column === sort.column && p.order === sort.order ? p : { ...p, ...sort, pageNo: 1 },
          );
        }}
        data-testid="token-table"
      />
      <TokenFormModal
        open={form.open}
        editing={form.open ? form.editing : null}
        onClose={() => setForm({ open: false })}
        onCreated={(created) => setNewKey({ ...created, regenerated: false })}
      />
      <RemovedSnsModal token={removedOf} onClose={() => setRemovedOf(null)} />
      <NewKeyModal
        token={newKey}
        regenerated={newKey?.regenerated ?? false}
        onClose={() => setNewKey(null)}
      />
    </>
  );
}
