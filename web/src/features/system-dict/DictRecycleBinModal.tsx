import type { TDict } from '@blrms/contracts';
import { Button, Modal, Popconfirm, Space, Table, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';
import { formatDateTime } from '../../shared/format';
import {
  DICT_BIN_KEY,
  DICT_SELECT_KEY,
  DICTS_KEY,
  dictApi,
  useDictRecycleBin,
  type DictParams,
} from './use-dicts';

/** Deleted dictionaries: restored with their items, or deleted for good. */
export function DictRecycleBinModal({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useState<DictParams>({
    pageNo: 1,
    pageSize: 10,
    column: 'createTime',
    order: 'desc',
  });
  const bin = useDictRecycleBin(params, true);
  const stale = [[DICTS_KEY], [DICT_BIN_KEY], [DICT_SELECT_KEY]];
  const restore = useEntityMutation({
    mutationFn: (id: string) => dictApi.restore(id),
    invalidates: stale,
    successMessage: serverMessage,
  });
  const purge = useEntityMutation({
    mutationFn: (id: string) => dictApi.purge(id),
    invalidates: [[DICT_BIN_KEY]],
    successMessage: serverMessage,
  });
  const en = i18n.language === 'en-US';

  const columns: TableColumnsType<TDict> = [
    {
      title: t('systemDict.dictName'),
      dataIndex: 'dictName',
      render: (_, row) => (en && row.dictNameEn ? row.dictNameEn : row.dictName),
    },
    {
      title: t('systemDict.dictCode'),
      dataIndex: 'dictCode',
      render: (code: string) => <Typography.Text code>{code}</Typography.Text>,
    },
    {
      title: t('systemDict.createTime'),
      dataIndex: 'updateTime',
      responsive: ['md'],
      render: (_, row) => formatDateTime(row.updateTime ?? row.createTime),
    },
    {
      title: t('systemDict.actions'),
      key: 'actions',
      render: (_, row) => (
        <Space size={0} wrap>
          <Button
            type="link"
            size="small"
            onClick={() => restore.mutate(row.id)}
            data-testid={`dict-restore-${row.dictCode}`}
          >
            {t('systemDict.restore')}
          </Button>
          <Popconfirm
            title={t('systemDict.purgeConfirm', { code: row.dictCode })}
            okText={t('common.ok')}
            cancelText={t('common.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => purge.mutateAsync(row.id)}
          >
            <Button type="link" size="small" danger data-testid={`dict-purge-${row.dictCode}`}>
              {t('systemDict.purge')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Modal
      open
      width={760}
      title={t('systemDict.recycleBin')}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
      data-testid="dict-recycle-bin-modal"
    >
      <Table<TDict>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={bin.data?.records ?? []}
        loading={bin.isFetching}
        locale={{ emptyText: t('systemDict.emptyBin') }}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: params.pageNo,
          pageSize: params.pageSize,
          total: bin.data?.total ?? 0,
          showSizeChanger: false,
          onChange: (pageNo) => setParams((p) => ({ ...p, pageNo })),
        }}
        data-testid="dict-recycle-bin-table"
      />
    </Modal>
  );
}
