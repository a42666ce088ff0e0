import { PlusOutlined } from '@ant-design/icons';
import type { ProColumns } from '@ant-design/pro-components';
import { ProTable } from '@ant-design/pro-components';
import type { TDeviceGroup } from '@blrms/contracts';
import { DEVICES_CHANNEL, GROUP_SORT_COLUMNS } from '@blrms/contracts';
import { App, Badge, Button, Popconfirm, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDeviceStatus, useLiveReload } from '../../shared/device/use-device-status';
import { formatDateTime, formatNumber, formatPageRange } from '../../shared/format';
import { Authorized } from '../../shared/permission/Authorized';
import { useHasAction } from '../../shared/permission/use-has-action';
import { useNarrowScreen } from '../../shared/use-narrow-screen';
import { sortOf } from '../../shared/table-sort';
import { GroupFormModal } from './GroupFormModal';
import type { GroupParams } from './use-groups';
import { useDeleteGroups, useGroups } from './use-groups';

type GroupSearch = { name?: string };

const DEFAULT_PARAMS: GroupParams = {
  pageNo: 1,
  pageSize: 10,
  column: 'createTime',
  order: 'desc',
};

type Form = { open: false } | { open: true; editing: TDeviceGroup | null };

/**
 * Device groups (spec section 2). A device is in at most one group; each group shows how many of
 * its devices are online, offline and in all, and links to them in the device list. The counts
 * follow device status changes (issue 4): a change of a device in a shown group reloads the page,
 * at most once a second.
 */
export default function GroupListPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [params, setParams] = useState<GroupParams>(DEFAULT_PARAMS);
  const [form, setForm] = useState<Form>({ open: false });
  const [selected, setSelected] = useState<string[]>([]);
  const groups = useGroups(params);
  const liveReload = useLiveReload(() => groups.refetch());
  useDeviceStatus(
    DEVICES_CHANNEL,
    (batch) => {
      const shown = new Set(groups.data?.records.map((g) => g.id));
      if (batch.some((d) => d.groupId !== null && shown.has(d.groupId))) liveReload.request();
    },
    liveReload.request,
  );
  const remove = useDeleteGroups();
  const canEdit = useHasAction('group:edit');
  const canDelete = useHasAction('group:delete');
  const narrow = useNarrowScreen();

  const deleteGroups = async (ids: string[]) => {
    try {
      await remove.mutateAsync(ids);
      setSelected((s) => s.filter((id) => !ids.includes(id)));
      void message.success(t('common.deleted'));
    } catch {
      // Reported by the HTTP client.
    }
  };

  const devicesLink = (row: TDeviceGroup, count: number, status?: 'online' | 'offline') => (
    <Link
      to={`/device/list?groupId=${row.id}${status ? `&status=${status}` : ''}`}
      data-testid={`group-${status ?? 'total'}-${row.id}`}
    >
      {formatNumber(count)}
    </Link>
  );

  const columns: ProColumns<TDeviceGroup>[] = [
    {
      title: t('deviceGroup.name'),
      dataIndex: 'name',
      key: 'name',
      sorter: true,
      ellipsis: true,
      width: 200,
      fieldProps: { placeholder: t('deviceGroup.namePlaceholder') },
    },
    {
      title: <Badge status="success" text={t('deviceGroup.online')} />,
      dataIndex: 'onlineCount',
      width: 110,
      align: 'right',
      hideInSearch: true,
      render: (_, row) => devicesLink(row, row.onlineCount, 'online'),
    },
    {
      title: <Badge status="default" text={t('deviceGroup.offline')} />,
      dataIndex: 'offlineCount',
      width: 110,
      align: 'right',
      hideInSearch: true,
      render: (_, row) => devicesLink(row, row.offlineCount, 'offline'),
    },
    {
      title: t('deviceGroup.total'),
      dataIndex: 'deviceCount',
      width: 110,
      align: 'right',
      hideInSearch: true,
      render: (_, row) => devicesLink(row, row.deviceCount),
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
    { title: t('common.remark'), dataIndex: 'remark', ellipsis: true, hideInSearch: true },
    {
      title: t('common.actions'),
      key: 'actions',
      width: 140,
      fixed: narrow ? undefined : 'right',
      hideInSearch: true,
      render: (_, row) => (
        <Space size={0}>
          {canEdit && (
            <Button
              type="link"
              size="small"
              onClick={() => setForm({ open: true, editing: row })}
              data-testid={`group-edit-${row.id}`}
            >
              {t('common.edit')}
            </Button>
          )}
          {canDelete && (
            <Popconfirm
              title={t('deviceGroup.deleteTitle', { name: row.name })}
              description={t('deviceGroup.deleteContent')}
              okText={t('common.delete')}
              okButtonProps={{ danger: true }}
              cancelText={t('common.cancel')}
              onConfirm={() => deleteGroups([row.id])}
            >
              <Button type="link" size="small" danger data-testid={`group-delete-${row.id}`}>
                {t('common.delete')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  const search = (values: GroupSearch) =>
    setParams((p) => ({ ...p, pageNo: 1, name: values.name?.trim() || undefined }));

  return (
    <>
      <ProTable<TDeviceGroup, GroupSearch>
        rowKey="id"
        showSorterTooltip={{ target: 'sorter-icon' }}
        headerTitle={t('deviceGroup.title')}
        columns={columns}
        dataSource={groups.data?.records ?? []}
        loading={groups.isPlaceholderData || (groups.isFetching && !liveReload.reloading)}
        search={{ labelWidth: 'auto' }}
        onSubmit={search}
        onReset={() => search({})}
        options={{ reload: () => void groups.refetch(), density: true, setting: true }}
        rowSelection={
          canDelete
            ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) }
            : undefined
        }
        tableAlertRender={() => t('common.selected', { count: selected.length })}
        tableAlertOptionRender={() => (
          <Space>
            <Button
              size="small"
              danger
              onClick={() =>
                modal.confirm({
                  title: t('deviceGroup.deleteBatchTitle', { count: selected.length }),
                  content: t('deviceGroup.deleteContent'),
                  okText: t('common.delete'),
                  okButtonProps: { danger: true },
                  cancelText: t('common.cancel'),
                  onOk: () => deleteGroups(selected),
                })
              }
              data-testid="group-delete-batch"
            >
              {t('common.batchDelete')}
            </Button>
            <Button size="small" type="link" onClick={() => setSelected([])}>
              {t('common.clearSelection')}
            </Button>
          </Space>
        )}
        toolBarRender={() => [
          <Authorized action="group:add" key="add">
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setForm({ open: true, editing: null })}
              data-testid="group-add"
            >
              {t('common.add')}
            </Button>
          </Authorized>,
        ]}
        scroll={{ x: 1000 }}
        pagination={{
          current: params.pageNo,
          pageSize: params.pageSize,
          total: groups.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: formatPageRange,
          onChange: (pageNo, pageSize) => setParams((p) => ({ ...p, pageNo, pageSize })),
        }}
        onChange={(_, __, sorter) => {
          const sort = sortOf(sorter, GROUP_SORT_COLUMNS, 'createTime');
          setParams((p) =>
            p.column === sort.column && p.order === sort.order ? p : { ...p, ...sort, pageNo: 1 },
          );
        }}
        data-testid="group-table"
      />
      <GroupFormModal
        open={form.open}
        editing={form.open ? form.editing : null}
        onClose={() => setForm({ open: false })}
      />
    </>
  );
}
