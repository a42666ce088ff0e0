import { CloudUploadOutlined, SettingOutlined } from '@ant-design/icons';
import type { ProColumns } from '@ant-design/pro-components';
import { ProTable } from '@ant-design/pro-components';
import type { TDeviceSeries, TFirmware } from '@blrms/contracts';
import { DEVICE_SERIES } from '@blrms/contracts';
import { App, Button, Popconfirm, Space, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../shared/CopyButton';
import { formatBytes } from '../../shared/file-size';
import { formatDateTime, formatPageRange } from '../../shared/format';
import { Authorized } from '../../shared/permission/Authorized';
import { useHasAction } from '../../shared/permission/use-has-action';
import { useNarrowScreen } from '../../shared/use-narrow-screen';
import { shortHash } from './firmware-format';
import { FirmwareNotesModal } from './FirmwareNotesModal';
import { FirmwareSettingsModal } from './FirmwareSettingsModal';
import { FirmwareUploadModal } from './FirmwareUploadModal';
import type { FirmwareParams } from './use-firmware';
import {
  firmwareDownloadUrl,
  useDeleteFirmware,
  useFirmwareList,
  useFirmwareSettings,
  useStorageUsage,
} from './use-firmware';

type FirmwareSearch = { series?: TDeviceSeries; version?: string };

const DEFAULT_PARAMS: FirmwareParams = { pageNo: 1, pageSize: 10, order: 'desc' };

/** Fetches the file from its signed address, as the browser's own download. */
async function download(firmware: TFirmware): Promise<void> {
  const { url } = await firmwareDownloadUrl(firmware.id);
  const a = document.createElement('a');
  a.href = url;
  a.download = firmware.fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/**
 * The firmware library (issue 5): the files campaigns install, per series and version, with
 * their size, sha256 and release notes. Upload, edit notes, download and delete (not while a
 * campaign installs it); platform administrators also set the size limit.
 */
export default function FirmwareListPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [params, setParams] = useState<FirmwareParams>(DEFAULT_PARAMS);
  const [uploading, setUploading] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [editing, setEditing] = useState<TFirmware | null>(null);
  const list = useFirmwareList(params);
  const canSet = useHasAction('firmware:settings');
  const settings = useFirmwareSettings(canSet);
  const storage = useStorageUsage();
  const remove = useDeleteFirmware();
  const canEdit = useHasAction('firmware:edit');
  const canDelete = useHasAction('firmware:delete');
  const narrow = useNarrowScreen();
  const maxBytes = settings.data?.maxBytes ?? null;

  const columns: ProColumns<TFirmware>[] = [
    {
      title: t('firmware.series'),
      dataIndex: 'series',
      width: 90,
      valueType: 'select',
      fieldProps: { options: DEVICE_SERIES.map((s) => ({ value: s, label: s })) },
    },
    {
      title: t('firmware.version'),
      dataIndex: 'version',
      width: 170,
      fieldProps: { placeholder: t('firmware.versionPlaceholder') },
      render: (_, row) => (
        <Space size={4}>
          <Typography.Text code>{row.version}</Typography.Text>
          {row.inUse && (
            <Tooltip title={t('firmware.inUseHint')}>
              <Tag color="processing" style={{ marginInlineEnd: 0 }} data-testid="firmware-in-use">
                {t('firmware.inUse')}
              </Tag>
            </Tooltip>
          )}
        </Space>
      ),
    },
    {
      title: t('firmware.size'),
      dataIndex: 'size',
      width: 100,
      align: 'right',
      hideInSearch: true,
      render: (_, row) => formatBytes(row.size),
    },
    {
      title: t('firmware.sha256'),
      dataIndex: 'sha256',
      width: 210,
      hideInSearch: true,
      render: (_, row) => (
        <Space size={0}>
          <Tooltip title={row.sha256}>
            <Typography.Text code data-testid="firmware-sha256">
              {shortHash(row.sha256)}
            </Typography.Text>
          </Tooltip>
          <CopyButton text={row.sha256} label={t('firmware.copySha256')} />
        </Space>
      ),
    },
    {
      title: t('firmware.releaseNotes'),
      dataIndex: 'releaseNotes',
      width: 200,
      hideInSearch: true,
      render: (_, row) =>
        row.releaseNotes ? (
          <Typography.Text ellipsis={{ tooltip: row.releaseNotes }} style={{ maxWidth: 180 }}>
            {row.releaseNotes}
          </Typography.Text>
        ) : (
          '-'
        ),
    },
    {
      title: t('firmware.uploadTime'),
      dataIndex: 'createTime',
      width: 170,
      hideInSearch: true,
      render: (_, row) => formatDateTime(row.createTime),
    },
    {
      title: t('firmware.uploader'),
      dataIndex: 'createBy',
      width: 110,
      hideInSearch: true,
      render: (_, row) => row.createBy ?? '-',
    },
    {
      title: t('firmware.fileName'),
      dataIndex: 'fileName',
      width: 180,
      ellipsis: true,
      hideInSearch: true,
    },
    {
      title: t('common.actions'),
      key: 'actions',
      width: 240,
      fixed: narrow ? undefined : 'right',
      hideInSearch: true,
      render: (_, row) => (
        <Space size={0} wrap>
          <Button
            type="link"
            size="small"
            onClick={() => void download(row).catch(() => undefined)}
            data-testid={`firmware-download-${row.id}`}
          >
            {t('firmware.download')}
          </Button>
          {canEdit && (
            <Button
              type="link"
              size="small"
              onClick={() => setEditing(row)}
              data-testid={`firmware-edit-${row.id}`}
            >
              {t('firmware.editNotes')}
            </Button>
          )}
          {canDelete && (
            <Popconfirm
              title={t('firmware.deleteTitle', { series: row.series, version: row.version })}
              description={t('firmware.deleteContent')}
              okText={t('common.delete')}
              okButtonProps={{ danger: true }}
              cancelText={t('common.cancel')}
              disabled={row.inUse}
              onConfirm={async () => {
                try {
                  await remove.mutateAsync(row.id);
                  void message.success(t('common.deleted'));
                } catch {
                  // Reported by the HTTP client (409 while a campaign installs it).
                }
              }}
            >
              <Tooltip title={row.inUse ? t('firmware.inUseHint') : undefined}>
                <Button
                  type="link"
                  size="small"
                  danger
                  disabled={row.inUse}
                  data-testid={`firmware-delete-${row.id}`}
                >
                  {t('common.delete')}
                </Button>
              </Tooltip>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  const search = (values: FirmwareSearch) =>
    setParams((p) => ({
      ...p,
      pageNo: 1,
      series: values.series,
      version: values.version?.trim() || undefined,
    }));

  return (
    <>
      <ProTable<TFirmware, FirmwareSearch>
        rowKey="id"
        headerTitle={
          <Space size="middle" wrap>
            {t('firmware.title')}
            {storage.data && (
              <Typography.Text type="secondary" data-testid="firmware-storage">
                {storage.data.limit === null
                  ? t('storageQuota.usageUnlimited', { used: formatBytes(storage.data.used) })
                  : t('storageQuota.usage', {
                      used: formatBytes(storage.data.used),
                      limit: formatBytes(storage.data.limit),
                    })}
              </Typography.Text>
            )}
          </Space>
        }
        columns={columns}
        dataSource={list.data?.records ?? []}
        loading={list.isFetching}
        search={{ labelWidth: 'auto' }}
        onSubmit={search}
        onReset={() => search({})}
        options={{ reload: () => void list.refetch(), density: true, setting: true }}
        toolBarRender={() => [
          <Authorized action="firmware:settings" key="settings">
            <Button
              icon={<SettingOutlined />}
              onClick={() => setSettingsOpen(true)}
              data-testid="firmware-settings"
            >
              {t('firmware.settings')}
            </Button>
          </Authorized>,
          <Authorized action="firmware:upload" key="upload">
            <Button
              type="primary"
              icon={<CloudUploadOutlined />}
              onClick={() => setUploading(true)}
              data-testid="firmware-upload"
            >
              {t('firmware.upload')}
            </Button>
          </Authorized>,
        ]}
        scroll={{ x: 1400 }}
        pagination={{
          current: params.pageNo,
          pageSize: params.pageSize,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: formatPageRange,
          onChange: (pageNo, pageSize) => setParams((p) => ({ ...p, pageNo, pageSize })),
        }}
        data-testid="firmware-table"
      />
      <FirmwareUploadModal
        open={uploading}
        maxBytes={maxBytes}
        onClose={() => setUploading(false)}
      />
      <FirmwareNotesModal firmware={editing} onClose={() => setEditing(null)} />
      <FirmwareSettingsModal
        open={settingsOpen}
        maxBytes={maxBytes}
        onClose={() => setSettingsOpen(false)}
      />
    </>
  );
}
