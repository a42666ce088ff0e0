import { ArrowLeftOutlined, EditOutlined } from '@ant-design/icons';
import type { TDevice } from '@blrms/contracts';
import { deviceChannel, DISCONNECT_REASONS } from '@blrms/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Descriptions, Result, Skeleton, Space, Tabs, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../api/errors';
import { DeviceLogTable } from '../../shared/device/DeviceLogTable';
import { DeviceStatusBadge } from '../../shared/device/DeviceStatusBadge';
import { withLive } from '../../shared/device/live-device';
import { useDeviceStatus } from '../../shared/device/use-device-status';
import { formatDateTime } from '../../shared/format';
import { usePageTitle } from '../../shared/page-title';
import { Authorized } from '../../shared/permission/Authorized';
import { useHasAction } from '../../shared/permission/use-has-action';
import { DeviceAlarmsTabLabel } from '../alarm/DeviceAlarmsTabLabel';
import { DeviceConnectionsTab } from './DeviceConnectionsTab';
import { DeviceFirmwareTab } from './DeviceFirmwareTab';
import { DeviceFormModal } from './DeviceFormModal';
import { DeviceMonitoring } from './DeviceMonitoring';
import { deviceKey, useDevice } from './use-devices';

const DeviceConfigTab = lazy(() =>
  import('../device-config/DeviceConfigTab').then((m) => ({ default: m.DeviceConfigTab })),
);
const DeviceCommandsPanel = lazy(() =>
  import('../device-command/DeviceCommandsPanel').then((m) => ({
    default: m.DeviceCommandsPanel,
  })),
);
const DeviceAlarmsTab = lazy(() =>
  import('../alarm/DeviceAlarmsTab').then((m) => ({ default: m.DeviceAlarmsTab })),
);
const tabLoading = <Skeleton active paragraph={{ rows: 6 }} />;

/** Spec section 9: a detail list has at most 4 columns, 3 by default; one on a phone. */
const DETAIL_COLUMNS = { xs: 1, sm: 2, md: 3, lg: 3, xl: 3, xxl: 4 };

const orDash = (value: string | null) => value || '-';
const timeOrDash = (value: string | null) => (value ? formatDateTime(value) : '-');

/** The reasons of the device protocol in words; a reason this console does not know, as sent. */
function disconnectReasonText(t: TFunction, device: TDevice): string {
  const reason = DISCONNECT_REASONS.find((r) => r === device.disconnectReason);
  if (reason) return t(`device.disconnectReason.${reason}`);
  return orDash(device.disconnectReason);
}

/**
 * One device (/device/detail/:id): its fields as a detail list, with its presence kept live
 * through the device's channel, and tabs for its monitoring data, configuration, commands,
 * firmware, alarms (with alarm:list), connection history and logs. The configuration, command
 * and alarm tabs load their code when first opened.
 */
export default function DeviceDetailPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const client = useQueryClient();
  const device = useDevice(id);
  const [editing, setEditing] = useState(false);
  const canListAlarms = useHasAction('alarm:list');
  usePageTitle(device.data?.name);
  useDeviceStatus(
    id ? deviceChannel(id) : null,
    (batch) => {
      const live = batch.findLast((d) => d.id === id);
      if (!live) return;
      client.setQueryData<TDevice>(deviceKey(id), (d) => (d ? withLive(d, live) : d));
    },
    () => void device.refetch(),
  );

  if (device.isPending) {
    return (
      <Card>
        <Skeleton active paragraph={{ rows: 6 }} />
      </Card>
    );
  }
  if (device.isError || !device.data) {
    const notFound = device.error instanceof ApiError && [400, 404].includes(device.error.status);
    return (
      <Card>
        <Result
          status={notFound ? '404' : 'error'}
          title={notFound ? t('device.detail.notFound') : t('device.detail.loadFailed')}
          extra={
            <Link to="/device/list">
              <Button type="primary">{t('device.detail.backToList')}</Button>
            </Link>
          }
          data-testid="device-detail-missing"
        />
      </Card>
    );
  }

  const d = device.data;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="device-detail">
      <Card
        title={
          <Space wrap>
            <Link to="/device/list" aria-label={t('device.detail.backToList')}>
              <ArrowLeftOutlined />
            </Link>
            <span data-testid="device-detail-name">{d.name}</span>
            <DeviceStatusBadge status={d.status} expectedRestart={d.expectedRestart} />
          </Space>
        }
        extra={
          <Authorized action="device:edit">
            <Button icon={<EditOutlined />} onClick={() => setEditing(true)}>
              {t('common.edit')}
            </Button>
          </Authorized>
        }
      >
        <Descriptions column={DETAIL_COLUMNS} size="small" data-testid="device-fields">
          <Descriptions.Item label={t('device.tagCode')}>
            <Typography.Text copyable>{d.tagCode}</Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('device.sn')}>{d.sn}</Descriptions.Item>
          <Descriptions.Item label={t('device.name')}>{d.name}</Descriptions.Item>
          <Descriptions.Item label={t('device.series')}>{d.series}</Descriptions.Item>
          <Descriptions.Item label={t('device.model')}>{orDash(d.model)}</Descriptions.Item>
          <Descriptions.Item label={t('device.version')}>{orDash(d.version)}</Descriptions.Item>
          <Descriptions.Item label={t('device.group')}>{orDash(d.groupName)}</Descriptions.Item>
          <Descriptions.Item label={t('device.status')}>
            <span data-testid="device-detail-status">
              <DeviceStatusBadge status={d.status} expectedRestart={d.expectedRestart} />
            </span>
          </Descriptions.Item>
          <Descriptions.Item label={t('device.enabled')}>
            {d.enabled ? t('common.enabled') : t('common.disabled')}
          </Descriptions.Item>
          <Descriptions.Item label={t('device.token')}>{d.tokenName}</Descriptions.Item>
          <Descriptions.Item label={t('common.owner')}>{d.ownerName}</Descriptions.Item>
          <Descriptions.Item label={t('device.lastSeen')}>
            {d.lastSeenAt ? formatDateTime(d.lastSeenAt) : t('device.neverSeen')}
          </Descriptions.Item>
          <Descriptions.Item label={t('device.lastConnect')}>
            {timeOrDash(d.lastConnectAt)}
          </Descriptions.Item>
          <Descriptions.Item label={t('device.lastDisconnect')}>
            {timeOrDash(d.lastDisconnectAt)}
          </Descriptions.Item>
          <Descriptions.Item label={t('device.disconnectReasonLabel')}>
            <span data-testid="device-disconnect-reason">{disconnectReasonText(t, d)}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('device.ip')}>{orDash(d.ip)}</Descriptions.Item>
          <Descriptions.Item label={t('device.place')}>
            {d.locationId ? (
              <Link to={`/base/location?id=${d.locationId}`} title={t('device.baseDataLink')}>
                {d.locationPath}
              </Link>
            ) : (
              '-'
            )}
          </Descriptions.Item>
          <Descriptions.Item label={t('device.goods')}>
            {d.goodsId ? (
              <Link to={`/base/goods?id=${d.goodsId}`} title={t('device.baseDataLink')}>
                {d.goodsModel}
              </Link>
            ) : (
              '-'
            )}
          </Descriptions.Item>
          <Descriptions.Item label={t('device.vendor')}>
            {d.vendorId ? (
              <Link to={`/base/vendor?id=${d.vendorId}`} title={t('device.baseDataLink')}>
                {d.vendorName}
              </Link>
            ) : (
              '-'
            )}
          </Descriptions.Item>
          <Descriptions.Item label={t('device.tags')}>
            {d.tags.length === 0 ? (
              '-'
            ) : (
              <Space size={[0, 4]} wrap data-testid="device-detail-tags">
                {d.tags.map((tag) => (
                  <Link key={tag} to={`/device/list?tags=${encodeURIComponent(tag)}`}>
                    <Tag>{tag}</Tag>
                  </Link>
                ))}
              </Space>
            )}
          </Descriptions.Item>
          <Descriptions.Item label={t('device.locationNote')}>
            {orDash(d.location)}
          </Descriptions.Item>
          <Descriptions.Item label={t('common.createTime')}>
            {formatDateTime(d.createTime)}
          </Descriptions.Item>
          <Descriptions.Item label={t('common.updateTime')}>
            {d.updateTime ? formatDateTime(d.updateTime) : '-'}
          </Descriptions.Item>
          <Descriptions.Item label={t('common.remark')}>{orDash(d.remark)}</Descriptions.Item>
        </Descriptions>
      </Card>
      <Card styles={{ body: { paddingTop: 8 } }}>
        {/* A device that has reported opens on its monitoring data; one never seen, on its logs. */}
        <Tabs
          defaultActiveKey={d.lastSeenAt ? 'monitoring' : 'logs'}
          items={[
            {
              key: 'monitoring',
              label: (
                <span data-testid="device-tab-monitoring">{t('device.detail.monitoring')}</span>
              ),
              children: <DeviceMonitoring deviceId={d.id} />,
            },
            {
              key: 'config',
              label: <span data-testid="device-tab-config">{t('device.detail.config')}</span>,
              children: (
                <Suspense fallback={tabLoading}>
                  <DeviceConfigTab device={d} />
                </Suspense>
              ),
            },
            {
              key: 'commands',
              label: <span data-testid="device-tab-commands">{t('deviceCommand.tab')}</span>,
              children: (
                <Suspense fallback={tabLoading}>
                  <DeviceCommandsPanel device={d} />
                </Suspense>
              ),
            },
            {
              key: 'firmware',
              label: <span data-testid="device-tab-firmware">{t('device.detail.firmware')}</span>,
              children: <DeviceFirmwareTab device={d} />,
            },
            ...(canListAlarms
              ? [
                  {
                    key: 'alarms',
                    label: <DeviceAlarmsTabLabel />,
                    children: (
                      <Suspense fallback={tabLoading}>
                        <DeviceAlarmsTab deviceId={d.id} />
                      </Suspense>
                    ),
                  },
                ]
              : []),
            {
              key: 'connections',
              label: (
                <span data-testid="device-tab-connections">{t('device.connections.tab')}</span>
              ),
              children: <DeviceConnectionsTab device={d} />,
            },
            {
              key: 'logs',
              label: <span data-testid="device-tab-logs">{t('device.detail.logs')}</span>,
              children: <DeviceLogTable deviceId={d.id} />,
            },
          ]}
        />
      </Card>
      <DeviceFormModal open={editing} editing={d} onClose={() => setEditing(false)} />
    </Space>
  );
}
