import { PlusOutlined } from '@ant-design/icons';
import { ProTable } from '@ant-design/pro-components';
import type { TDeviceGroup } from '@blrms/contracts';
import { DEVICES_CHANNEL, GROUP_SORT_COLUMNS, ZDeviceGroupQuery } from '@blrms/contracts';
import { App, Button, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeviceStatus, useLiveReload } from '../../shared/device/use-device-status';
import { useListPage } from '../../shared/entity/use-list-page';
import { Authorized } from '../../shared/permission/Authorized';
import { useHasAction } from '../../shared/permission/use-has-action';
import { GroupFormModal } from './GroupFormModal';
import type { GroupParams } from './use-groups';
import { useDeleteGroups, useGroups } from './use-groups';
import { useGroupColumns } from './use-group-columns';

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
  const list = useListPage<GroupParams, GroupSearch>({
    defaults: DEFAULT_PARAMS,
    filters: (values) => ({ name: values.name?.trim() || undefined }),
    sort: { columns: GROUP_SORT_COLUMNS, fallback: 'createTime' },
    url: ZDeviceGroupQuery,
  });
  const [form, setForm] = useState<Form>({ open: false });
  const [selected, setSelected] = useState<string[]>([]);
  const groups = useGroups(list.params);
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
  const canDelete = useHasAction('group:delete');

  const deleteGroups = async (ids: string[]) => {
    try {
      await remove.mutateAsync(ids);
      setSelected((s) => s.filter((id) => !ids.includes(id)));
      void message.success(t('common.deleted'));
    } catch {
      // Reported by the HTTP client.
    }
  };

  const columns = useGroupColumns({
    onEdit: (group) => setForm({ open: true, editing: group }),
    onDelete: (group) => deleteGroups([group.id]),
  });

  return (
    <>
      <ProTable<TDeviceGroup, GroupSearch>
        rowKey="id"
        showSorterTooltip={{ target: 'sorter-icon' }}
        headerTitle={t('deviceGroup.title')}
        {...list.tableProps(groups)}
        columns={list.withSortOrder(columns)}
        loading={groups.isPlaceholderData || (groups.isFetching && !liveReload.reloading)}
        search={{ labelWidth: 'auto' }}
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
