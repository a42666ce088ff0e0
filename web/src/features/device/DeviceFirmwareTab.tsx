import type { TDevice, TDeviceLog } from '@blrms/contracts';
import { Button, Descriptions, Flex, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeviceLogStateTag } from '../../shared/device/DeviceLogStateTag';
import { LogContentModal } from '../../shared/device/LogContentModal';
import { useDeviceLogs } from '../../shared/device/use-device-logs';
import { formatDateTime } from '../../shared/format';
import { useHasAction } from '../../shared/permission/use-has-action';

/** The device log subject of an upgrade sent to a device (DEVICE_LOG_SUBJECTS on the server). */
const OTA_SUBJECT = 'ota.notify';
const UPGRADES_SHOWN = 5;

/** The version an upgrade's log entry installs, when its content says so. */
function targetVersion(log: TDeviceLog): string | null {
  try {
    const content: unknown = JSON.parse(log.content);
    if (typeof content === 'object' && content !== null && 'version' in content) {
      return String(content.version);
    }
  } catch {
    // Not JSON: the entry is shown without a version.
  }
  return null;
}

function RecentUpgrades({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation();
  const [viewing, setViewing] = useState<TDeviceLog | null>(null);
  const logs = useDeviceLogs({
    deviceId,
    subject: OTA_SUBJECT,
    pageNo: 1,
    pageSize: UPGRADES_SHOWN,
    column: 'logTime',
    order: 'desc',
  });
  return (
    <section>
      <Typography.Text strong style={{ display: 'block', marginBottom: 8 }}>
        {t('deviceConfig.firmware.upgrades')}
      </Typography.Text>
      <Table<TDeviceLog>
        rowKey="id"
        size="small"
        pagination={false}
        loading={logs.isPending}
        dataSource={logs.data?.records ?? []}
        scroll={{ x: 520 }}
        locale={{ emptyText: t('deviceConfig.firmware.noUpgrades') }}
        columns={[
          {
            title: t('deviceLog.logTime'),
            dataIndex: 'logTime',
            width: 170,
            render: (value: string) => formatDateTime(value),
          },
          {
            title: t('deviceConfig.firmware.targetVersion'),
            key: 'version',
            render: (_, log) => targetVersion(log) ?? '-',
          },
          {
            title: t('deviceLog.state'),
            dataIndex: 'state',
            width: 110,
            render: (_, log) => <DeviceLogStateTag state={log.state} />,
          },
          {
            title: t('common.actions'),
            key: 'actions',
            width: 110,
            render: (_, log) => (
              <Button type="link" size="small" onClick={() => setViewing(log)}>
                {t('deviceLog.viewContent')}
              </Button>
            ),
          },
        ]}
        data-testid="device-upgrades"
      />
      <LogContentModal log={viewing} onClose={() => setViewing(null)} />
    </section>
  );
}

/**
 * The firmware tab of a device's page: what it runs, and the upgrades sent to it as the device
 * log records them (each with how it ended). Upgrades themselves are started from Campaigns.
 */
export function DeviceFirmwareTab({ device }: { device: TDevice }) {
  const { t } = useTranslation();
  const canReadLogs = useHasAction('devicelog:list');
  return (
    <Flex vertical gap={16} data-testid="device-firmware">
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 3 }}
        items={[
          {
            key: 'version',
            label: t('device.version'),
            children: (
              <span data-testid="device-firmware-version">
                {device.version ?? t('device.detail.versionUnknown')}
              </span>
            ),
          },
          { key: 'series', label: t('device.series'), children: device.series },
          { key: 'model', label: t('device.model'), children: device.model ?? '-' },
        ]}
      />
      {canReadLogs && <RecentUpgrades deviceId={device.id} />}
    </Flex>
  );
}
