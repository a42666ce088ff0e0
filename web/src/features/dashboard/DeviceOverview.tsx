import type { TDeviceLog } from '@blrms/contracts';
import { DEVICES_CHANNEL } from '@blrms/contracts';
import type { TableColumnsType } from 'antd';
import { Button, Card, Col, Empty, Row, Skeleton, Statistic, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DeviceLogStateTag } from '../../shared/device/DeviceLogStateTag';
import { LogContentModal } from '../../shared/device/LogContentModal';
import { useDeviceStatus, useLiveReload } from '../../shared/device/use-device-status';
import { formatDateTime, formatNumber } from '../../shared/format';
import { Authorized } from '../../shared/permission/Authorized';
import { SeriesChart, VersionChart } from './DeviceCharts';
import { useDeviceSummary } from './queries';

const FIGURES = ['total', 'online', 'offline', 'seen24h'] as const;
const FIGURE_COLORS: Partial<Record<(typeof FIGURES)[number], string>> = { online: '#52c41a' };

/**
 * The device figures of the dashboard; shown to users with device:list (the summary needs it).
 * Device status changes reload the figures, at most once a second (issue 4).
 */
export function DeviceOverview() {
  const { t } = useTranslation();
  const summary = useDeviceSummary();
  const liveReload = useLiveReload(() => summary.refetch());
  useDeviceStatus(DEVICES_CHANNEL, liveReload.request, liveReload.request);
  const [viewing, setViewing] = useState<TDeviceLog | null>(null);
  const data = summary.data;

  const logColumns: TableColumnsType<TDeviceLog> = [
    {
      title: t('deviceLog.logTime'),
      dataIndex: 'logTime',
      width: 170,
      render: (v: string) => formatDateTime(v),
    },
    { title: t('deviceLog.sn'), dataIndex: 'sn', width: 150, ellipsis: true },
    { title: t('deviceLog.subject'), dataIndex: 'subject', ellipsis: true },
    {
      title: t('deviceLog.state'),
      dataIndex: 'state',
      width: 110,
      render: (_, row) => <DeviceLogStateTag state={row.state} />,
    },
    {
      title: t('common.actions'),
      key: 'view',
      width: 100,
      render: (_, row) => (
        <Button type="link" size="small" onClick={() => setViewing(row)}>
          {t('deviceLog.viewContent')}
        </Button>
      ),
    },
  ];

  return (
    <>
      <Row gutter={[16, 16]} data-testid="device-figures">
        {FIGURES.map((key) => (
          <Col xs={12} md={6} key={key}>
            <Card>
              <Statistic
                title={t(`dashboard.devices.${key}`)}
                value={data?.[key] ?? 0}
                loading={summary.isPending}
                valueStyle={{ color: FIGURE_COLORS[key] }}
                formatter={(v) => formatNumber(Number(v))}
                data-testid={`device-stat-${key}`}
              />
            </Card>
          </Col>
        ))}
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card
            title={t('dashboard.devices.bySeries')}
            extra={<Link to="/device/list">{t('dashboard.devices.viewDevices')}</Link>}
          >
            {data ? <SeriesChart data={data.bySeries} /> : <Skeleton active />}
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title={t('dashboard.devices.byVersion')}>
            {!data ? (
              <Skeleton active />
            ) : data.byVersion.length > 0 ? (
              <VersionChart data={data.byVersion} />
            ) : (
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={t('dashboard.devices.noDevices')}
                style={{ height: 248 }}
              />
            )}
          </Card>
        </Col>
      </Row>
      <Card
        title={t('dashboard.devices.recentLogs')}
        extra={
          <Authorized action="devicelog:list">
            <Link to="/device/log">{t('dashboard.devices.viewLogs')}</Link>
          </Authorized>
        }
      >
        <Table<TDeviceLog>
          rowKey="id"
          size="small"
          columns={logColumns}
          dataSource={data?.recentLogs ?? []}
          loading={summary.isPending}
          pagination={false}
          scroll={{ x: 640 }}
          locale={{
            emptyText: (
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={t('dashboard.devices.noLogs')}
              />
            ),
          }}
          data-testid="recent-device-logs"
        />
      </Card>
      <LogContentModal log={viewing} onClose={() => setViewing(null)} />
    </>
  );
}
