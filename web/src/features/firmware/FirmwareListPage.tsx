import { CloudUploadOutlined, SettingOutlined } from '@ant-design/icons';
import { ProTable } from '@ant-design/pro-components';
import type { TDeviceSeries, TFirmware } from '@blrms/contracts';
import { ZFirmwareQuery } from '@blrms/contracts';
import { Button, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../shared/file-size';
import { useListPage } from '../../shared/entity/use-list-page';
import { Authorized } from '../../shared/permission/Authorized';
import { useHasAction } from '../../shared/permission/use-has-action';
import { FirmwareNotesModal } from './FirmwareNotesModal';
import { FirmwareSettingsModal } from './FirmwareSettingsModal';
import { FirmwareUploadModal } from './FirmwareUploadModal';
import type { FirmwareParams } from './use-firmware';
import { useFirmwareColumns } from './use-firmware-columns';
import { useFirmwareList, useFirmwareSettings, useStorageUsage } from './use-firmware';

type FirmwareSearch = { series?: TDeviceSeries; version?: string };

const DEFAULT_PARAMS: FirmwareParams = { pageNo: 1, pageSize: 10, order: 'desc' };

/**
 * The firmware library (issue 5): the files campaigns install, per series and version, with
 * their size, sha256 and release notes. Upload, edit notes, download and delete (not while a
 * campaign installs it); platform administrators also set the size limit.
 */
export default function FirmwareListPage() {
  const { t } = useTranslation();
  const firmwarePage = useListPage<FirmwareParams, FirmwareSearch>({
    defaults: DEFAULT_PARAMS,
    filters: (values) => ({ series: values.series, version: values.version?.trim() || undefined }),
    url: ZFirmwareQuery,
  });
  const [uploading, setUploading] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [editing, setEditing] = useState<TFirmware | null>(null);
  const list = useFirmwareList(firmwarePage.params);
  const canSet = useHasAction('firmware:settings');
  const settings = useFirmwareSettings(canSet);
  const storage = useStorageUsage();
  const maxBytes = settings.data?.maxBytes ?? null;

  const columns = useFirmwareColumns(setEditing);

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
        {...firmwarePage.tableProps(list)}
        columns={columns}
        search={{ labelWidth: 'auto' }}
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
