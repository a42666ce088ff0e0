import { createHash, timingSafeEqual } from 'node:crypto';
import { CAMPAIGN_STATES, DEVICE_STATUS } from '@blrms/contracts';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Clock } from '../../platform/clock.js';
import { databaseStats, type Db } from '../../platform/db/database.js';
import type { DeviceDataStats } from '../device-data/device-data-writer.service.js';
import type { GatewayTraffic } from '../device-gateway/gateway.service.js';
import { SERVER_VERSION } from '../health/health.service.js';
import type { MonitorRepository } from './monitor.repository.js';
import { routeOf } from './request-trace.service.js';

const DROP_REASONS = ['buffer_full', 'write_failed'] as const;

/** Platform-wide counts (devices, campaigns) are read at most this often, whoever scrapes. */
const COUNTS_TTL_MS = 5_000;

export interface MetricsSources {
  nodeId: () => string;
  traffic: () => GatewayTraffic;
  consoleSockets: () => number;
  /** The telemetry and event writer of this node. */
  deviceData: () => DeviceDataStats;
  db: Db;
  repository: MonitorRepository;
  clock: Clock;
  log: FastifyBaseLogger;
}

/**
 * prom-client's process metrics (CPU, memory, event loop, GC, handles) describe the process, not
 * an app: registered once, so that several apps in one process (tests) do not each add their own
 * GC observer and event-loop histogram, which cannot be removed.
 */
let processMetrics: Registry | null = null;
function processRegistry(): Registry {
  if (!processMetrics) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
  }
  return processMetrics;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether `header` is `Bearer <token>`, compared in constant time (hashes of equal length). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
}

/**
 * This node's Prometheus metrics (`GET /metrics`): the process (prom-client's defaults), HTTP
 * requests by route, MQTT (connections held here, messages, refused connects), the telemetry
 * writer (rows stored, shed, waiting), the database pool and statements, console sockets, and
 * platform-wide device and campaign counts. Counters of the
 * gateway and database are kept by them since start and read at scrape.
 */
export class MetricsService {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly durations: Histogram<'method' | 'route'>;
  private counts: {
    at: number;
    devices: Map<string, number>;
    campaigns: Map<string, number>;
  } | null = null;
  private reading: Promise<void> | null = null;

  constructor(private readonly sources: MetricsSources) {
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'blrms_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.durations = new Histogram({
      name: 'blrms_http_request_duration_seconds',
      help: 'HTTP response time, by method and route pattern',
      labelNames: ['method', 'route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    new Gauge({
      name: 'blrms_info',
      help: 'This server node: its id and version (value 1)',
      labelNames: ['node', 'version'],
      registers,
      collect() {
        this.reset();
        this.set({ node: sources.nodeId(), version: SERVER_VERSION }, 1);
      },
    });
    new Gauge({
      name: 'blrms_mqtt_connected_devices',
      help: "Devices connected to this node's embedded broker (0 with an external broker)",
      registers,
      collect() {
        this.set(sources.traffic().connected ?? 0);
      },
    });
    this.monotonic(
      'blrms_mqtt_messages_received_total',
      'MQTT messages received from devices',
      () => sources.traffic().received,
    );
    this.monotonic(
      'blrms_mqtt_messages_sent_total',
      'MQTT messages sent to devices by this node',
      () => sources.traffic().sent,
    );
    this.monotonic(
      'blrms_mqtt_connections_refused_total',
      'MQTT connects refused (credentials, rules, rate limit)',
      () => sources.traffic().refused,
    );
    this.monotonic(
      'blrms_device_data_rows_written_total',
      'Telemetry samples and device events stored by this node',
      () => sources.deviceData().written,
    );
    const droppedSeen: DeviceDataStats['dropped'] = { buffer_full: 0, write_failed: 0 };
    new Counter({
      name: 'blrms_device_data_rows_dropped_total',
      help: 'Telemetry samples and device events dropped by this node, by reason: buffer_full (the database fell behind and the backlog reached its limit) or write_failed (a batch could not be written)',
      labelNames: ['reason'],
      registers,
      collect() {
        // Adding 0 shows both reasons from the first scrape, so a rate over them exists at once.
        const now = sources.deviceData().dropped;
        for (const reason of DROP_REASONS) {
          this.inc({ reason }, Math.max(0, now[reason] - droppedSeen[reason]));
          droppedSeen[reason] = now[reason];
        }
      },
    });
    new Gauge({
      name: 'blrms_device_data_shedding',
      help: 'Whether this node drops telemetry and events now (1) or not (0), by reason',
      labelNames: ['reason'],
      registers,
      collect() {
        const { shedding } = sources.deviceData();
        for (const reason of DROP_REASONS) this.set({ reason }, shedding[reason] ? 1 : 0);
      },
    });
    new Gauge({
      name: 'blrms_device_data_rows_pending',
      help: 'Telemetry samples and device events received and waiting for the database',
      registers,
      collect() {
        this.set(sources.deviceData().pending);
      },
    });
    new Gauge({
      name: 'blrms_device_data_rows_pending_max',
      help: 'Rows that may wait for the database before new ones are dropped',
      registers,
      collect() {
        this.set(sources.deviceData().pendingMax);
      },
    });
    this.monotonic(
      'blrms_device_data_batches_total',
      'Batches of telemetry and events written (or given up) by this node',
      () => sources.deviceData().batches,
    );
    this.monotonic(
      'blrms_device_data_batch_write_seconds_total',
      'Seconds spent writing batches of telemetry and events (divided by the batches: the mean time per batch)',
      () => sources.deviceData().batchSeconds,
    );
    this.monotonic(
      'blrms_db_queries_total',
      'Database statements run by this node',
      () => databaseStats(sources.db)?.queries.queries ?? 0,
    );
    this.monotonic(
      'blrms_db_query_errors_total',
      'Database statements that failed',
      () => databaseStats(sources.db)?.queries.errors ?? 0,
    );
    new Gauge({
      name: 'blrms_db_pool_connections',
      help: 'PostgreSQL pool connections of this node by state (total, idle, waiting requests, max); absent on SQLite',
      labelNames: ['state'],
      registers,
      collect() {
        const pool = databaseStats(sources.db)?.pool;
        if (!pool) return;
        this.set({ state: 'total' }, pool.total);
        this.set({ state: 'idle' }, pool.idle);
        this.set({ state: 'waiting' }, pool.waiting);
        this.set({ state: 'max' }, pool.max);
      },
    });
    new Gauge({
      name: 'blrms_websocket_clients',
      help: 'Console websockets open on this node',
      registers,
      collect() {
        this.set(sources.consoleSockets());
      },
    });
    const counts = () => this.platformCounts();
    new Gauge({
      name: 'blrms_devices',
      help: 'Devices of every company by status (platform-wide, read at most every 5 s)',
      labelNames: ['status'],
      registers,
      async collect() {
        const read = await counts();
        if (!read) return;
        for (const status of DEVICE_STATUS) this.set({ status }, read.devices.get(status) ?? 0);
      },
    });
    new Gauge({
      name: 'blrms_campaigns',
      help: 'Campaigns of every company by state (platform-wide, read at most every 5 s)',
      labelNames: ['state'],
      registers,
      async collect() {
        const read = await counts();
        if (!read) return;
        for (const state of CAMPAIGN_STATES) this.set({ state }, read.campaigns.get(state) ?? 0);
      },
    });
  }

  /** The onResponse hook's part: one request counted and timed. */
  observe(request: FastifyRequest, reply: FastifyReply): void {
    const route = routeOf(request) ?? (reply.statusCode === 404 ? 'unmatched' : 'static');
    const method = request.method;
    this.requests.inc({ method, route, status: String(reply.statusCode) });
    this.durations.observe({ method, route }, reply.elapsedTime / 1000);
  }

  render(): Promise<string> {
    return Registry.merge([processRegistry(), this.registry]).metrics();
  }

  /**
   * A counter whose total another part keeps (the gateway, the database handle): what it counted
   * since the last scrape is added.
   */
  private monotonic(name: string, help: string, read: () => number): void {
    let seen = 0;
    new Counter({
      name,
      help,
      registers: [this.registry],
      collect() {
        const now = read();
        if (now > seen) this.inc(now - seen);
        seen = now;
      },
    });
  }

  /**
   * Devices and campaigns counted over every company, cached a few seconds. A database that does
   * not answer leaves the previous figures (or none) rather than failing the scrape.
   */
  private async platformCounts() {
    const now = this.sources.clock();
    if (this.counts && now - this.counts.at < COUNTS_TTL_MS) return this.counts;
    // Both gauges collect at once: one read serves them.
    this.reading ??= this.readCounts(now).finally(() => (this.reading = null));
    await this.reading;
    return this.counts;
  }

  private async readCounts(now: number): Promise<void> {
    try {
      const [devices, campaigns] = await Promise.all([
        this.sources.repository.deviceCountsByStatus(),
        this.sources.repository.campaignCountsByState(),
      ]);
      this.counts = { at: now, devices, campaigns };
    } catch (error) {
      this.sources.log.warn({ err: error }, 'metrics: device and campaign counts not read');
    }
  }
}
