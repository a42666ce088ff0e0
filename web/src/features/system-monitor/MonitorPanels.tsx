import type { TMonitorNode, TMonitorSnapshot, TSlowQuery, TTracedRequest } from '@blrms/contracts';
import { MONITOR_TRACE_SIZE } from '@blrms/contracts';
import { Alert, Card, Col, Descriptions, Empty, Progress, Row, Table, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../shared/file-size';
import { formatDateTime, formatNumber } from '../../shared/format';
import { MonitorChart, type ChartSeries } from './MonitorChart';
import {
  useMonitorDatabase,
  useMonitorNodes,
  useMonitorRedis,
  useMonitorTrace,
} from './use-monitor';

const DESCRIPTION_COLUMNS = { xs: 1, sm: 2, lg: 3 };
const MB = 1024 * 1024;

export function formatUptime(t: TFunction, seconds: number): string {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = Math.floor(seconds % 60);
  if (d > 0) return t('sysMonitor.durationDays', { d, h });
  if (h > 0) return t('sysMonitor.durationHours', { h, m });
  return t('sysMonitor.durationMinutes', { m, s });
}

function LoadError({ error }: { error: Error | null }) {
  const { t } = useTranslation();
  if (!error) return null;
  return (
    <Alert
      type="error"
      showIcon
      style={{ marginBottom: 12 }}
      message={t('sysMonitor.loadFailed', { error: error.message })}
    />
  );
}

/** One line per node of one measure of the history. */
function perNode(
  nodes: TMonitorNode[],
  value: (point: TMonitorNode['history'][number]) => number | null,
): ChartSeries[] {
  return nodes.map((node) => ({
    name: node.snapshot.nodeId,
    points: node.history.map((point) => [point.at, value(point)]),
  }));
}

function NodeCard({ snapshot }: { snapshot: TMonitorSnapshot }) {
  const { t } = useTranslation();
  return (
    <Card
      size="small"
      title={snapshot.nodeId}
      data-testid="monitor-node"
      style={{ marginBottom: 12 }}
    >
      <Descriptions size="small" column={DESCRIPTION_COLUMNS}>
        <Descriptions.Item label={t('sysMonitor.host')}>
          {snapshot.host} ({t('sysMonitor.pid')} {snapshot.pid})
        </Descriptions.Item>
        <Descriptions.Item label={t('sysMonitor.nodeVersion')}>
          {snapshot.nodeVersion}
        </Descriptions.Item>
        <Descriptions.Item label={t('sysMonitor.serverVersion')}>
          {snapshot.serverVersion}
        </Descriptions.Item>
        <Descriptions.Item label={t('sysMonitor.uptime')}>
          {formatUptime(t, snapshot.uptimeSeconds)}
        </Descriptions.Item>
        <Descriptions.Item label={`${t('sysMonitor.cpu')} (${t('sysMonitor.cpuHint')})`}>
          <span data-testid="monitor-cpu">{snapshot.cpuPercent}%</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('sysMonitor.rss')}>
          <span data-testid="monitor-rss">{formatBytes(snapshot.rssBytes)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('sysMonitor.heap')}>
          {formatBytes(snapshot.heapUsedBytes)} / {formatBytes(snapshot.heapTotalBytes)}
        </Descriptions.Item>
        <Descriptions.Item label={t('sysMonitor.eventLoopLag')}>
          {snapshot.eventLoopLagP99Ms} ms
        </Descriptions.Item>
        <Descriptions.Item label={t('sysMonitor.httpConnections')}>
          {formatNumber(snapshot.httpConnections)}
        </Descriptions.Item>
        <Descriptions.Item label={t('sysMonitor.wsClients')}>
          {formatNumber(snapshot.wsClients)}
        </Descriptions.Item>
        <Descriptions.Item label={t('sysMonitor.lastReport')}>
          {formatDateTime(snapshot.at)}
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

export function NodesPanel() {
  const { t } = useTranslation();
  const query = useMonitorNodes(true);
  const nodes = useMemo(() => query.data?.nodes ?? [], [query.data]);
  const charts = useMemo(
    () => ({
      cpu: perNode(nodes, (p) => p.cpuPercent),
      memory: nodes.flatMap((node) => [
        {
          name: `${node.snapshot.nodeId} ${t('sysMonitor.seriesRss')}`,
          points: node.history.map((p): [string, number] => [p.at, Math.round(p.rssBytes / MB)]),
        },
        {
          name: `${node.snapshot.nodeId} ${t('sysMonitor.seriesHeap')}`,
          points: node.history.map((p): [string, number] => [
            p.at,
            Math.round(p.heapUsedBytes / MB),
          ]),
        },
      ]),
      lag: perNode(nodes, (p) => p.eventLoopLagP99Ms),
    }),
    [nodes, t],
  );
  return (
    <div data-testid="monitor-nodes">
      <LoadError error={query.error} />
      {query.data && (
        <Typography.Paragraph type="secondary">
          {t('sysMonitor.answeredBy', { node: query.data.answeredBy })}
        </Typography.Paragraph>
      )}
      {nodes.map((node) => (
        <NodeCard key={node.snapshot.nodeId} snapshot={node.snapshot} />
      ))}
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={8}>
          <MonitorChart
            title={t('sysMonitor.chartCpu')}
            series={charts.cpu}
            testId="monitor-chart-cpu"
          />
        </Col>
        <Col xs={24} lg={8}>
          <MonitorChart
            title={t('sysMonitor.chartMemory')}
            series={charts.memory}
            testId="monitor-chart-memory"
          />
        </Col>
        <Col xs={24} lg={8}>
          <MonitorChart
            title={t('sysMonitor.chartLag')}
            series={charts.lag}
            testId="monitor-chart-lag"
          />
        </Col>
      </Row>
    </div>
  );
}

function slowColumns(t: TFunction) {
  return [
    {
      title: t('sysMonitor.sql'),
      dataIndex: 'sql',
      render: (sql: string) => (
        <Typography.Text code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
          {sql}
        </Typography.Text>
      ),
    },
    { title: t('sysMonitor.duration'), dataIndex: 'durationMs', width: 110 },
    { title: t('sysMonitor.count'), dataIndex: 'count', width: 80 },
    {
      title: t('sysMonitor.at'),
      dataIndex: 'at',
      width: 170,
      render: (at: string) => formatDateTime(at),
    },
  ];
}

export function DatabasePanel() {
  const { t } = useTranslation();
  const query = useMonitorDatabase(true);
  const data = query.data;
  return (
    <div data-testid="monitor-database">
      <LoadError error={query.error} />
      {data && (
        <>
          <Descriptions
            size="small"
            bordered
            column={{ xs: 1, sm: 2 }}
            style={{ marginBottom: 12 }}
          >
            <Descriptions.Item label={t('sysMonitor.dialect')}>
              {data.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'}
            </Descriptions.Item>
            <Descriptions.Item label={t('sysMonitor.dbSize')}>
              <span data-testid="monitor-db-size">
                {data.sizeBytes === null
                  ? t('sysMonitor.loadFailed', { error: data.sizeError ?? '' })
                  : formatBytes(data.sizeBytes)}
              </span>
            </Descriptions.Item>
            {data.nodes.map((node) => (
              <Descriptions.Item
                key={node.nodeId}
                label={`${t('sysMonitor.pool')} · ${node.nodeId}`}
              >
                {node.pool ? t('sysMonitor.poolValue', node.pool) : t('sysMonitor.poolNone')}
              </Descriptions.Item>
            ))}
          </Descriptions>
          <Typography.Title level={5}>{t('sysMonitor.slowQueries')}</Typography.Title>
          <Typography.Paragraph type="secondary">
            {t('sysMonitor.slowQueriesHint')}
          </Typography.Paragraph>
          {data.nodes.map((node) => (
            <Table<TSlowQuery>
              key={node.nodeId}
              title={() => node.nodeId}
              size="small"
              rowKey="sql"
              pagination={false}
              scroll={{ x: 720 }}
              columns={slowColumns(t)}
              dataSource={node.slowQueries}
              locale={{ emptyText: t('sysMonitor.noSlowQueries') }}
              data-testid="monitor-slow-queries"
              style={{ marginBottom: 12 }}
            />
          ))}
        </>
      )}
    </div>
  );
}

export function MqttPanel() {
  const { t } = useTranslation();
  const query = useMonitorNodes(true);
  const nodes = useMemo(() => query.data?.nodes ?? [], [query.data]);
  const rates = useMemo(
    () =>
      nodes.flatMap((node) => [
        {
          name: t('sysMonitor.seriesIn', { node: node.snapshot.nodeId }),
          points: node.history.map((p): [string, number] => [p.at, p.mqttInPerSecond]),
        },
        {
          name: t('sysMonitor.seriesOut', { node: node.snapshot.nodeId }),
          points: node.history.map((p): [string, number] => [p.at, p.mqttOutPerSecond]),
        },
      ]),
    [nodes, t],
  );
  const brokerName = {
    embedded: 'brokerEmbedded',
    external: 'brokerExternal',
    none: 'brokerNone',
  } as const;
  return (
    <div data-testid="monitor-mqtt">
      <LoadError error={query.error} />
      <Table<TMonitorNode>
        size="small"
        rowKey={(node) => node.snapshot.nodeId}
        pagination={false}
        scroll={{ x: 900 }}
        dataSource={nodes}
        style={{ marginBottom: 16 }}
        columns={[
          { title: t('sysMonitor.node'), render: (_, node) => node.snapshot.nodeId },
          {
            title: t('sysMonitor.broker'),
            render: (_, node) => t(`sysMonitor.${brokerName[node.snapshot.mqtt.broker]}`),
          },
          {
            title: t('sysMonitor.connectedDevices'),
            render: (_, node) => (
              <span data-testid="monitor-mqtt-connected">
                {node.snapshot.mqtt.connected === null
                  ? t('sysMonitor.connectedExternal')
                  : formatNumber(node.snapshot.mqtt.connected)}
              </span>
            ),
          },
          {
            title: t('sysMonitor.inPerSecond'),
            render: (_, node) => node.snapshot.mqtt.inPerSecond,
          },
          {
            title: t('sysMonitor.outPerSecond'),
            render: (_, node) => node.snapshot.mqtt.outPerSecond,
          },
          {
            title: t('sysMonitor.receivedTotal'),
            render: (_, node) => formatNumber(node.snapshot.mqtt.receivedTotal),
          },
          {
            title: t('sysMonitor.sentTotal'),
            render: (_, node) => formatNumber(node.snapshot.mqtt.sentTotal),
          },
          {
            title: t('sysMonitor.refusedTotal'),
            render: (_, node) => formatNumber(node.snapshot.mqtt.refusedTotal),
          },
        ]}
      />
      <MonitorChart title={t('sysMonitor.chartMqtt')} series={rates} testId="monitor-chart-mqtt" />
    </div>
  );
}

export function RedisPanel() {
  const { t } = useTranslation();
  const query = useMonitorRedis(true);
  const data = query.data;
  const bytes = (n: number | null) => (n === null ? t('sysMonitor.notAvailable') : formatBytes(n));
  const count = (n: number | null) => (n === null ? t('sysMonitor.notAvailable') : formatNumber(n));
  return (
    <div data-testid="monitor-redis">
      <LoadError error={query.error} />
      {data && !data.configured && (
        <Alert type="info" showIcon message={t('sysMonitor.redisNotConfigured')} />
      )}
      {data?.configured && !data.ok && (
        <Alert type="error" showIcon message={t('sysMonitor.redisDown')} description={data.error} />
      )}
      {data?.ok && (
        <Descriptions size="small" bordered column={{ xs: 1, sm: 2, lg: 3 }}>
          <Descriptions.Item label={t('sysMonitor.redisVersion')}>{data.version}</Descriptions.Item>
          <Descriptions.Item label={t('sysMonitor.redisUsedMemory')}>
            {bytes(data.usedMemoryBytes)}
          </Descriptions.Item>
          <Descriptions.Item label={t('sysMonitor.redisPeakMemory')}>
            {bytes(data.peakMemoryBytes)}
          </Descriptions.Item>
          <Descriptions.Item label={t('sysMonitor.redisMaxMemory')}>
            {data.maxMemoryBytes === null
              ? t('sysMonitor.redisNoLimit')
              : formatBytes(data.maxMemoryBytes)}
          </Descriptions.Item>
          <Descriptions.Item label={t('sysMonitor.redisClients')}>
            {count(data.connectedClients)}
          </Descriptions.Item>
          <Descriptions.Item label={t('sysMonitor.redisBlocked')}>
            {count(data.blockedClients)}
          </Descriptions.Item>
          <Descriptions.Item label={t('sysMonitor.redisChannels')}>
            {count(data.pubsubChannels)}
          </Descriptions.Item>
          <Descriptions.Item label={t('sysMonitor.redisUptime')}>
            {data.uptimeSeconds === null
              ? t('sysMonitor.notAvailable')
              : formatUptime(t, data.uptimeSeconds)}
          </Descriptions.Item>
        </Descriptions>
      )}
    </div>
  );
}

export function DiskPanel() {
  const { t } = useTranslation();
  const query = useMonitorNodes(true);
  return (
    <div data-testid="monitor-disk">
      <LoadError error={query.error} />
      {(query.data?.nodes ?? []).map(({ snapshot }) => (
        <Card
          key={snapshot.nodeId}
          size="small"
          title={snapshot.nodeId}
          style={{ marginBottom: 12 }}
        >
          {snapshot.disk ? (
            <>
              <Progress
                percent={Math.round(
                  (snapshot.disk.usedBytes / Math.max(snapshot.disk.totalBytes, 1)) * 100,
                )}
                status={
                  snapshot.disk.freeBytes < snapshot.disk.totalBytes * 0.1 ? 'exception' : 'normal'
                }
              />
              <Descriptions size="small" column={DESCRIPTION_COLUMNS}>
                <Descriptions.Item label={t('sysMonitor.diskPath')}>
                  <Typography.Text code>{snapshot.disk.path}</Typography.Text>
                </Descriptions.Item>
                <Descriptions.Item label={t('sysMonitor.diskTotal')}>
                  {formatBytes(snapshot.disk.totalBytes)}
                </Descriptions.Item>
                <Descriptions.Item label={t('sysMonitor.diskUsed')}>
                  {formatBytes(snapshot.disk.usedBytes)}
                </Descriptions.Item>
                <Descriptions.Item label={t('sysMonitor.diskFree')}>
                  <span data-testid="monitor-disk-free">
                    {formatBytes(snapshot.disk.freeBytes)}
                  </span>
                </Descriptions.Item>
              </Descriptions>
            </>
          ) : (
            <Alert
              type="error"
              showIcon
              message={t('sysMonitor.diskError', { error: snapshot.diskError ?? '' })}
            />
          )}
        </Card>
      ))}
    </div>
  );
}

export function TracePanel() {
  const { t } = useTranslation();
  const query = useMonitorTrace(true);
  const data = query.data;
  return (
    <div data-testid="monitor-trace">
      <LoadError error={query.error} />
      {data && (
        <Typography.Paragraph type="secondary">
          {t('sysMonitor.traceHint', { node: data.nodeId, count: MONITOR_TRACE_SIZE })}
        </Typography.Paragraph>
      )}
      <Table<TTracedRequest>
        size="small"
        rowKey={(row, index) => `${row.at}-${index ?? 0}`}
        dataSource={data?.requests ?? []}
        pagination={{ pageSize: 20, showSizeChanger: false }}
        scroll={{ x: 760 }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} /> }}
        data-testid="monitor-trace-table"
        columns={[
          {
            title: t('sysMonitor.at'),
            dataIndex: 'at',
            width: 170,
            render: (at: string) => formatDateTime(at),
          },
          { title: t('sysMonitor.method'), dataIndex: 'method', width: 80 },
          {
            title: t('sysMonitor.path'),
            dataIndex: 'path',
            render: (path: string) => <Typography.Text code>{path}</Typography.Text>,
          },
          {
            title: t('sysMonitor.status'),
            dataIndex: 'status',
            width: 80,
            render: (status: number) => (
              <Tag color={status >= 500 ? 'red' : status >= 400 ? 'orange' : 'green'}>{status}</Tag>
            ),
          },
          { title: t('sysMonitor.duration'), dataIndex: 'durationMs', width: 110 },
          {
            title: t('sysMonitor.user'),
            dataIndex: 'user',
            width: 140,
            render: (user: string | null) => user ?? t('sysMonitor.anonymous'),
          },
        ]}
      />
    </div>
  );
}
