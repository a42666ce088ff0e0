import type { TDeviceLive } from '@blrms/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../../platform/bus/bus.js';
import { isoOrNull } from '../device/paging.js';
import type { GatewayRepository, LiveRow, PresenceChange } from './gateway.repository.js';

export interface PresenceWriterOptions {
  /** How long changes gather before they are written together. */
  intervalMs: number;
  /** Changes per transaction; a larger backlog is written in several, back to back. */
  maxBatch: number;
}

export const DEFAULT_PRESENCE_OPTIONS: PresenceWriterOptions = { intervalMs: 100, maxBatch: 2000 };

const RETRY_MS = 1000;
/** Devices per `device.live` message. */
const LIVE_CHUNK = 500;

export function toDeviceLive(row: LiveRow): TDeviceLive {
  return {
    id: row.id,
    sn: row.sn,
    groupId: row.group_id,
    status: row.status === 'online' ? 'online' : 'offline',
    ip: row.ip,
    series: row.series,
    model: row.model,
    version: row.version,
    lastSeenAt: isoOrNull(row.last_seen_at),
    lastConnectAt: isoOrNull(row.last_connect_at),
    lastDisconnectAt: isoOrNull(row.last_disconnect_at),
    disconnectReason: row.disconnect_reason,
  };
}

/** The later change wins column by column; a guard stays only when both changes had one. */
function merge(earlier: PresenceChange, later: PresenceChange): PresenceChange {
  const guard = earlier.guard && later.guard ? later.guard : undefined;
  return {
    deviceId: later.deviceId,
    companyId: later.companyId,
    values: { ...earlier.values, ...later.values },
    ...(guard ? { guard } : {}),
  };
}

/**
 * Presence is written in batches: changes gather for ~100 ms, coalesced per device (a connect and
 * a disconnect in the same window make one row update), then go to the database in one
 * transaction, and the rows as persisted go out on the bus (`device.live`, per company) to the
 * consoles of every node. A connect storm thus costs one statement per device and one commit per
 * batch, and a device's status reaches the console well within a second.
 */
export class PresenceWriter {
  private pending = new Map<string, PresenceChange>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly repository: GatewayRepository,
    private readonly bus: Bus,
    private readonly log: FastifyBaseLogger,
    private readonly options: PresenceWriterOptions = DEFAULT_PRESENCE_OPTIONS,
  ) {}

  write(change: PresenceChange): void {
    const earlier = this.pending.get(change.deviceId);
    this.pending.set(change.deviceId, earlier ? merge(earlier, change) : change);
    this.schedule(this.options.intervalMs);
  }

  /** Writes everything pending now (and waits for a write in progress). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.running) await this.running;
    if (this.pending.size > 0) await this.run();
  }

  /** Writes what is pending and stops. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }

  /** Sends rows changed outside the writer (bulk updates) to the consoles. */
  async publish(rows: LiveRow[]): Promise<void> {
    const byCompany = new Map<string, TDeviceLive[]>();
    for (const row of rows) {
      const list = byCompany.get(row.company_id) ?? [];
      list.push(toDeviceLive(row));
      byCompany.set(row.company_id, list);
    }
    for (const [companyId, devices] of byCompany) {
      for (let i = 0; i < devices.length; i += LIVE_CHUNK) {
        try {
          await this.bus.publish('device.live', {
            companyId,
            devices: devices.slice(i, i + LIVE_CHUNK),
          });
        } catch (error) {
          this.log.warn({ err: error }, 'device.live not published');
        }
      }
    }
  }

  private schedule(delayMs: number): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.running) void this.run();
    }, delayMs);
  }

  private run(): Promise<void> {
    this.running = this.drain().finally(() => (this.running = null));
    return this.running;
  }

  private async drain(): Promise<void> {
    while (this.pending.size > 0) {
      const batch: PresenceChange[] = [];
      for (const [deviceId, change] of this.pending) {
        batch.push(change);
        this.pending.delete(deviceId);
        if (batch.length >= this.options.maxBatch) break;
      }
      let rows: LiveRow[];
      try {
        rows = await this.repository.applyPresence(batch);
      } catch (error) {
        this.log.error({ err: error, devices: batch.length }, 'presence not written; retrying');
        for (const change of batch) {
          const later = this.pending.get(change.deviceId);
          this.pending.set(change.deviceId, later ? merge(change, later) : change);
        }
        this.schedule(RETRY_MS);
        return;
      }
      await this.publish(rows);
    }
  }
}
