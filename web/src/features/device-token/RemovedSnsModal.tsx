import type { TDeviceToken, TRemovedSn } from '@blrms/contracts';
import { Alert, App, Button, Input, Modal, Popconfirm, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatPageRange } from '../../shared/format';
import { useHasAction } from '../../shared/permission/use-has-action';
import type { RemovedSnParams } from './use-tokens';
import { useAllowSns, useRemovedSns } from './use-tokens';

/**
 * The SNs deleted from a token (token page, "Removed devices"): auto-registration refuses them so
 * that a deleted device stays deleted. Users with the token edit button may allow one again.
 */
export function RemovedSnsModal({
  token,
  onClose,
}: {
  token: TDeviceToken | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const canEdit = useHasAction('token:edit');
  const [paging, setPaging] = useState({ pageNo: 1, pageSize: 10 });
  const [sn, setSn] = useState('');
  const params: RemovedSnParams | null = token
    ? { tokenId: token.id, ...paging, order: 'desc', sn: sn || undefined }
    : null;
  const removed = useRemovedSns(params);
  const allow = useAllowSns();

  const close = () => {
    setPaging({ pageNo: 1, pageSize: 10 });
    setSn('');
    onClose();
  };

  const columns: ColumnsType<TRemovedSn> = [
    { title: t('deviceToken.removedSn'), dataIndex: 'sn', ellipsis: true },
    {
      title: t('deviceToken.removedAt'),
      dataIndex: 'removedAt',
      width: 170,
      render: (_, row) => formatDateTime(row.removedAt),
    },
    {
      title: t('deviceToken.removedBy'),
      dataIndex: 'removedBy',
      width: 110,
      render: (_, row) => row.removedBy ?? '-',
    },
    ...(canEdit
      ? [
          {
            title: t('common.actions'),
            key: 'actions',
            width: 110,
            render: (_: unknown, row: TRemovedSn) => (
              <Popconfirm
                title={t('deviceToken.allowAgainTitle', { sn: row.sn })}
                okText={t('deviceToken.allowAgain')}
                cancelText={t('common.cancel')}
                onConfirm={async () => {
                  if (!token) return;
                  try {
                    await allow.mutateAsync({ tokenId: token.id, sns: [row.sn] });
                    void message.success(t('deviceToken.allowedDone', { sn: row.sn }));
                  } catch {
                    // Reported by the HTTP client.
                  }
                }}
              >
                <Button type="link" size="small" data-testid={`removed-allow-${row.sn}`}>
                  {t('deviceToken.allowAgain')}
                </Button>
              </Popconfirm>
            ),
          },
        ]
      : []),
  ];

  return (
    <Modal
      open={token !== null}
      title={token ? t('deviceToken.removedTitle', { name: token.name }) : null}
      onCancel={close}
      footer={null}
      width={720}
      destroyOnHidden
    >
      <Alert type="info" showIcon message={t('deviceToken.removedHint')} />
      <Input.Search
        allowClear
        placeholder={t('deviceToken.snSearch')}
        onSearch={(value) => {
          setSn(value.trim());
          setPaging((p) => ({ ...p, pageNo: 1 }));
        }}
        style={{ margin: '16px 0 12px', maxWidth: 280 }}
        data-testid="removed-sns-search"
      />
      <Table<TRemovedSn>
        rowKey="sn"
        size="small"
        columns={columns}
        dataSource={removed.data?.records ?? []}
        loading={removed.isFetching}
        locale={{ emptyText: t('deviceToken.removedEmpty') }}
        scroll={{ x: 560 }}
        pagination={{
          current: paging.pageNo,
          pageSize: paging.pageSize,
          total: removed.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: formatPageRange,
          onChange: (pageNo, pageSize) => setPaging({ pageNo, pageSize }),
        }}
        data-testid="removed-sns-table"
      />
    </Modal>
  );
}
