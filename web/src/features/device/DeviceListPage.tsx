import { ImportOutlined, PlusOutlined, SettingOutlined } from '@ant-design/icons';
import type { ProFormInstance } from '@ant-design/pro-components';
import { ProTable } from '@ant-design/pro-components';
import type { TDevice } from '@blrms/contracts';
import {
  DEVICE_SORT_COLUMNS,
  DEVICE_STATUS,
  DEVICES_CHANNEL,
  EXPORT_FORMATS,
} from '@blrms/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Popconfirm, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useDeviceStatus, useLiveReload } from '../../shared/device/use-device-status';
import { ExportButton } from '../../shared/ExportButton';
import { formatPageRange } from '../../shared/format';
import { Authorized } from '../../shared/permission/Authorized';
import { useHasAction } from '../../shared/permission/use-has-action';
import { sortOf } from '../../shared/table-sort';
import { useDictItems, useDictOptions } from '../../shared/use-dict-items';
import { useNarrowScreen } from '../../shared/use-narrow-screen';
import { deviceColumns } from './columns';
import type { DeviceSearch } from './device-filters';
import { filterOf, searchFromUrl } from './device-filters';
import { goodsOptions, locationOptions, tagOptions, vendorOptions } from './base-options';
import { DeviceFormModal } from './DeviceFormModal';
import { DeviceTagsModal } from './DeviceTagsModal';
import { ImportModal } from './ImportModal';
import { applyLiveStatus } from './live-list';
import { MoveToGroupModal } from './MoveToGroupModal';
import type { DevicePage, DeviceParams } from './use-devices';
import {
  deviceListKey,
  exportDevices,
  useDeleteDevices,
  useDevices,
  useDeviceTags,
  useGoodsOptions,
  useGroupOptions,
  useLocationTree,
  useTokenOptions,
  useVendorOptions,
} from './use-devices';

const BulkConfigModal = lazy(() => import('../device-config/BulkConfigModal'));

const PAGE: Pick<DeviceParams, 'pageNo' | 'pageSize' | 'column' | 'order'> = {
  pageNo: 1,
  pageSize: 10,
  column: 'createTime',
  order: 'desc',
};

const BLANK_SEARCH: Record<keyof DeviceSearch, undefined> = {
  sn: undefined,
  name: undefined,
  series: undefined,
  version: undefined,
  groupId: undefined,
  status: undefined,
  ownerId: undefined,
  tokenId: undefined,
  goodsId: undefined,
  locationId: undefined,
  vendorId: undefined,
  tags: undefined,
  createTime: undefined,
};

/** Columns the column chooser shows only when asked for. */
const OPTIONAL_COLUMNS = { goodsId: { show: false }, vendorId: { show: false } };

type Form = { open: false } | { open: true; editing: TDevice | null };

/**
 * Devices (spec section 2): the list with filters, server-side sort, column settings, batch
 * delete and move to group, export and import, and the add/edit form. Presence is live (issue 4):
 * status changes patch the shown rows in place, and reload the page (at most once a second) when
 * rows may leave or join it.
 */
export default function DeviceListPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [urlQuery] = useSearchParams();
  const urlSearch = urlQuery.toString();
  const [appliedUrl, setAppliedUrl] = useState(urlSearch);
  const [params, setParams] = useState<DeviceParams>(() => ({
    ...PAGE,
    ...filterOf(searchFromUrl(urlQuery)),
  }));
  // A link into the open list (from the group page) replaces the filter with the link's.
  if (appliedUrl !== urlSearch) {
    setAppliedUrl(urlSearch);
    setParams((p) => ({ ...PAGE, pageSize: p.pageSize, ...filterOf(searchFromUrl(urlQuery)) }));
  }
  const formRef = useRef<ProFormInstance<DeviceSearch>>(undefined);
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    form.setFieldsValue({ ...BLANK_SEARCH, ...searchFromUrl(new URLSearchParams(urlSearch)) });
  }, [urlSearch]);

  const [selected, setSelected] = useState<string[]>([]);
  // The selected rows themselves, across pages: bulk configuration needs their series.
  const [selectedRows, setSelectedRows] = useState<ReadonlyMap<string, TDevice>>(new Map());
  const [bulk, setBulk] = useState(false);
  const [form, setForm] = useState<Form>({ open: false });
  const [moving, setMoving] = useState(false);
  const [tagging, setTagging] = useState(false);
  const [importing, setImporting] = useState(false);

  const client = useQueryClient();
  const devices = useDevices(params);
  const liveReload = useLiveReload(() => devices.refetch());
  useDeviceStatus(
    DEVICES_CHANNEL,
    (batch) => {
      const key = deviceListKey(params);
      // A load under way may have read the rows before this change and would undo the patch.
      const loading = client.isFetching({ queryKey: key }) > 0;
      const page = client.getQueryData<DevicePage>(key);
      const live = page ? applyLiveStatus(params, page, batch) : null;
      if (page && live && live.page !== page) client.setQueryData(key, live.page);
      if (loading || live?.reload) liveReload.request();
    },
    liveReload.request,
  );
  const series = useDictItems('device_series');
  const statuses = useDictOptions(
    'device_status',
    DEVICE_STATUS,
    DEVICE_STATUS.map((s) => ({ value: s, label: t(`deviceStatus.${s}`) })),
  );
  const groups = useGroupOptions();
  const tokens = useTokenOptions();
  const goods = useGoodsOptions();
  const vendors = useVendorOptions();
  const locations = useLocationTree();
  const tags = useDeviceTags();
  const remove = useDeleteDevices();
  const canEdit = useHasAction('device:edit');
  const canTag = useHasAction('device:tag');
  const canDelete = useHasAction('device:delete');
  const canConfigure = useHasAction('device:config');
  const canStartCampaign = useHasAction('campaign:add');
  const canBulkConfigure = canConfigure && canStartCampaign;
  const narrow = useNarrowScreen();

  const options = useMemo(() => {
    const owners = new Map<string, string>();
    tokens.data?.forEach((token) => owners.set(token.ownerId, token.ownerName));
    return {
      series: (series.data ?? []).map((item) => ({ value: item.value, label: item.text })),
      statuses,
      groups: (groups.data ?? []).map((g) => ({ value: g.id, label: g.name })),
      tokens: (tokens.data ?? []).map((token) => ({ value: token.id, label: token.name })),
      owners: [...owners].map(([value, label]) => ({ value, label })),
      goods: goodsOptions(goods.data),
      vendors: vendorOptions(vendors.data),
      locations: locationOptions(locations.data),
      tags: tagOptions(tags.data, (tag, count) => t('device.tagCount', { tag, count })),
    };
  }, [
    series.data,
    statuses,
    groups.data,
    tokens.data,
    goods.data,
    vendors.data,
    locations.data,
    tags.data,
    t,
  ]);

  const deleteDevices = async (ids: string[]) => {
    try {
      await remove.mutateAsync(ids);
      setSelected((s) => s.filter((id) => !ids.includes(id)));
      void message.success(t('common.deleted'));
    } catch {
      // Reported by the HTTP client.
    }
  };

  const columns = deviceColumns(t, {
    ...options,
    pinColumns: !narrow,
    actions: (row) => (
      <Space size={0}>
        <Link to={`/device/detail/${row.id}`} style={{ padding: '0 7px' }}>
          {t('common.detail')}
        </Link>
        {canEdit && (
          <Button
            type="link"
            size="small"
            onClick={() => setForm({ open: true, editing: row })}
            data-testid={`device-edit-${row.sn}`}
          >
            {t('common.edit')}
          </Button>
        )}
        {canDelete && (
          <Popconfirm
            title={t('device.deleteTitle', { name: row.name })}
            description={t('device.deleteContent')}
            okText={t('common.delete')}
            okButtonProps={{ danger: true }}
            cancelText={t('common.cancel')}
            onConfirm={() => deleteDevices([row.id])}
          >
            <Button type="link" size="small" danger data-testid={`device-delete-${row.sn}`}>
              {t('common.delete')}
            </Button>
          </Popconfirm>
        )}
      </Space>
    ),
  });

  const search = (values: DeviceSearch) =>
    setParams((p) => ({
      ...PAGE,
      pageSize: p.pageSize,
      column: p.column,
      order: p.order,
      ...filterOf(values),
    }));

  return (
    <>
      <ProTable<TDevice, DeviceSearch>
        rowKey="id"
        showSorterTooltip={{ target: 'sorter-icon' }}
        headerTitle={t('device.title')}
        columns={columns}
        dataSource={devices.data?.records ?? []}
        loading={devices.isPlaceholderData || (devices.isFetching && !liveReload.reloading)}
        formRef={formRef}
        form={{ initialValues: searchFromUrl(urlQuery) }}
        search={{ labelWidth: 'auto', defaultCollapsed: true }}
        dateFormatter={(value: Dayjs) => value.toISOString()}
        onSubmit={search}
        onReset={() => search({})}
        options={{ reload: () => void devices.refetch(), density: true, setting: true }}
        columnsState={{
          persistenceKey: 'blrms.deviceColumns',
          persistenceType: 'localStorage',
          defaultValue: OPTIONAL_COLUMNS,
        }}
        rowSelection={
          canEdit || canTag || canDelete || canBulkConfigure
            ? {
                selectedRowKeys: selected,
                preserveSelectedRowKeys: true,
                onChange: (keys, rows) => {
                  setSelectedRows((known) => {
                    const next = new Map(known);
                    rows.forEach((row) => row && next.set(row.id, row));
                    return next;
                  });
                  setSelected(keys.map(String));
                },
              }
            : undefined
        }
        tableAlertRender={() => t('common.selected', { count: selected.length })}
        tableAlertOptionRender={() => (
          <Space wrap>
            {canBulkConfigure && (
              <Button
                size="small"
                onClick={() => setBulk(true)}
                data-testid="device-bulk-config-selected"
              >
                {t('deviceConfig.bulk.button')}
              </Button>
            )}
            {canTag && (
              <Button size="small" onClick={() => setTagging(true)} data-testid="device-tags">
                {t('device.bulkTags.button')}
              </Button>
            )}
            {canEdit && (
              <Button size="small" onClick={() => setMoving(true)} data-testid="device-move">
                {t('device.moveToGroup')}
              </Button>
            )}
            {canDelete && (
              <Button
                size="small"
                danger
                onClick={() =>
                  modal.confirm({
                    title: t('device.deleteBatchTitle', { count: selected.length }),
                    content: t('device.deleteContent'),
                    okText: t('common.delete'),
                    okButtonProps: { danger: true },
                    cancelText: t('common.cancel'),
                    onOk: () => deleteDevices(selected),
                  })
                }
                data-testid="device-delete-batch"
              >
                {t('common.batchDelete')}
              </Button>
            )}
            <Button size="small" type="link" onClick={() => setSelected([])}>
              {t('common.clearSelection')}
            </Button>
          </Space>
        )}
        toolBarRender={() => [
          canBulkConfigure && (
            <Button
              key="bulk-config"
              icon={<SettingOutlined />}
              onClick={() => setBulk(true)}
              data-testid="device-bulk-config"
            >
              {t('deviceConfig.bulk.button')}
            </Button>
          ),
          <Authorized action="device:import" key="import">
            <Button
              icon={<ImportOutlined />}
              onClick={() => setImporting(true)}
              data-testid="device-import"
            >
              {t('device.import.button')}
            </Button>
          </Authorized>,
          <Authorized action="device:export" key="export">
            <ExportButton
              formats={EXPORT_FORMATS}
              label={t('device.export.button')}
              formatLabel={(format) => t(`device.export.${format}`)}
              onExport={(format) => {
                const { pageNo: _pageNo, pageSize: _pageSize, ...filter } = params;
                return exportDevices({ ...filter, format });
              }}
              testId="device-export"
            />
          </Authorized>,
          <Authorized action="device:add" key="add">
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setForm({ open: true, editing: null })}
              data-testid="device-add"
            >
              {t('common.add')}
            </Button>
          </Authorized>,
        ]}
        scroll={{ x: 2800 }}
        pagination={{
          current: params.pageNo,
          pageSize: params.pageSize,
          total: devices.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: formatPageRange,
          onChange: (pageNo, pageSize) => setParams((p) => ({ ...p, pageNo, pageSize })),
        }}
        onChange={(_, __, sorter) => {
          const sort = sortOf(sorter, DEVICE_SORT_COLUMNS, 'createTime');
          setParams((p) =>
            p.column === sort.column && p.order === sort.order ? p : { ...p, ...sort, pageNo: 1 },
          );
        }}
        data-testid="device-table"
      />
      <DeviceFormModal
        open={form.open}
        editing={form.open ? form.editing : null}
        onClose={() => setForm({ open: false })}
      />
      <MoveToGroupModal
        open={moving}
        ids={selected}
        onClose={(moved) => {
          setMoving(false);
          if (moved) setSelected([]);
        }}
      />
      <DeviceTagsModal
        open={tagging}
        ids={selected}
        onClose={(changed) => {
          setTagging(false);
          if (changed) setSelected([]);
        }}
      />
      <ImportModal open={importing} onClose={() => setImporting(false)} />
      {bulk && (
        <Suspense fallback={null}>
          <BulkConfigModal
            selected={selected.flatMap((id) => selectedRows.get(id) ?? [])}
            onClose={() => setBulk(false)}
          />
        </Suspense>
      )}
    </>
  );
}
