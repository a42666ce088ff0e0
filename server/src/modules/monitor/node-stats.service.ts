import fs from 'node:fs/promises';
import type { Server } from 'node:http';
import os from 'node:os';
import { monitorEventLoopDelay, performance, type IntervalHistogram } from 'node:perf_hooks';
import type { TMonitorSnapshot } from '@blrms/contracts';
import type { Clock } from '../../platform/clock.js';
import { databaseStats, type Db } from '../../platform/db/database.js';
import type { GatewayTraffic } from '../device-gateway/gateway.service.js';
import { SERVER_VERSION } from '../health/health.service.js';

export interface NodeStatsSources {
  /** This node's id: the MQTT gateway's (also in `device.node_id`). */
  nodeId: () => string;
  traffic: () => GatewayTraffic;
  consoleSockets: () => number;
  db: Db;
  dataDir: string;
  clock: Clock;
}

interface Previous {
  wallMs: number;
  cpu: NodeJS.CpuUsage;
  received: number;
  sent: number;
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * This node's state as the system monitor shows it: process (CPU, memory, event-loop lag,
 * uptime), connections (HTTP, console sockets, MQTT and its traffic), the database pool and its
 * slowest recent statements, and the disk of DATA_DIR. Rates and CPU are measured between two
 * snapshots.
 */
export class NodeStats {
  private readonly lag: IntervalHistogram = monitorEventLoopDelay({ resolution: 20 });
  private previous: Previous | null = null;
  private server: Server | null = null;
  private readonly startedAt = Date.now() - process.uptime() * 1000;

  constructor(private readonly sources: NodeStatsSources) {
    this.lag.enable();
  }

  nodeId(): string {
    return this.sources.nodeId();
  }

  /** The HTTP server whose open connections are counted. */
  attach(server: Server): void {
    this.server = server;
  }

  close(): void {
    this.lag.disable();
  }

  async snapshot(): Promise<TMonitorSnapshot> {
    const wallMs = performance.now();
    const cpu = process.cpuUsage();
    const traffic = this.sources.traffic();
    const previous = this.previous;
    this.previous = { wallMs, cpu, received: traffic.received, sent: traffic.sent };
    const elapsedMs = previous ? wallMs - previous.wallMs : process.uptime() * 1000;
    const cpuMicros = previous
      ? cpu.user + cpu.system - previous.cpu.user - previous.cpu.system
      : cpu.user + cpu.system;
    const perSecond = (now: number, before: number | undefined) =>
      previous && elapsedMs > 0 ? round(((now - (before ?? 0)) * 1000) / elapsedMs) : 0;

    const lagP99 = this.lag.count > 0 ? this.lag.percentile(99) / 1e6 : 0;
    this.lag.reset();
    const memory = process.memoryUsage();
    const stats = databaseStats(this.sources.db);
    const [httpConnections, disk] = await Promise.all([this.httpConnections(), this.disk()]);
    return {
      nodeId: this.sources.nodeId(),
      host: os.hostname(),
      pid: process.pid,
      at: new Date(this.sources.clock()).toISOString(),
      startedAt: new Date(this.startedAt).toISOString(),
      nodeVersion: process.version,
      serverVersion: SERVER_VERSION,
      uptimeSeconds: Math.round(process.uptime()),
      cpuPercent: elapsedMs > 0 ? round(cpuMicros / 10 / elapsedMs) : 0,
      rssBytes: memory.rss,
      heapUsedBytes: memory.heapUsed,
      heapTotalBytes: memory.heapTotal,
      eventLoopLagP99Ms: round(lagP99, 2),
      httpConnections,
      wsClients: this.sources.consoleSockets(),
      mqtt: {
        broker: traffic.broker,
        connected: traffic.connected,
        inPerSecond: perSecond(traffic.received, previous?.received),
        outPerSecond: perSecond(traffic.sent, previous?.sent),
        receivedTotal: traffic.received,
        sentTotal: traffic.sent,
        refusedTotal: traffic.refused,
      },
      dbPool: stats?.pool ?? null,
      slowQueries: (stats?.queries.slowest() ?? []).map((entry) => ({
        sql: entry.sql,
        durationMs: round(entry.durationMs, 2),
        at: new Date(entry.at).toISOString(),
        count: entry.count,
      })),
      ...disk,
    };
  }

  private httpConnections(): Promise<number> {
    const server = this.server;
    if (!server?.listening) return Promise.resolve(0);
    return new Promise((resolve) => server.getConnections((error, n) => resolve(error ? 0 : n)));
  }

  private async disk(): Promise<Pick<TMonitorSnapshot, 'disk' | 'diskError'>> {
    try {
      const fsStats = await fs.statfs(this.sources.dataDir);
      const total = fsStats.blocks * fsStats.bsize;
      return {
        disk: {
          path: this.sources.dataDir,
          totalBytes: total,
          usedBytes: (fsStats.blocks - fsStats.bfree) * fsStats.bsize,
          freeBytes: fsStats.bavail * fsStats.bsize,
        },
        diskError: null,
      };
    } catch (error) {
      return { disk: null, diskError: error instanceof Error ? error.message : String(error) };
    }
  }
}
