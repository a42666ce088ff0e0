import type { ProColumns } from '@ant-design/pro-components';
import type { TDeviceToken } from '@blrms/contracts';
import { App, Button, Popconfirm, Space, Switch, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatNumber } from '../../shared/format';
import { useHasAction } from '../../shared/permission/use-has-action';
import { useNarrowScreen } from '../../shared/use-narrow-screen';
import { TokenKeyCell } from './TokenKeyCell';
import { useDeleteToken, useEditToken, useRegenerateToken } from './use-tokens';

/**
 * The token table's columns, with the row actions: enable or disable (asked first), edit,
 * regenerate the key, delete, and the devices deleted from the token.
 */
export function useTokenColumns({
  onEdit,
  onShowRemoved,
  onKeyRegenerated,
}: {
  onEdit: (token: TDeviceToken) => void;
  onShowRemoved: (token: TDeviceToken) => void;
  onKeyRegenerated: (token: TDeviceToken, key: string) => void;
}): ProColumns<TDeviceToken>[] {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
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

  return [
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
            onClick={() => onShowRemoved(row)}
            data-testid={`token-removed-${row.id}`}
          >
            {t('deviceToken.removedSns')}
          </Button>
          {canEdit && (
            <Button
              type="link"
              size="small"
              onClick={() => onEdit(row)}
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
                  onKeyRegenerated(row, key);
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
}
