import { PlusOutlined } from '@ant-design/icons';
import type { ProColumns } from '@ant-design/pro-components';
import { ProTable } from '@ant-design/pro-components';
import { POSITION_SORT_COLUMNS, ZPositionQuery, type TPosition } from '@blrms/contracts';
import { Button, Card, Popconfirm, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useListPage } from '../../shared/entity/use-list-page';
import { formatDateTime } from '../../shared/format';
import { useHasAction } from '../../shared/permission/use-has-action';
import { PositionFormModal } from './PositionFormModal';
import type { PositionParams } from './use-positions';
import { usePositionMutations, usePositionRanks, usePositions } from './use-positions';

const DEFAULT_PARAMS: PositionParams = {
  pageNo: 1,
  pageSize: 10,
  column: 'createTime',
  order: 'desc',
};

type Search = { name?: string; code?: string; postRank?: string };

/** Position maintenance: positions of the company, with a rank from the `position_rank` dictionary. */
export default function PositionListPage() {
  const { t } = useTranslation();
  const list = useListPage<PositionParams, Search>({
    defaults: DEFAULT_PARAMS,
    filters: (values) => ({
      name: values.name?.trim() || undefined,
      code: values.code?.trim() || undefined,
      postRank: values.postRank || undefined,
    }),
    sort: { columns: POSITION_SORT_COLUMNS, fallback: 'createTime' },
    reset: 'defaults',
    url: ZPositionQuery,
  });
  const [form, setForm] = useState<{ open: boolean; editing: TPosition | null }>({
    open: false,
    editing: null,
  });
  const [selected, setSelected] = useState<string[]>([]);
  const positions = usePositions(list.params);
  const ranks = usePositionRanks();
  const { save, remove } = usePositionMutations();
  const canAdd = useHasAction('account:position:add');
  const canEdit = useHasAction('account:position:edit');
  const canDelete = useHasAction('account:position:delete');
  const rankText = (value: string | null) =>
    ranks.data?.find((r) => r.value === value)?.text ?? value ?? '';

  const columns: ProColumns<TPosition>[] = [
    { title: t('position.code'), dataIndex: 'code', key: 'code', sorter: true, width: 160 },
    { title: t('position.name'), dataIndex: 'name', key: 'name', sorter: true },
    {
      title: t('position.rank'),
      dataIndex: 'postRank',
      key: 'postRank',
      sorter: true,
      width: 140,
      valueType: 'select',
      fieldProps: { options: (ranks.data ?? []).map((r) => ({ value: r.value, label: r.text })) },
      render: (_, row) => (row.postRank ? <Tag color="blue">{rankText(row.postRank)}</Tag> : null),
    },
    {
      title: t('position.createTime'),
      dataIndex: 'createTime',
      key: 'createTime',
      sorter: true,
      hideInSearch: true,
      width: 180,
      render: (_, row) => formatDateTime(row.createTime),
    },
    {
      title: t('position.actions'),
      valueType: 'option',
      width: 140,
      hidden: !canEdit && !canDelete,
      render: (_, row) => (
        <Space size="small">
          {canEdit && (
            <a onClick={() => setForm({ open: true, editing: row })} data-testid="position-edit">
              {t('position.edit')}
            </a>
          )}
          {canDelete && (
            <Popconfirm
              title={t('position.deleteConfirm')}
              onConfirm={() => remove.mutate([row.id])}
            >
              <a data-testid="position-delete">{t('position.delete')}</a>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card styles={{ body: { padding: 0 } }} data-testid="position-page">
      <ProTable<TPosition, Search>
        rowKey="id"
        {...list.tableProps(positions)}
        columns={list.withSortOrder(columns)}
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        scroll={{ x: 720 }}
        rowSelection={
          canDelete
            ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) }
            : undefined
        }
        toolBarRender={() => [
          canAdd && (
            <Button
              key="add"
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setForm({ open: true, editing: null })}
              data-testid="position-add"
            >
              {t('position.add')}
            </Button>
          ),
          canDelete && selected.length > 0 && (
            <Popconfirm
              key="delete"
              title={t('position.deleteSelectedConfirm', { count: selected.length })}
              onConfirm={() => remove.mutate(selected, { onSuccess: () => setSelected([]) })}
            >
              <Button danger>{t('position.deleteSelected')}</Button>
            </Popconfirm>
          ),
        ]}
      />
      <PositionFormModal
        open={form.open}
        editing={form.editing}
        ranks={ranks.data ?? []}
        onClose={() => setForm({ open: false, editing: null })}
        onSubmit={(values) =>
          save.mutateAsync(form.editing ? { ...values, id: form.editing.id } : values)
        }
      />
    </Card>
  );
}
