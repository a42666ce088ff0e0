import type {
  TDeviceEvent,
  TEventLevel,
  TTelemetryPayload,
  TTelemetryValues,
} from '@blrms/contracts';
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../../platform/bus/bus.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/db/ids.js';
import type { DeviceEventTable } from '../../platform/db/schema.js';
import type { DeviceEventInput, DeviceRef } from '../device-gateway/uplink-sink.service.js';
import { iso } from '../../platform/http/paging.js';
import type { JobSpec } from '../../platform/scheduler/scheduler.js';
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

/** An event row as the API and the console sockets show it. */
export function toEvent(row: DeviceEventTable): TDeviceEvent {
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

/**
 * Telemetry and events of devices as they arrive. The MQTT gateway records them from its hot path
 * without waiting: rows are buffered and written in batches (one transaction per batch), then
 * announced on the bus (`device.telemetry`, `device.event`) for the console sockets watching
 * those devices. Each device's latest values are written apart, at most every LATEST_INTERVAL_MS.
 */
export class DeviceDataWriter {
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
  private droppedTotal = 0;
  private droppedSinceLog = 0;
  private lastDropLog = -Infinity;
  private lastLatestFailureLog = -Infinity;
  /** Devices deleted lately, until when their messages still in flight are dropped. */
  private readonly deleted = new Map<string, number>();

  constructor(
    private readonly repository: DeviceDataRepository,
    private readonly bus: Bus,
    private readonly log: FastifyBaseLogger,
    private readonly clock: Clock,
  ) {
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

  /** The buffer's writes on this node, every FLUSH_INTERVAL_MS. */
  scheduledJobs(): JobSpec[] {
    return [
      {
        name: 'device-data.write',
        everyMs: FLUSH_INTERVAL_MS,
        scope: 'node',
        run: async () => this.startWriting(),
      },
    ];
  }

  /** Writes what is buffered; rows recorded afterwards are dropped. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  /** The device's stored latest values with what this node has received and not yet written on top. */
  withUnwritten(deviceId: string, stored: LatestValues): LatestValues {
    let values = stored;
    for (const unwritten of [this.latestInFlight.get(deviceId), this.pendingLatest.get(deviceId)]) {
      if (unwritten) values = mergeLatest(values, unwritten, LATEST_KEYS_MAX);
    }
    return values;
  }

  /**
   * Starts writing the buffered rows, and the latest values when they are due, unless a write of
   * each is under way (every FLUSH_INTERVAL_MS, and at once when FLUSH_ROWS rows are waiting).
   */
  startWriting(): void {
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
   * with one map lookup in the device channels (device-channels.service.ts).
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
}
