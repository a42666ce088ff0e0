import { PaperClipOutlined } from '@ant-design/icons';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { DEVICE_SERIES, GOODS_SORT_COLUMNS, ZGoodsListQuery, type TGoods } from '@blrms/contracts';
import { Button, Card, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useListPage } from '../../shared/entity/use-list-page';
import { formatDateTime } from '../../shared/format';
import { useNarrowScreen } from '../../shared/use-narrow-screen';
import { useBaseListActions } from './BaseListActions';
import { GoodsFormModal } from './GoodsFormModal';
import { goodsApi, useGoods, type GoodsParams } from './use-base-data';

type Search = { model?: string; series?: string; enabled?: string };

const DEFAULT_PARAMS: GoodsParams = {
  pageNo: 1,
  pageSize: 10,
  column: 'createTime',
  order: 'desc',
};

/** 物料: the models (and hardware revisions) a company's devices are, with their datasheets. */
export default function GoodsListPage() {
  const { t } = useTranslation();
  const narrow = useNarrowScreen();
  const list = useListPage<GoodsParams, Search>({
    defaults: DEFAULT_PARAMS,
    filters: (values) => ({
      model: values.model?.trim() || undefined,
      series: DEVICE_SERIES.find((s) => s === values.series),
      enabled: values.enabled === '1' ? 1 : values.enabled === '0' ? 0 : undefined,
    }),
    sort: { columns: GOODS_SORT_COLUMNS, fallback: 'createTime', cleared: 'column' },
    url: ZGoodsListQuery,
  });
  const goods = useGoods(list.params);
  const [editing, setEditing] = useState<TGoods | null | undefined>(undefined);
  const actions = useBaseListActions('goods', {
    entityName: t('baseData.goods.title'),
    exportFilters: () => ({
      model: list.params.model,
      series: list.params.series,
      enabled: list.params.enabled,
    }),
    onAdd: () => setEditing(null),
  });
  const openDatasheet = async (row: TGoods) => {
    const link = await goodsApi.datasheetUrl(row.id);
    window.open(link.url, '_blank', 'noopener');
  };

  const columns: ProColumns<TGoods>[] = [
    {
      title: t('baseData.goods.model'),
      dataIndex: 'model',
      key: 'model',
      sorter: true,
      width: 180,
      fieldProps: { placeholder: t('baseData.goods.searchModel') },
      render: (_, row) => <span data-testid={`goods-row-${row.model}`}>{row.model}</span>,
    },
    {
      title: t('baseData.goods.hwRevision'),
      dataIndex: 'hwRevision',
      hideInSearch: true,
      width: 120,
      render: (_, row) => row.hwRevision || '-',
    },
    {
      title: t('baseData.goods.series'),
      dataIndex: 'series',
      key: 'series',
      sorter: true,
      width: 110,
      valueType: 'select',
      valueEnum: new Map(DEVICE_SERIES.map((s) => [s, { text: s }])),
      render: (_, row) => <Tag color="blue">{row.series}</Tag>,
    },
    {
      title: t('baseData.status'),
      dataIndex: 'enabled',
      width: 100,
      valueType: 'select',
      valueEnum: new Map([
        ['1', { text: t('baseData.enabled') }],
        ['0', { text: t('baseData.disabled') }],
      ]),
      render: (_, row) =>
        row.enabled === 1 ? (
          <Tag color="green">{t('baseData.enabled')}</Tag>
        ) : (
          <Tag>{t('baseData.disabled')}</Tag>
        ),
    },
    {
      title: t('baseData.goods.datasheet'),
      dataIndex: 'datasheetFileName',
      hideInSearch: true,
      width: 180,
      ellipsis: true,
      render: (_, row) =>
        row.datasheetFileId ? (
          <Button
            type="link"
            size="small"
            icon={<PaperClipOutlined />}
            onClick={() => void openDatasheet(row)}
            data-testid={`goods-datasheet-${row.model}`}
          >
            {row.datasheetFileName}
          </Button>
        ) : (
          '-'
        ),
    },
    {
      title: t('baseData.goods.description'),
      dataIndex: 'description',
      hideInSearch: true,
      ellipsis: true,
      responsive: ['lg'],
    },
    {
      title: t('baseData.createTime'),
      dataIndex: 'createTime',
      key: 'createTime',
      sorter: true,
      defaultSortOrder: 'descend',
      hideInSearch: true,
      width: 170,
      responsive: ['xl'],
      render: (_, row) => formatDateTime(row.createTime),
    },
    {
      title: t('baseData.actions'),
      valueType: 'option',
      width: 120,
      fixed: narrow ? undefined : 'right',
      render: (_, row) => [
        actions.can.edit && (
          <Button
            key="edit"
            type="link"
            size="small"
            onClick={() => setEditing(row)}
            data-testid={`goods-edit-${row.model}`}
          >
            {t('baseData.edit')}
          </Button>
        ),
        actions.deleteButton(row.id, row.model),
      ],
    },
  ];

  return (
    <Card styles={{ body: { padding: 0 } }} data-testid="goods-page">
      <ProTable<TGoods, Search>
        rowKey="id"
        {...list.tableProps(goods)}
        columns={list.withSortOrder(columns)}
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        scroll={{ x: 820 }}
        rowSelection={actions.rowSelection}
        tableAlertRender={false}
        toolBarRender={actions.toolbar}
        data-testid="goods-table"
      />
      {editing !== undefined && (
        <GoodsFormModal goods={editing} onClose={() => setEditing(undefined)} />
      )}
      {actions.importModal}
    </Card>
  );
}
