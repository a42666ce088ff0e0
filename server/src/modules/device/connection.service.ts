import {
  DATA_RETENTION_DEFAULT_DAYS,
  ZDataRetention,
  type TAvailabilityWindow,
  type TDeviceAvailability,
  type TDeviceConnection,
  type TDeviceConnectionQuery,
} from '@blrms/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Scope } from '../../platform/auth/scope.js';
import type { Clock } from '../../platform/clock.js';
import type { JobSpec } from '../../platform/scheduler/scheduler.js';
import type { DeviceService } from './device.service.js';
import { iso, isoOrNull, pageResult, type Page } from '../../platform/http/paging.js';
import type { ConnectionRepository } from './connection.repository.js';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
/** Retention runs this long after start, then hourly, as that of telemetry does. */
const PURGE_FIRST_RUN_MS = 45_000;
const PURGE_INTERVAL_MS = HOUR_MS;
const PURGE_CHUNK = 5000;

function safeJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A device's connection history (one row per connection, written by the gateway's presence
 * writer) and its availability: the share of the last 24 hours and 7 days it was connected. Read
 * through the device, so the caller's company and data rules apply as to every device read.
 * Connections that ended longer ago than the data retention period are deleted hourly.
 */
export class ConnectionService {
  constructor(
    private readonly repository: ConnectionRepository,
    private readonly devices: DeviceService,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** The retention of connection history, hourly on one node of the cluster. */
  scheduledJobs(): JobSpec[] {
    return [
      {
        name: 'device.connection-retention',
        everyMs: PURGE_INTERVAL_MS,
        firstRunMs: PURGE_FIRST_RUN_MS,
        scope: 'cluster',
        run: async (signal) => {
          const n = await this.purgeExpired(signal);
          if (n > 0) this.log.info({ connections: n }, 'expired connection history deleted');
        },
        onFailure: (err) => this.log.warn({ err }, 'connection history retention failed'),
      },
    ];
  }

  async list(scope: Scope, query: TDeviceConnectionQuery): Promise<Page<TDeviceConnection>> {
    const device = await this.devices.get(scope, query.deviceId);
    const now = this.clock();
    const { records, total } = await this.repository.page(scope.companyId, {
      ...query,
      deviceId: device.id,
    });
    return pageResult(
      records.map((r) => ({
        id: r.id,
        connectedAt: iso(r.connected_at),
        disconnectedAt: isoOrNull(r.disconnected_at),
        reason: r.reason,
        durationMs: Math.max(0, (r.disconnected_at ?? now) - r.connected_at),
        ip: r.ip,
        nodeId: r.node_id,
      })),
      total,
      query,
    );
  }

  async availability(scope: Scope, deviceId: string): Promise<TDeviceAvailability> {
    const device = await this.devices.get(scope, deviceId);
    const now = this.clock();
    const created = Date.parse(device.createTime);
    const window = async (ms: number): Promise<TAvailabilityWindow> => {
      const from = Math.min(now, Math.max(now - ms, created));
      const { onlineMs, connections } = await this.repository.connectedWithin(
        scope.companyId,
        device.id,
        from,
        now,
      );
      // A takeover overlaps the old and the new connection by a moment: never above the window.
      const online = Math.min(onlineMs, now - from);
      const percent = now > from ? Math.round((online / (now - from)) * 1000) / 10 : 0;
      return { from: iso(from), to: iso(now), onlineMs: online, percent, connections };
    };
    return { deviceId: device.id, day: await window(DAY_MS), week: await window(7 * DAY_MS) };
  }

  /**
   * Deletes connections that ended before the retention period, a chunk per statement, until
   * none is left or `signal` aborts (the server is closing).
   */
  async purgeExpired(signal?: AbortSignal): Promise<number> {
    const parsed = ZDataRetention.safeParse(safeJson(await this.repository.readRetention()));
    const days = parsed.success ? parsed.data.days : DATA_RETENTION_DEFAULT_DAYS;
    const cutoff = this.clock() - days * DAY_MS;
    let total = 0;
    for (;;) {
      const n = await this.repository.deleteEndedBefore(cutoff, PURGE_CHUNK);
      total += n;
      if (n < PURGE_CHUNK || signal?.aborted) return total;
      // Lets the presence writer and requests in between chunks (SQLite has one connection).
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
