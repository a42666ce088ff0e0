import { ProTable, type ProColumns } from '@ant-design/pro-components';
import {
  LOCATION_KINDS,
  LOCATION_SORT_COLUMNS,
  ZId,
  ZLocationListQuery,
  type TLocation,
  type TLocationKind,
} from '@blrms/contracts';
import { Button, Card, Tag, TreeSelect, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useListPage } from '../../shared/entity/use-list-page';
import { useNarrowScreen } from '../../shared/use-narrow-screen';
import { useBaseListActions } from './BaseListActions';
import { LocationFormModal } from './LocationFormModal';
import { locationOptions } from './location-options';
import { useLocationTree, useLocations, type LocationParams } from './use-base-data';

type Search = { name?: string; kind?: string; parentId?: string };

const DEFAULT_PARAMS: LocationParams = { pageNo: 1, pageSize: 10, column: 'sortNo', order: 'asc' };
const KIND_COLORS: Record<TLocationKind, string> = {
  region: 'purple',
  site: 'blue',
  cabinet: 'cyan',
};

type Editing = { location: TLocation | null; parentId?: string | null };

/** 位置: the company's places as a tree region → site → cabinet, with coordinates and contacts. */
export default function LocationListPage() {
  const { t } = useTranslation();
  const narrow = useNarrowScreen();
  const list = useListPage<LocationParams, Search>({
    defaults: DEFAULT_PARAMS,
    filters: (values) => ({
      name: values.name?.trim() || undefined,
      kind: LOCATION_KINDS.find((k) => k === values.kind),
      parentId: ZId.safeParse(values.parentId).success ? values.parentId : undefined,
    }),
    sort: { columns: LOCATION_SORT_COLUMNS, fallback: 'sortNo', cleared: 'column' },
    url: ZLocationListQuery,
  });
  const locations = useLocations(list.params);
  const tree = useLocationTree();
  const [editing, setEditing] = useState<Editing | undefined>(undefined);
  const kindLabel = (k: TLocationKind) => t(`baseData.location.kind_${k}`);
  const parents = useMemo(
    () => locationOptions(tree.data?.nodes ?? [], kindLabel),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- kindLabel follows the language (t)
    [tree.data, t],
  );
  const actions = useBaseListActions('location', {
    entityName: t('baseData.location.title'),
    exportFilters: () => ({
      name: list.params.name,
      kind: list.params.kind,
      parentId: list.params.parentId,
    }),
    onAdd: () => setEditing({ location: null }),
  });

  const columns: ProColumns<TLocation>[] = [
    {
      title: t('baseData.location.name'),
      dataIndex: 'name',
      key: 'name',
      sorter: true,
      width: 160,
      render: (_, row) => <span data-testid={`location-row-${row.name}`}>{row.name}</span>,
    },
    {
      title: t('baseData.location.kind'),
      dataIndex: 'kind',
      width: 90,
      valueType: 'select',
      valueEnum: new Map(LOCATION_KINDS.map((k) => [k, { text: kindLabel(k) }])),
      render: (_, row) => <Tag color={KIND_COLORS[row.kind]}>{kindLabel(row.kind)}</Tag>,
    },
    {
      title: t('baseData.location.parent'),
      dataIndex: 'parentId',
      hideInTable: true,
      renderFormItem: () => (
        <TreeSelect
          allowClear
          showSearch
          treeNodeFilterProp="title"
          treeData={parents}
          placeholder={t('baseData.location.allLocations')}
          data-testid="location-search-parent"
        />
      ),
    },
    {
      title: t('baseData.location.path'),
      dataIndex: 'path',
      hideInSearch: true,
      ellipsis: true,
      responsive: ['md'],
    },
    {
      title: t('baseData.location.coordinates'),
      dataIndex: 'latitude',
      hideInSearch: true,
      width: 170,
      render: (_, row) =>
        row.latitude === null || row.longitude === null ? (
          '-'
        ) : (
          <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>
            {row.latitude.toFixed(4)}, {row.longitude.toFixed(4)}
          </Typography.Text>
        ),
    },
    {
      title: t('baseData.contactName'),
      dataIndex: 'contactName',
      hideInSearch: true,
      width: 140,
      responsive: ['lg'],
      render: (_, row) =>
        row.contactName || row.contactPhone
          ? [row.contactName, row.contactPhone].filter(Boolean).join(' · ')
          : '-',
    },
    {
      title: t('baseData.location.sortNo'),
      dataIndex: 'sortNo',
      key: 'sortNo',
      sorter: true,
      defaultSortOrder: 'ascend',
      hideInSearch: true,
      width: 80,
      responsive: ['xl'],
    },
    {
      title: t('baseData.actions'),
      valueType: 'option',
      width: 190,
      fixed: narrow ? undefined : 'right',
      render: (_, row) => [
        actions.can.add && row.kind !== 'cabinet' && (
          <Button
            key="child"
            type="link"
            size="small"
            onClick={() => setEditing({ location: null, parentId: row.id })}
            data-testid={`location-add-child-${row.name}`}
          >
            {t('baseData.location.addChild')}
          </Button>
        ),
        actions.can.edit && (
          <Button
            key="edit"
            type="link"
            size="small"
            onClick={() => setEditing({ location: row })}
            data-testid={`location-edit-${row.name}`}
          >
            {t('baseData.edit')}
          </Button>
        ),
        actions.deleteButton(row.id, row.name),
      ],
    },
  ];

  return (
    <Card styles={{ body: { padding: 0 } }} data-testid="location-page">
      <ProTable<TLocation, Search>
        rowKey="id"
        {...list.tableProps(locations)}
        columns={list.withSortOrder(columns)}
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        scroll={{ x: 820 }}
        rowSelection={actions.rowSelection}
        tableAlertRender={false}
        toolBarRender={actions.toolbar}
        data-testid="location-table"
      />
      {editing && (
        <LocationFormModal
          location={editing.location}
          parentId={editing.parentId}
          onClose={() => setEditing(undefined)}
        />
      )}
      {actions.importModal}
    </Card>
  );
}
