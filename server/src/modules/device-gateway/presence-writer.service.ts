import { setImmediate as nextTurn } from 'node:timers/promises';
import type { TDeviceLive } from '@blrms/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../../platform/bus/bus.js';
import type { Clock } from '../../platform/clock.js';
import type { DeviceSessionTable } from '../../platform/db/schema.js';
import { expectedRestart } from '../device/expected-restart.rules.js';
import { isoOrNull } from '../../platform/http/paging.js';
import type {
  GatewayRepository,
  LiveRow,
  PresenceChange,
  SessionClose,
} from './gateway.repository.js';

export interface PresenceWriterOptions {
  /**
   * How long a device's change waits before it is written: changes of the same device in that
   * time are written as one, and changes of many devices together.
   */
  intervalMs: number;
  /** Changes per transaction; a larger backlog is written in several, back to back. */
  maxBatch: number;
  /**
   * Last-seen times per transaction. They are written only when no other change waits, and in
   * smaller transactions, so that a device going on- or offline waits at most for one of them.
   */
  seenBatch: number;
  /**
   * How long "last seen" times gather before they join a batch: a device's row is written at most
   * once per interval however often it sends, and the console is this far behind at most.
   */
  seenIntervalMs: number;
}

export const DEFAULT_PRESENCE_OPTIONS: PresenceWriterOptions = {
  intervalMs: 100,
  maxBatch: 2000,
  seenBatch: 500,
  seenIntervalMs: 3000,
};

const RETRY_MS = 1000;
/** Devices per `device.live` message. */
const LIVE_CHUNK = 500;

export function toDeviceLive(row: LiveRow, now: number): TDeviceLive {
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
    expectedRestart: expectedRestart(row, now),
  };
}

/** The later change wins column by column; a guard stays only when both changes had one. */
function merge(earlier: PresenceChange, later: PresenceChange): PresenceChange {
  const guard = earlier.guard && later.guard ? later.guard : undefined;
  const values = { ...earlier.values, ...later.values };
  // Last seen never goes back: a buffered time joins a batch after the changes it preceded.
  const seen = [earlier.values.last_seen_at, later.values.last_seen_at].filter(
    (t): t is number => typeof t === 'number',
  );
  if (seen.length > 0) values.last_seen_at = Math.max(...seen);
  return {
    deviceId: later.deviceId,
    companyId: later.companyId,
    values,
    ...(guard ? { guard } : {}),
  };
}

/**
 * Presence is written in batches: each device's change waits ~100 ms, coalesced with the changes
 * of the same device meanwhile (a connect and a disconnect make one row update, and so do a
 * connect and the status report a device sends right after its CONNACK), then changes go to the
 * database in one transaction with the connection history (sessions opened and closed), and the
 * rows as persisted go out on the bus (`device.live`, per company) to the consoles of every node.
 * A connect storm thus costs one row update per device and one commit per batch, and a device's
 * status reaches the console well within a second. The wait is per change, not per batch: a
 * batch taken as soon as the one before it was written would take the connects of devices that
 * had just been answered, and their status reports would follow in the next batch, a second
 * update of a row that on PostgreSQL rewrites every index of `device`. Nor is a batch taken as
 * soon as the one before it is written when that one was not full: a steady stream is written
 * once an interval, in batches large enough to share the index pages they rewrite. "Last seen"
 * times of uplinks gather longer (`seenIntervalMs`), one row update per device whatever it sent,
 * and are then written behind every other change: during a telemetry storm every device has one,
 * and a disconnect queued behind 19,000 of them waited seconds on a busy PostgreSQL.
 */
export class PresenceWriter {
  private pending = new Map<string, PresenceChange>();
  /** When each device's pending change was first queued (`performance.now()`). */
  private pendingSince = new Map<string, number>();
  /** Last-seen times due to be written, after everything in `pending`. */
  private seenDue = new Map<string, PresenceChange>();
  private opened = new Map<string, DeviceSessionTable>();
  private closing = new Map<string, SessionClose>();
  private seenPending = new Map<string, { companyId: string; at: number }>();
  private timer: NodeJS.Timeout | null = null;
  private seenTimer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  /** When the oldest session waiting to be written was queued (`performance.now()`). */
  private sessionsSince: number | null = null;
  /** When the last batch was taken: batches that are not full are an interval apart. */
  private drainedAt = -Infinity;
  private closed = false;

  constructor(
    private readonly repository: GatewayRepository,
    private readonly bus: Bus,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly options: PresenceWriterOptions = DEFAULT_PRESENCE_OPTIONS,
  ) {}

  write(change: PresenceChange): void {
    // A change that sets the time itself (connect, disconnect, status) supersedes a buffered one.
    if (change.values.last_seen_at !== undefined) {
      this.seenPending.delete(change.deviceId);
      this.seenDue.delete(change.deviceId);
    }
    this.queue(change);
    this.schedule(this.options.intervalMs);
  }

  /** Queues a change, merged into the one waiting for its device (which keeps its place). */
  private queue(change: PresenceChange): void {
    const earlier = this.pending.get(change.deviceId);
    this.pending.set(change.deviceId, earlier ? merge(earlier, change) : change);
    if (!earlier) this.pendingSince.set(change.deviceId, performance.now());
  }

  /** How far behind a device's last-seen time may be shown (see `seenIntervalMs`). */
  get seenIntervalMs(): number {
    return this.options.seenIntervalMs;
  }

  /** A message from the device: its last-seen time joins the next batch after the interval. */
  seen(deviceId: string, companyId: string, at: number): void {
    this.seenPending.set(deviceId, { companyId, at });
    if (this.seenTimer || this.closed) return;
    this.seenTimer = setTimeout(() => {
      this.seenTimer = null;
      this.moveSeen();
    }, this.options.seenIntervalMs);
  }

  /** A connection began: its session row is written with the batch. */
  sessionOpened(session: DeviceSessionTable): void {
    this.opened.set(session.id, session);
    this.sessionsSince ??= performance.now();
    this.schedule(this.options.intervalMs);
  }

  /** A connection ended: its session is closed (in the same row, when not written yet). */
  sessionClosed(close: SessionClose): void {
    const unwritten = this.opened.get(close.id);
    if (unwritten) {
      unwritten.disconnected_at = close.disconnectedAt;
      unwritten.reason = close.reason;
    } else {
      this.closing.set(close.id, close);
      this.sessionsSince ??= performance.now();
    }
    this.schedule(this.options.intervalMs);
  }

  /** Writes everything pending now, buffered last-seen times too (and waits for a write). */
  async flush(): Promise<void> {
    if (this.seenTimer) clearTimeout(this.seenTimer);
    this.seenTimer = null;
    this.moveSeen();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.running) await this.running;
    if (this.hasPending()) await this.run(true);
  }

  /** Writes what is pending and stops. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }

  private hasPending(): boolean {
    return this.hasChanges() || this.seenDue.size > 0;
  }

  /** Whether anything but last-seen times waits. */
  private hasChanges(): boolean {
    return this.pending.size > 0 || this.opened.size > 0 || this.closing.size > 0;
  }

  private moveSeen(): void {
    const seen = this.seenPending;
    this.seenPending = new Map();
    for (const [deviceId, { companyId, at }] of seen) {
      this.queueSeen({ deviceId, companyId, values: { last_seen_at: at } });
    }
    if (this.seenDue.size > 0) this.schedule(this.options.intervalMs);
  }

  /**
   * A last-seen time joins the ones due; for a device with a change waiting, it goes into that
   * change instead (the later time wins, and the change keeps its guard).
   */
  private queueSeen(change: PresenceChange): void {
    const { deviceId } = change;
    const at = change.values.last_seen_at ?? 0;
    const waiting = this.pending.get(deviceId);
    if (waiting) {
      const seenAt = Math.max(waiting.values.last_seen_at ?? 0, at);
      this.pending.set(deviceId, {
        ...waiting,
        values: { ...waiting.values, last_seen_at: seenAt },
      });
      return;
    }
    const due = this.seenDue.get(deviceId);
    this.seenDue.set(deviceId, due ? merge(due, change) : change);
  }

  /** Sends rows changed outside the writer (bulk updates) to the consoles. */
  async publish(rows: LiveRow[]): Promise<void> {
    const now = this.clock();
    const byCompany = new Map<string, TDeviceLive[]>();
    for (const row of rows) {
      const list = byCompany.get(row.company_id) ?? [];
      list.push(toDeviceLive(row, now));
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

  /** Writes what is due; with `all`, changes that have not waited their interval too. */
  private run(all = false): Promise<void> {
    this.running = this.drain(all).finally(() => (this.running = null));
    return this.running;
  }

  /**
   * Pending changes queued at or before `cutoff`, up to `max`, oldest first (a change put back
   * after a failed write may stand behind younger ones and waits for them: a write later).
   */
  private takeDue(cutoff: number, max: number): PresenceChange[] {
    const taken: PresenceChange[] = [];
    for (const [deviceId, change] of this.pending) {
      if (taken.length >= max || (this.pendingSince.get(deviceId) ?? 0) > cutoff) break;
      taken.push(change);
      this.pending.delete(deviceId);
      this.pendingSince.delete(deviceId);
    }
    return taken;
  }

  private async drain(all: boolean): Promise<void> {
    for (;;) {
      this.drainedAt = performance.now();
      // A timer may fire up to a millisecond early.
      const cutoff = all ? Infinity : this.drainedAt - this.options.intervalMs + 1;
      const [first] = this.pendingSince.values();
      const changesDue = first !== undefined && first <= cutoff;
      const sessionsDue = this.sessionsSince !== null && this.sessionsSince <= cutoff;
      const urgent = changesDue || sessionsDue;
      if (!urgent && this.seenDue.size === 0) break;
      const batch = urgent
        ? this.takeDue(cutoff, this.options.maxBatch)
        : take(this.seenDue, this.options.seenBatch);
      // Sessions are opened before they are closed: a close in this batch may be of an opening
      // in an earlier one, never of a later one.
      const opened = take(this.opened, this.options.maxBatch);
      const closed = take(this.closing, this.options.maxBatch);
      const sessionsLeft = this.opened.size > 0 || this.closing.size > 0;
      this.sessionsSince = sessionsLeft ? this.sessionsSince : null;
      let rows: LiveRow[];
      try {
        rows = await this.repository.applyPresence(batch, { opened, closed });
      } catch (error) {
        this.log.error({ err: error, devices: batch.length }, 'presence not written; retrying');
        for (const change of batch) {
          if (!urgent) {
            this.queueSeen(change);
            continue;
          }
          const later = this.pending.get(change.deviceId);
          this.pending.set(change.deviceId, later ? merge(change, later) : change);
          if (!later) this.pendingSince.set(change.deviceId, 0);
        }
        for (const close of closed) this.closing.set(close.id, close);
        for (const session of opened) {
          // A close that came meanwhile goes into the row: the two may land in different batches.
          const close = this.closing.get(session.id);
          if (close) {
            this.closing.delete(session.id);
            session.disconnected_at = close.disconnectedAt;
            session.reason = close.reason;
          }
          this.opened.set(session.id, session);
        }
        if (opened.length > 0 || closed.length > 0) this.sessionsSince = 0;
        if (this.timer) clearTimeout(this.timer);
        this.timer = null;
        this.schedule(RETRY_MS);
        return;
      }
      await this.publish(rows);
      if (!this.hasPending()) break;
      // What came due while this batch was written waits for the next interval, unless the batch
      // was full (a backlog): written at once, a steady stream of connects went out in a batch
      // per turn of the event loop, each as small as what arrived during the one before, and
      // every batch rewrote the same index pages (bench/README.md, "Fewer, larger batches of
      // presence and lookups").
      const full = batch.length >= this.options.maxBatch || sessionsLeft;
      if (urgent && !full && !all) break;
      // The next batch after the event loop's next turn: on SQLite a batch never waits for I/O,
      // and a backlog of last-seen times written back to back held up everything else.
      await nextTurn();
    }
    if (!this.hasPending()) return;
    const [first] = this.pendingSince.values();
    const oldest = Math.min(first ?? Infinity, this.sessionsSince ?? Infinity);
    const due = this.seenDue.size > 0 ? -Infinity : oldest;
    const at = Math.max(due, this.drainedAt) + this.options.intervalMs;
    this.schedule(Math.max(1, at - performance.now()));
  }
}

/** Removes and returns up to `max` entries, oldest first. */
function take<T>(map: Map<string, T>, max: number): T[] {
  const taken: T[] = [];
  for (const [key, value] of map) {
    if (taken.length >= max) break;
    taken.push(value);
    map.delete(key);
  }
  return taken;
}
