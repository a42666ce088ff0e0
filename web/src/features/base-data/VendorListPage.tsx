import { ProTable, type ProColumns } from '@ant-design/pro-components';
import {
  VENDOR_KINDS,
  VENDOR_SORT_COLUMNS,
  ZVendorListQuery,
  type TVendor,
  type TVendorKind,
} from '@blrms/contracts';
import { Button, Card, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useListPage } from '../../shared/entity/use-list-page';
import { formatDateTime } from '../../shared/format';
import { useNarrowScreen } from '../../shared/use-narrow-screen';
import { useBaseListActions } from './BaseListActions';
import { VendorFormModal } from './VendorFormModal';
import { useVendors, type VendorParams } from './use-base-data';

type Search = { name?: string; kind?: string };

const DEFAULT_PARAMS: VendorParams = {
  pageNo: 1,
  pageSize: 10,
  column: 'createTime',
  order: 'desc',
};
const KIND_COLORS: Record<TVendorKind, string> = {
  supplier: 'blue',
  installer: 'green',
  carrier: 'purple',
  maintainer: 'orange',
};

/** 供应商: who supplies, installs, carries or maintains the company's devices, and on what contract. */
export default function VendorListPage() {
  const { t } = useTranslation();
  const narrow = useNarrowScreen();
  const list = useListPage<VendorParams, Search>({
    defaults: DEFAULT_PARAMS,
    filters: (values) => ({
      name: values.name?.trim() || undefined,
      kind: VENDOR_KINDS.find((k) => k === values.kind),
    }),
    sort: { columns: VENDOR_SORT_COLUMNS, fallback: 'createTime', cleared: 'column' },
    url: ZVendorListQuery,
  });
  const vendors = useVendors(list.params);
  const [editing, setEditing] = useState<TVendor | null | undefined>(undefined);
  const actions = useBaseListActions('vendor', {
    entityName: t('baseData.vendor.title'),
    exportFilters: () => ({ name: list.params.name, kind: list.params.kind }),
    onAdd: () => setEditing(null),
  });
  const today = dayjs().format('YYYY-MM-DD');

  const columns: ProColumns<TVendor>[] = [
    {
      title: t('baseData.vendor.name'),
      dataIndex: 'name',
      key: 'name',
      sorter: true,
      width: 180,
      render: (_, row) => <span data-testid={`vendor-row-${row.name}`}>{row.name}</span>,
    },
    {
      title: t('baseData.vendor.kind'),
      dataIndex: 'kind',
      key: 'kind',
      sorter: true,
      width: 100,
      valueType: 'select',
      valueEnum: new Map(VENDOR_KINDS.map((k) => [k, { text: t(`baseData.vendor.kind_${k}`) }])),
      render: (_, row) => (
        <Tag color={KIND_COLORS[row.kind]}>{t(`baseData.vendor.kind_${row.kind}`)}</Tag>
      ),
    },
    {
      title: t('baseData.contactName'),
      dataIndex: 'contactName',
      hideInSearch: true,
      width: 170,
      responsive: ['md'],
      render: (_, row) =>
        [row.contactName, row.contactPhone, row.contactEmail].filter(Boolean).join(' · ') || '-',
    },
    {
      title: t('baseData.vendor.contractNo'),
      dataIndex: 'contractNo',
      hideInSearch: true,
      width: 130,
      responsive: ['lg'],
      render: (_, row) => row.contractNo ?? '-',
    },
    {
      title: t('baseData.vendor.contract'),
      dataIndex: 'contractEnd',
      key: 'contractEnd',
      sorter: true,
      hideInSearch: true,
      width: 210,
      render: (_, row) =>
        row.contractStart || row.contractEnd ? (
          <span style={{ whiteSpace: 'nowrap' }}>
            {row.contractStart ?? '…'} ~ {row.contractEnd ?? '…'}
            {row.contractEnd && row.contractEnd < today && (
              <Tag color="red" style={{ marginInlineStart: 6 }}>
                {t('baseData.vendor.expired')}
              </Tag>
            )}
          </span>
        ) : (
          '-'
        ),
    },
    {
      title: t('baseData.vendor.warrantyEnd'),
      dataIndex: 'warrantyEnd',
      hideInSearch: true,
      width: 120,
      responsive: ['lg'],
      render: (_, row) =>
        row.warrantyEnd ? (
          <Typography.Text type={row.warrantyEnd < today ? 'danger' : undefined}>
            {row.warrantyEnd}
          </Typography.Text>
        ) : (
          '-'
        ),
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
            data-testid={`vendor-edit-${row.name}`}
          >
            {t('baseData.edit')}
          </Button>
        ),
        actions.deleteButton(row.id, row.name),
      ],
    },
  ];

  return (
    <Card styles={{ body: { padding: 0 } }} data-testid="vendor-page">
      <ProTable<TVendor, Search>
        rowKey="id"
        {...list.tableProps(vendors)}
        columns={list.withSortOrder(columns)}
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        scroll={{ x: 820 }}
        rowSelection={actions.rowSelection}
        tableAlertRender={false}
        toolBarRender={actions.toolbar}
        data-testid="vendor-table"
      />
      {editing !== undefined && (
        <VendorFormModal vendor={editing} onClose={() => setEditing(undefined)} />
      )}
      {actions.importModal}
    </Card>
  );
}
