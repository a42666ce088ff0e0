import {
  DATA_RETENTION_DEFAULT_DAYS,
  TELEMETRY_HISTORY_MAX_POINTS,
  ZDataRetention,
  type TDataRetention,
  type TDeviceEvent,
  type TDeviceEventQuery,
  type TDeviceTelemetryHistory,
  type TDeviceTelemetryHistoryQuery,
  type TDeviceTelemetryLatest,
  type TEventLevel,
  type TTelemetryPayload,
  type TTelemetryValues,
} from '@blrms/contracts';
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import type { PermissionService } from '../../platform/auth/permissions.js';
import type { Scope } from '../../platform/auth/scope.js';
import type { Session } from '../../platform/auth/sessions.js';
import type { Bus } from '../../platform/bus/bus.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/db/ids.js';
import type { DeviceEventTable } from '../../platform/db/schema.js';
import { AppError, forbidden } from '../../platform/http/app-error.js';
import type { FleetCompany } from '../../platform/ws/socket-hub.js';
import type { DeviceService } from '../device/device.service.js';
import type { DeviceEventInput, DeviceRef } from '../device-gateway/uplink-sink.js';
import { iso, pageResult, type Page } from '../device/paging.js';
import {
  mergeLatest,
  type DeviceDataRepository,
  type LatestValues,
  type TelemetrySample,
} from './device-data.repository.js';

/** Buffered rows are written every FLUSH_INTERVAL_MS, or at once when FLUSH_ROWS are waiting. */
const FLUSH_INTERVAL_MS = 200;
const FLUSH_ROWS = 2000;
/** Rows (samples and events) per transaction. */
const BATCH_ROWS = 5000;
/**
 * Rows waiting for the database, at most: about five seconds of a 20,000 messages/s stream. When
 * the database falls further behind, new rows are dropped (counted, and logged every
 * DROP_LOG_INTERVAL_MS) rather than held in memory until the process runs out of it.
 */
const PENDING_MAX = 100_000;
const DROP_LOG_INTERVAL_MS = 10_000;
/** Keys kept in a device's latest values (a message carries at most 64). */
const LATEST_KEYS_MAX = 256;
/**
 * Latest values are written at most this often (each device's newest values of the period in one
 * row update), not with every batch: a row update costs about as much as a sample's insert, so a
 * device reporting every 2.5 s costs one update per four messages instead of one per message.
 * This node's `latest` reads add what is not written yet, so they are current; another node's
 * reads may be this much behind (consoles get new values over the websocket anyway), and a crash
 * loses this much of them until the devices report again (the samples are kept).
 */
const LATEST_INTERVAL_MS = 10_000;
/** How long messages of a deleted device are still dropped (the gateway closes its connection). */
const DELETED_GRACE_MS = 60_000;
/** Devices per transaction of latest values: short transactions, short row locks. */
const LATEST_BATCH = 2000;

const DAY_MS = 24 * 60 * 60 * 1000;
/** The retention job runs this long after start, then every RETENTION_INTERVAL_MS. */
const RETENTION_FIRST_RUN_MS = 30_000;
const RETENTION_INTERVAL_MS = 60 * 60 * 1000;
/** Rows per DELETE statement: short statements, so a large purge never holds a long lock. */
const PURGE_CHUNK = 5000;

const DEVICE_LIST = 'device:list';

/** Column sizes of `device_event` (the gateway's own events are not length-checked by a schema). */
const EVENT_CODE_MAX = 64;
const EVENT_MESSAGE_MAX = 1024;

/** Latest time a JavaScript date (and so the API's ISO strings) can show. */
const TIME_MAX = 8.64e15;

/**
 * A device's own time when it is one (a clock gone wild would otherwise fail the batch it is in,
 * in PostgreSQL's bigint or in the API's dates); the time of arrival otherwise.
 */
function timeOf(ts: number | undefined, receivedAt: number): number {
  return ts !== undefined && Number.isSafeInteger(ts) && ts >= 0 && ts <= TIME_MAX
    ? ts
    : receivedAt;
}

/** Cuts to `max` UTF-16 units without leaving half a surrogate pair (PostgreSQL refuses one). */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return text.slice(0, end);
}

interface PendingSample {
  device: DeviceRef;
  ts: number;
  receivedAt: number;
  values: TTelemetryValues;
}

interface PendingEvent {
  device: DeviceRef;
  row: DeviceEventTable;
}

function sampleRow(s: PendingSample): TelemetrySample {
  return { device_id: s.device.id, ts: s.ts, received_at: s.receivedAt, values: s.values };
}

/**
 * `iso()` for the bus messages of every sample: Date formatting costs microseconds, and the
 * samples of a batch mostly share their second, so the second's text is made once.
 */
let isoSecond = Number.NaN;
let isoPrefix = '';
function isoFast(time: number): string {
  const second = Math.floor(time / 1000);
  if (second !== isoSecond) {
    isoSecond = second;
    isoPrefix = new Date(second * 1000).toISOString().slice(0, -5);
  }
  return `${isoPrefix}.${String(time - second * 1000).padStart(3, '0')}Z`;
}

function toEvent(row: DeviceEventTable): TDeviceEvent {
  return {
    id: row.id,
    deviceId: row.device_id,
    sn: row.sn,
    ts: iso(row.ts),
    level: row.level as TEventLevel,
    code: row.code,
    message: row.message,
    source: row.source as TDeviceEvent['source'],
    receivedAt: iso(row.received_at),
  };
}

function safeJson(text: string | undefined): unknown {
  try {
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

function scopeOf(session: Session, companyId: string): Scope {
  return {
    userId: session.userId,
    username: session.username,
    companyId,
    orgCode: session.orgCode,
    sessionId: session.sessionId,
  };
}

/**
 * Telemetry and events of devices. The MQTT gateway records them from its hot path without
 * waiting: rows are buffered and written in batches (one transaction per batch), then announced on
 * the bus (`device.telemetry`, `device.event`) for the console sockets watching those devices.
 * Readers go through DeviceService, so a device outside the caller's company or data rules is
 * "not found" here too. Rows older than the retention period are deleted by an hourly job.
 */
export class DeviceDataService {
  private pendingSamples: PendingSample[] = [];
  private pendingEvents: PendingEvent[] = [];
  /** Per device, the newest value of each key reported since the latest values were written. */
  private pendingLatest = new Map<string, LatestValues>();
  /** Latest values being written: readers still see them until the write commits. */
  private latestInFlight = new Map<string, LatestValues>();
  private lastLatestWrite = performance.now();
  /** flush() asked for the latest values to be written now, not when they are due. */
  private latestForced = false;
  /**
   * What flush waits for: rows ever queued, and rows taken out of the queue and written (or given
   * up); writes of latest values started, and finished (or given up).
   */
  private queued = 0;
  private taken = 0;
  private latestTaken = 0;
  private latestDone = 0;
  /**
   * Two writers, each one write at a time: samples and events in the order they were recorded,
   * and latest values. They run side by side, so that PostgreSQL works on one while the other is
   * being prepared.
   */
  private writingRows: Promise<void> | null = null;
  private writingLatest: Promise<void> | null = null;
  private closed = false;
  private readonly flushTimer: NodeJS.Timeout;
  private retentionTimer: NodeJS.Timeout | undefined;
  private purging: Promise<unknown> | null = null;
  private droppedTotal = 0;
  private droppedSinceLog = 0;
  private lastDropLog = -Infinity;
  private lastLatestFailureLog = -Infinity;
  /** Devices deleted lately, until when their messages still in flight are dropped. */
  private readonly deleted = new Map<string, number>();

  constructor(
    private readonly repository: DeviceDataRepository,
    private readonly devices: DeviceService,
    private readonly permissions: PermissionService,
    private readonly bus: Bus,
    private readonly log: FastifyBaseLogger,
    private readonly clock: Clock,
  ) {
    this.flushTimer = setInterval(() => this.startWriting(), FLUSH_INTERVAL_MS);
    this.flushTimer.unref();
    this.scheduleRetention(RETENTION_FIRST_RUN_MS);
    bus.subscribe('device.kick', ({ deviceIds, reason }) => {
      if (reason === 'device-deleted' && deviceIds && deviceIds.length > 0) {
        void this.forget(deviceIds).catch((err: unknown) =>
          this.log.warn({ err }, 'telemetry of deleted devices could not be removed'),
        );
      }
    });
  }

  /** Rows dropped because the database fell behind or a batch could not be written. */
  get dropped(): number {
    return this.droppedTotal;
  }

  // ---------------------------------------------------------------- ingest (MQTT hot path)

  recordTelemetry(device: DeviceRef, payload: TTelemetryPayload, receivedAt: number): void {
    if (!this.admit(device.id)) return;
    const ts = timeOf(payload.ts, receivedAt);
    this.pendingSamples.push({ device, ts, receivedAt, values: payload.values });
    this.noteLatest(device.id, payload.values, ts);
    this.queuedRow();
  }

  recordEvent(device: DeviceRef, event: DeviceEventInput, receivedAt: number): void {
    if (!this.admit(device.id)) return;
    this.pendingEvents.push({
      device,
      row: {
        id: newId(),
        company_id: device.companyId,
        device_id: device.id,
        sn: device.sn,
        ts: timeOf(event.ts, receivedAt),
        level: event.level,
        code: cut(event.code, EVENT_CODE_MAX),
        message: cut(event.message, EVENT_MESSAGE_MAX),
        source: event.source,
        received_at: receivedAt,
      },
    });
    this.queuedRow();
  }

  /**
   * Resolves when every row recorded before the call, and the latest values, are written (or
   * given up) and announced.
   */
  async flush(): Promise<void> {
    const rows = this.queued;
    let latest = this.latestTaken;
    if (this.pendingLatest.size > 0) {
      this.latestForced = true;
      latest += 1;
    }
    while (this.taken < rows || this.latestDone < latest) {
      this.startWriting();
      await Promise.all([this.writingRows, this.writingLatest]);
    }
  }

  /** Writes what is buffered and stops the timers; rows recorded afterwards are dropped. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.flushTimer);
    clearTimeout(this.retentionTimer);
    await this.flush();
    await this.purging;
  }

  private pendingRows() {
    return this.pendingSamples.length + this.pendingEvents.length;
  }

  private admit(deviceId: string): boolean {
    if (this.closed) return false;
    if (this.deleted.size > 0 && (this.deleted.get(deviceId) ?? 0) > performance.now())
      return false;
    if (this.pendingRows() < PENDING_MAX) return true;
    this.drop(1, 'device data buffer full (the database is falling behind): rows dropped');
    return false;
  }

  private drop(rows: number, message: string, err?: unknown) {
    this.droppedTotal += rows;
    this.droppedSinceLog += rows;
    const now = performance.now();
    if (now - this.lastDropLog >= DROP_LOG_INTERVAL_MS) {
      this.log.warn(
        { err, dropped: this.droppedSinceLog, droppedTotal: this.droppedTotal },
        message,
      );
      this.lastDropLog = now;
      this.droppedSinceLog = 0;
    }
  }

  private noteLatest(deviceId: string, values: TTelemetryValues, ts: number) {
    let latest = this.pendingLatest.get(deviceId);
    if (!latest) this.pendingLatest.set(deviceId, (latest = {}));
    let added = false;
    for (const [key, value] of Object.entries(values)) {
      const current = latest[key];
      if (!current) added = true;
      if (!current || current[1] <= ts) latest[key] = [value, ts];
    }
    if (added && Object.keys(latest).length > LATEST_KEYS_MAX) {
      this.pendingLatest.set(deviceId, mergeLatest(undefined, latest, LATEST_KEYS_MAX));
    }
  }

  private queuedRow() {
    this.queued += 1;
    if (this.pendingRows() >= FLUSH_ROWS) this.startWriting();
  }

  private latestDue() {
    return (
      this.pendingLatest.size > 0 &&
      (this.latestForced || performance.now() - this.lastLatestWrite >= LATEST_INTERVAL_MS)
    );
  }

  private startWriting() {
    if (!this.writingRows && this.pendingRows() > 0) {
      this.writingRows = this.drainRows().finally(() => {
        this.writingRows = null;
      });
    }
    if (!this.writingLatest && this.latestDue()) {
      this.writingLatest = this.writeLatest().finally(() => {
        this.writingLatest = null;
      });
    }
  }

  private async drainRows() {
    do {
      await this.writeRows();
    } while (this.pendingRows() >= FLUSH_ROWS);
  }

  private takeRows() {
    const takeSamples = Math.min(this.pendingSamples.length, BATCH_ROWS);
    const samples = this.pendingSamples.slice(0, takeSamples);
    this.pendingSamples =
      takeSamples === this.pendingSamples.length ? [] : this.pendingSamples.slice(takeSamples);
    const takeEvents = Math.min(this.pendingEvents.length, BATCH_ROWS - takeSamples);
    const events = this.pendingEvents.slice(0, takeEvents);
    this.pendingEvents =
      takeEvents === this.pendingEvents.length ? [] : this.pendingEvents.slice(takeEvents);
    return { samples, events };
  }

  private async writeRows() {
    let { samples, events } = this.takeRows();
    const rows = samples.length + events.length;
    try {
      try {
        await this.repository.writeRows(
          samples.map(sampleRow),
          events.map((e) => e.row),
        );
      } catch (err) {
        // Most likely an event of a device deleted since it was recorded: its foreign key fails
        // the whole statement. Once more without the devices that are gone; anything else fails
        // again and is given up below.
        this.log.debug({ err }, 'device data batch failed, retrying without deleted devices');
        const existing = await this.repository.existingDeviceIds([
          ...new Set([...samples.map((s) => s.device.id), ...events.map((e) => e.device.id)]),
        ]);
        samples = samples.filter((s) => existing.has(s.device.id));
        events = events.filter((e) => existing.has(e.device.id));
        await this.repository.writeRows(
          samples.map(sampleRow),
          events.map((e) => e.row),
        );
      }
      this.announce(samples, events);
    } catch (err) {
      this.drop(rows, 'device data batch could not be written', err);
    } finally {
      this.taken += rows;
    }
  }

  /**
   * A device was deleted (its rows went with it): what is still buffered for it is dropped, and
   * so is what arrives for it during DELETED_GRACE_MS; samples that a write in flight inserted
   * after the delete are removed once that write ends. Every node hears the deletion.
   */
  private async forget(deviceIds: string[]) {
    const now = performance.now();
    for (const [id, until] of this.deleted) if (until <= now) this.deleted.delete(id);
    const gone = new Set(deviceIds);
    for (const id of gone) this.deleted.set(id, now + DELETED_GRACE_MS);
    const before = this.pendingRows();
    this.pendingSamples = this.pendingSamples.filter((s) => !gone.has(s.device.id));
    this.pendingEvents = this.pendingEvents.filter((e) => !gone.has(e.device.id));
    this.taken += before - this.pendingRows();
    for (const id of gone) this.pendingLatest.delete(id);
    await this.writingRows;
    await this.repository.deleteSamplesOf(deviceIds);
  }

  /** Every device's newest values since the last time, a transaction per LATEST_BATCH devices. */
  private async writeLatest() {
    const latest = this.pendingLatest;
    this.pendingLatest = new Map();
    this.latestInFlight = latest;
    this.lastLatestWrite = performance.now();
    this.latestForced = false;
    this.latestTaken += 1;
    try {
      const entries = [...latest];
      for (let i = 0; i < entries.length; i += LATEST_BATCH) {
        const part = new Map(entries.slice(i, i + LATEST_BATCH));
        try {
          await this.repository.writeLatest(part, this.clock(), LATEST_KEYS_MAX);
        } catch (err) {
          // Most likely a device deleted meanwhile: its foreign key fails the whole statement.
          this.log.debug(
            { err },
            'latest telemetry values failed, retrying without deleted devices',
          );
          const existing = await this.repository.existingDeviceIds([...part.keys()]);
          for (const id of part.keys()) if (!existing.has(id)) part.delete(id);
          await this.repository.writeLatest(part, this.clock(), LATEST_KEYS_MAX);
        }
      }
    } catch (err) {
      // Lost until each device reports again; the samples themselves are stored.
      const now = performance.now();
      if (now - this.lastLatestFailureLog >= DROP_LOG_INTERVAL_MS) {
        this.log.warn({ err }, 'latest telemetry values could not be written');
        this.lastLatestFailureLog = now;
      }
    } finally {
      this.latestInFlight = new Map();
      this.latestDone += 1;
    }
  }

  /**
   * One bus message per sample and per event. Every one is published, watched or not: with Redis
   * the sockets watching a device may be on any node, and the in-process bus drops unwatched ones
   * with one map lookup in the socket hub.
   */
  private announce(samples: PendingSample[], events: PendingEvent[]) {
    const failed = (err: unknown) => this.log.warn({ err }, 'device data announcement failed');
    for (const s of samples) {
      this.bus
        .publish('device.telemetry', {
          companyId: s.device.companyId,
          deviceId: s.device.id,
          point: { ts: isoFast(s.ts), values: s.values },
        })
        .catch(failed);
    }
    for (const e of events) {
      this.bus
        .publish('device.event', { companyId: e.device.companyId, event: toEvent(e.row) })
        .catch(failed);
    }
  }

  // ---------------------------------------------------------------- reading (API)

  /** Stored values, with what this node has received and not yet written on top. */
  async latest(scope: Scope, deviceId: string): Promise<TDeviceTelemetryLatest> {
    await this.devices.get(scope, deviceId);
    let values = await this.repository.latest(deviceId);
    for (const unwritten of [this.latestInFlight.get(deviceId), this.pendingLatest.get(deviceId)]) {
      if (unwritten) values = mergeLatest(values, unwritten, LATEST_KEYS_MAX);
    }
    return {
      deviceId,
      values: Object.entries(values)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, [value, ts]]) => ({ key, value, ts: iso(ts) })),
    };
  }

  async history(
    scope: Scope,
    query: TDeviceTelemetryHistoryQuery,
  ): Promise<TDeviceTelemetryHistory> {
    await this.devices.get(scope, query.deviceId);
    const end = query.end ? Date.parse(query.end) : this.clock();
    const begin = query.begin ? Date.parse(query.begin) : end - DAY_MS;
    if (begin > end) throw new AppError('deviceDataRangeInvalid', 400);
    const rows = await this.repository.history(
      query.deviceId,
      begin,
      end,
      TELEMETRY_HISTORY_MAX_POINTS + 1,
    );
    const truncated = rows.length > TELEMETRY_HISTORY_MAX_POINTS;
    const points = rows
      .slice(0, TELEMETRY_HISTORY_MAX_POINTS)
      .reverse()
      .map((r) => ({ ts: iso(r.ts), values: JSON.parse(r.values_json) as TTelemetryValues }));
    return { deviceId: query.deviceId, points, truncated };
  }

  async events(scope: Scope, query: TDeviceEventQuery): Promise<Page<TDeviceEvent>> {
    await this.devices.get(scope, query.deviceId);
    const from = query.begin ? Date.parse(query.begin) : undefined;
    const to = query.end ? Date.parse(query.end) : undefined;
    if (from !== undefined && to !== undefined && from > to) {
      throw new AppError('deviceDataRangeInvalid', 400);
    }
    const { records, total } = await this.repository.eventPage(
      scope.companyId,
      { deviceId: query.deviceId, level: query.level, from, to },
      query,
    );
    return pageResult(records.map(toEvent), total, query);
  }

  // ---------------------------------------------------------------- console sockets

  /** Companies of the session in which the user holds `device:list`. */
  private async deviceListCompanies(session: Session): Promise<string[]> {
    const allowed = await Promise.all(
      session.companyIds.map((c) => this.permissions.has(session.userId, c, DEVICE_LIST)),
    );
    return session.companyIds.filter((_, i) => allowed[i]);
  }

  /**
   * Companies of the session in which the user may watch the fleet's status (`device:list`), each
   * with whether their data rules narrow it: then every status change is filtered for them
   * ({@link visibleDevices}), as the device list would be.
   */
  async fleetCompanies(session: Session): Promise<FleetCompany[]> {
    const companies = await this.deviceListCompanies(session);
    const narrowed = await Promise.all(
      companies.map((c) => this.devices.hasDataRules(scopeOf(session, c))),
    );
    return companies.map((companyId, i) => ({ companyId, narrowed: narrowed[i] === true }));
  }

  /** Of these devices of the company, those the user's device list shows (data rules included). */
  visibleDevices(session: Session, companyId: string, deviceIds: string[]): Promise<string[]> {
    return this.devices.visibleIds(scopeOf(session, companyId), deviceIds);
  }

  /**
   * Whether the user may watch this device: it is visible to them as the detail page would show
   * it (company, `device:list`, data rules) in one of the session's companies. Forbidden without
   * `device:list` anywhere; not found when no company of theirs shows it.
   */
  async deviceAccess(
    session: Session,
    deviceId: string,
  ): Promise<'allowed' | 'forbidden' | 'not-found'> {
    const companies = await this.deviceListCompanies(session);
    if (companies.length === 0) return 'forbidden';
    for (const companyId of companies) {
      try {
        await this.devices.get(scopeOf(session, companyId), deviceId);
        return 'allowed';
      } catch (err) {
        if (!(err instanceof AppError && err.httpStatus === 404)) throw err;
      }
    }
    return 'not-found';
  }

  // ---------------------------------------------------------------- retention

  /** Platform-wide, so platform administrators only, whoever else holds the permission code. */
  async viewRetention(scope: Scope): Promise<TDataRetention> {
    await this.requirePlatformAdmin(scope);
    return this.retention();
  }

  async setRetention(scope: Scope, input: TDataRetention): Promise<TDataRetention> {
    await this.requirePlatformAdmin(scope);
    await this.repository.writeRetention(JSON.stringify(input), this.clock());
    return this.retention();
  }

  private async requirePlatformAdmin(scope: Scope) {
    const grants = await this.permissions.grantsIn(scope);
    if (!grants.platformAdmin) throw forbidden('adminPlatformOnly');
  }

  private async retention(): Promise<TDataRetention> {
    const raw = await this.repository.readRetention();
    const parsed = ZDataRetention.safeParse(safeJson(raw));
    return parsed.success ? parsed.data : { days: DATA_RETENTION_DEFAULT_DAYS };
  }

  /**
   * Deletes samples and events received longer ago than the retention period, a chunk per
   * statement. Several nodes may run it at once: the deletes are idempotent.
   */
  async purgeExpired(): Promise<{ samples: number; events: number }> {
    const cutoff = this.clock() - (await this.retention()).days * DAY_MS;
    const purge = async (chunk: (cutoff: number, limit: number) => Promise<number>) => {
      let total = 0;
      for (;;) {
        const n = await chunk(cutoff, PURGE_CHUNK);
        total += n;
        if (n < PURGE_CHUNK || this.closed) return total;
        // Lets the ingest writer and requests in between chunks (SQLite has one connection).
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const samples = await purge((c, l) => this.repository.deleteSamplesReceivedBefore(c, l));
    const events = await purge((c, l) => this.repository.deleteEventsReceivedBefore(c, l));
    return { samples, events };
  }

  private scheduleRetention(delay: number) {
    this.retentionTimer = setTimeout(() => {
      this.purging = this.purgeExpired()
        .then(({ samples, events }) => {
          if (samples + events > 0)
            this.log.info({ samples, events }, 'expired telemetry and events deleted');
        })
        .catch((err: unknown) => this.log.warn({ err }, 'telemetry retention run failed'))
        .finally(() => {
          this.purging = null;
          if (!this.closed) this.scheduleRetention(RETENTION_INTERVAL_MS);
        });
    }, delay);
    this.retentionTimer.unref();
  }
}
