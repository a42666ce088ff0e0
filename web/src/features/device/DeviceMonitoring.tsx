import { Card, Col, Empty, Flex, Row, Segmented, Skeleton, Statistic, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../shared/format';
import type { TelemetryRange } from './device-data';
import { TELEMETRY_RANGES } from './device-data';
import { DeviceEventTable } from './DeviceEventTable';
import { byTelemetryKey, telemetryLabel, telemetryUnit } from './telemetry-label';
import { useLiveDeviceData, useTelemetryHistory, useTelemetryLatest } from './use-device-data';

const TelemetryChart = lazy(() => import('./TelemetryChart'));

const RANGES = Object.keys(TELEMETRY_RANGES) as TelemetryRange[];

/** The latest value of every key the device reports, each with when it was reported. */
function LatestValues({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation();
  const latest = useTelemetryLatest(deviceId);
  if (latest.isPending) return <Skeleton active paragraph={{ rows: 2 }} />;
  const values = [...(latest.data?.values ?? [])].sort((a, b) => byTelemetryKey(a.key, b.key));
  if (values.length === 0) {
    return (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={t('device.monitor.noTelemetry')}
        data-testid="telemetry-latest-empty"
      />
    );
  }
  return (
    <Row gutter={[12, 12]} data-testid="telemetry-latest">
      {values.map(({ key, value, ts }) => (
        <Col xs={12} sm={8} lg={6} xxl={4} key={key}>
          <Card size="small" data-testid={`telemetry-${key}`}>
            <Statistic
              title={telemetryLabel(t, key)}
              value={value}
              suffix={telemetryUnit(key)}
              valueStyle={{ fontSize: 20 }}
            />
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              <Typography.Text code style={{ fontSize: 12 }}>
                {key}
              </Typography.Text>{' '}
              {formatDateTime(ts)}
            </Typography.Text>
          </Card>
        </Col>
      ))}
    </Row>
  );
}

function History({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation();
  const [range, setRange] = useState<TelemetryRange>('24h');
  const history = useTelemetryHistory(deviceId, range);
  const points = history.data?.points ?? [];
  const chartLoading = <Skeleton active paragraph={{ rows: 6 }} />;
  return (
    <>
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 12 }}>
        <Typography.Text strong>{t('device.monitor.history')}</Typography.Text>
        <Segmented<TelemetryRange>
          size="small"
          value={range}
          onChange={setRange}
          options={RANGES.map((value) => ({ value, label: t(`device.monitor.range.${value}`) }))}
          data-testid="telemetry-range"
        />
      </Flex>
      {history.isPending ? (
        chartLoading
      ) : points.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('device.monitor.noHistory')} />
      ) : (
        <Suspense fallback={chartLoading}>
          <TelemetryChart points={points} />
        </Suspense>
      )}
      {history.data?.truncated && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('device.monitor.truncated', { count: points.length })}
        </Typography.Text>
      )}
    </>
  );
}

/**
 * The monitoring tab of a device (issue 4): latest values, a chart of the last hour, day or week,
 * and the device's events, all following the device's live messages.
 */
export function DeviceMonitoring({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation();
  useLiveDeviceData(deviceId);
  return (
    <Flex vertical gap={24} data-testid="device-monitoring">
      <section>
        <Typography.Text strong style={{ display: 'block', marginBottom: 12 }}>
          {t('device.monitor.latest')}
        </Typography.Text>
        <LatestValues deviceId={deviceId} />
      </section>
      <section>
        <History deviceId={deviceId} />
      </section>
      <DeviceEventTable deviceId={deviceId} />
    </Flex>
  );
}
