import type { ProColumns } from '@ant-design/pro-components';
import type { TFirmware } from '@blrms/contracts';
import { DEVICE_SERIES } from '@blrms/contracts';
import { App, Button, Popconfirm, Space, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../shared/CopyButton';
import { formatBytes } from '../../shared/file-size';
import { formatDateTime } from '../../shared/format';
import { useHasAction } from '../../shared/permission/use-has-action';
import { useDictOptions } from '../../shared/use-dict-items';
import { useNarrowScreen } from '../../shared/use-narrow-screen';
import { shortHash } from './firmware-format';
import { firmwareDownloadUrl, useDeleteFirmware } from './use-firmware';

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
 * The firmware table's columns, with the row actions: download, edit the release notes, delete
 * (the server refuses while a campaign installs it).
 */
export function useFirmwareColumns(
  onEditNotes: (firmware: TFirmware) => void,
): ProColumns<TFirmware>[] {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const remove = useDeleteFirmware();
  const canEdit = useHasAction('firmware:edit');
  const canDelete = useHasAction('firmware:delete');
  const narrow = useNarrowScreen();
  const series = useDictOptions(
    'device_series',
    DEVICE_SERIES,
    DEVICE_SERIES.map((s) => ({ value: s, label: s })),
  );
  return [
    {
      title: t('firmware.series'),
      dataIndex: 'series',
      width: 90,
      valueType: 'select',
      fieldProps: { options: series },
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
              onClick={() => onEditNotes(row)}
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
}
