import type { ProColumns } from '@ant-design/pro-components';
import { ProTable } from '@ant-design/pro-components';
import type { TAvailabilityWindow, TDevice, TDeviceConnection } from '@blrms/contracts';
import { DISCONNECT_REASONS } from '@blrms/contracts';
import { Card, Col, Progress, Row, Skeleton, Space, Statistic, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useListPage } from '../../shared/entity/use-list-page';
import { formatDateTime, formatNumber } from '../../shared/format';
import { formatDuration } from './connection-duration';
import type { ConnectionParams } from './use-device-connections';
import { useDeviceAvailability, useDeviceConnections } from './use-device-connections';

/** Availability at or above this reads as healthy (green), below the second as poor (red). */
const GOOD_PERCENT = 99;
const POOR_PERCENT = 90;

const colorOf = (percent: number) =>
  percent >= GOOD_PERCENT ? '#52c41a' : percent >= POOR_PERCENT ? '#faad14' : '#ff4d4f';

function AvailabilityCard({
  title,
  window,
  testId,
}: {
  title: string;
  window: TAvailabilityWindow | undefined;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Card size="small" data-testid={testId}>
      {window ? (
        <>
          <Statistic
            title={title}
            value={window.percent}
            precision={1}
            suffix="%"
            valueStyle={{ color: colorOf(window.percent) }}
          />
          <Progress
            percent={window.percent}
            showInfo={false}
            strokeColor={colorOf(window.percent)}
            size="small"
          />
          <Typography.Text type="secondary">
            {t('device.connections.windowSummary', {
              online: formatDuration(t, window.onlineMs),
              connections: formatNumber(window.connections),
            })}
          </Typography.Text>
        </>
      ) : (
        <Skeleton active title paragraph={{ rows: 1 }} />
      )}
    </Card>
  );
}

/**
 * A device's connection history (Connections tab of the detail page): its availability over the
 * last 24 hours and 7 days, and every connection, newest first, with how long it lasted and why
 * it ended. Both load again when the device connects or disconnects (its live presence).
 */
export function DeviceConnectionsTab({ device }: { device: TDevice }) {
  const { t } = useTranslation();
  const list = useListPage<ConnectionParams>({
    defaults: { deviceId: device.id, pageNo: 1, pageSize: 10, order: 'desc' },
  });
  const connections = useDeviceConnections(device, list.params);
  const availability = useDeviceAvailability(device);

  const reasonText = (reason: string | null) => {
    const known = DISCONNECT_REASONS.find((r) => r === reason);
    return known ? t(`device.disconnectReason.${known}`) : (reason ?? '-');
  };

  // What a phone shows first (start, length, how it ended); the rest scrolls in from the right.
  const columns: ProColumns<TDeviceConnection>[] = [
    {
      title: t('device.connections.connectedAt'),
      dataIndex: 'connectedAt',
      width: 170,
      render: (_, row) => formatDateTime(row.connectedAt),
    },
    {
      title: t('device.connections.duration'),
      dataIndex: 'durationMs',
      width: 110,
      render: (_, row) => formatDuration(t, row.durationMs),
    },
    {
      title: t('device.connections.reason'),
      dataIndex: 'reason',
      width: 220,
      ellipsis: true,
      render: (_, row) =>
        row.disconnectedAt ? (
          reasonText(row.reason)
        ) : (
          <Tag color="success" bordered={false}>
            {t('device.connections.open')}
          </Tag>
        ),
    },
    {
      title: t('device.connections.disconnectedAt'),
      dataIndex: 'disconnectedAt',
      width: 170,
      render: (_, row) => (row.disconnectedAt ? formatDateTime(row.disconnectedAt) : '-'),
    },
    {
      title: t('device.ip'),
      dataIndex: 'ip',
      width: 140,
      render: (_, row) => row.ip ?? '-',
    },
    {
      title: t('device.connections.node'),
      dataIndex: 'nodeId',
      ellipsis: true,
      render: (_, row) => row.nodeId ?? '-',
    },
  ];

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Row gutter={[16, 16]}>
        <Col xs={24} sm={12}>
          <AvailabilityCard
            title={t('device.connections.availability24h')}
            window={availability.data?.day}
            testId="device-availability-day"
          />
        </Col>
        <Col xs={24} sm={12}>
          <AvailabilityCard
            title={t('device.connections.availability7d')}
            window={availability.data?.week}
            testId="device-availability-week"
          />
        </Col>
      </Row>
      <ProTable<TDeviceConnection>
        rowKey="id"
        headerTitle={t('device.connections.history')}
        {...list.tableProps(connections)}
        columns={columns}
        ghost
        search={false}
        options={{
          reload: () => {
            void connections.refetch();
            void availability.refetch();
          },
          density: true,
          setting: true,
        }}
        cardProps={{ bodyStyle: { padding: 0 } }}
        scroll={{ x: 960 }}
        data-testid="device-connection-table"
      />
    </Space>
  );
}
