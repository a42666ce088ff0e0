import { setImmediate as nextTurn } from 'node:timers/promises';
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
/**
 * Rows waiting for the database, at most: about five seconds of a 20,000 messages/s stream. When
 * the database falls further behind, new rows are shed (counted in `/metrics`, logged once when
 * shedding starts and once when it ends) rather than held in memory until the process runs out of
 * it. Shedding ends when the backlog is down to half of this, so that a store working at the edge
 * does not start and end an episode with every batch.
 */
const PENDING_MAX = 100_000;
/** How often a failure to write latest values is logged while it lasts. */
const LATEST_FAILURE_LOG_INTERVAL_MS = 10_000;
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

/** A surrogate without its other half (a device's JSON may carry one as a `\uD800` escape). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Cuts to `max` UTF-16 units without leaving half a surrogate pair, and replaces lone surrogates
 * by U+FFFD: PostgreSQL refuses them in the batch's JSON document, which would fail the batch.
 */
function cut(text: string, max: number): string {
  const whole = text.replace(LONE_SURROGATE, '\uFFFD');
  if (whole.length <= max) return whole;
  const end = /[\uD800-\uDBFF]/.test(whole.charAt(max - 1)) ? max - 1 : max;
  return whole.slice(0, end);
}

/** Why rows were not stored: the `reason` label of `blrms_device_data_rows_dropped_total`. */
export type DropReason = 'buffer_full' | 'write_failed';

/** What `/metrics` reads of the writer: totals since start, and the state now. */
export interface DeviceDataStats {
  /** Samples and events stored. */
  written: number;
  dropped: Record<DropReason, number>;
  /** Rows waiting for the database, and the most that may wait. */
  pending: number;
  pendingMax: number;
  /** Whether rows are being dropped now, by reason. */
  shedding: Record<DropReason, boolean>;
  /** Batches written (or given up), and the seconds spent writing them. */
  batches: number;
  batchSeconds: number;
}

/**
 * Rows dropped for one reason, as episodes: the first drop logs one warning (what is dropped and
 * why), the rows dropped meanwhile are only counted, and the end of the episode logs one info line
 * with how many went. A log line per batch or every few seconds would bury the rest of the log
 * for as long as the database is behind or down; the counter in `/metrics` shows the rate.
 */
class Shedding {
  total = 0;
  private episodeRows = 0;
  private episodeStart: number | null = null;

  constructor(
    private readonly log: FastifyBaseLogger,
    readonly reason: DropReason,
    private readonly messages: { start: string; end: string },
  ) {}

  get active(): boolean {
    return this.episodeStart !== null;
  }

  drop(rows: number, detail: Record<string, unknown>) {
    this.total += rows;
    this.episodeRows += rows;
    if (this.episodeStart !== null) return;
    this.episodeStart = performance.now();
    this.log.warn({ ...detail, reason: this.reason }, this.messages.start);
  }

  end(detail: Record<string, unknown> = {}) {
    if (this.episodeStart === null) return;
    const seconds = Math.round((performance.now() - this.episodeStart) / 100) / 10;
    this.log.info(
      {
        ...detail,
        reason: this.reason,
        dropped: this.episodeRows,
        seconds,
        droppedTotal: this.total,
      },
      this.messages.end,
    );
    this.episodeStart = null;
    this.episodeRows = 0;
  }
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
   * Batches of samples and events being written (at most the repository's `concurrentBatches`),
   * taken in the order they were recorded, and the write of latest values. They run side by side,
   * so that PostgreSQL works on one while the next is being prepared.
   */
  private readonly writingRows = new Set<Promise<void>>();
  /** Announced when the batch taken last is: batches announce in the order they were taken. */
  private lastAnnounced: Promise<void> = Promise.resolve();
  private writingLatest: Promise<void> | null = null;
  private closed = false;
  private readonly bufferFull: Shedding;
  private readonly writeFailed: Shedding;
  private written = 0;
  private batches = 0;
  private batchSeconds = 0;
  private readonly pendingMax: number;
  private lastLatestFailureLog = -Infinity;
  /** Devices deleted lately, until when their messages still in flight are dropped. */
  private readonly deleted = new Map<string, number>();

  constructor(
    private readonly repository: DeviceDataRepository,
    private readonly bus: Bus,
    private readonly log: FastifyBaseLogger,
    private readonly clock: Clock,
    options: { pendingMax?: number } = {},
  ) {
    this.pendingMax = options.pendingMax ?? PENDING_MAX;
    this.bufferFull = new Shedding(log, 'buffer_full', {
      start:
        'device data shedding: the database is not keeping up, new telemetry and events are dropped until the backlog halves',
      end: 'device data shedding ended: the database caught up',
    });
    this.writeFailed = new Shedding(log, 'write_failed', {
      start: 'device data shedding: batches cannot be written, their rows are dropped',
      end: 'device data shedding ended: batches are written again',
    });
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
    return this.bufferFull.total + this.writeFailed.total;
  }

  stats(): DeviceDataStats {
    return {
      written: this.written,
      dropped: { buffer_full: this.bufferFull.total, write_failed: this.writeFailed.total },
      pending: this.pendingRows(),
      pendingMax: this.pendingMax,
      shedding: { buffer_full: this.bufferFull.active, write_failed: this.writeFailed.active },
      batches: this.batches,
      batchSeconds: this.batchSeconds,
    };
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
      await Promise.all([...this.writingRows, this.writingLatest]);
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
   * Starts writing the buffered rows: a batch when none is under way, and more batches beside it
   * (up to the repository's `concurrentBatches`) while FLUSH_ROWS rows are waiting. Also the latest
   * values when they are due and not being written. Called every FLUSH_INTERVAL_MS, when FLUSH_ROWS
   * rows are waiting, and when a batch ends.
   */
  startWriting(): void {
    while (
      this.writingRows.size < this.repository.concurrentBatches &&
      this.pendingRows() > 0 &&
      (this.writingRows.size === 0 || this.pendingRows() >= FLUSH_ROWS)
    ) {
      const batch = this.writeRows().finally(() => {
        this.writingRows.delete(batch);
        // The next batch after the event loop's next turn: on SQLite a batch never waits for I/O,
        // and batches started back to back wrote a storm's whole backlog in one stretch, while
        // device sockets, timers and HTTP requests waited (the loop stood still for 19 s).
        if (this.pendingRows() >= FLUSH_ROWS) setImmediate(() => this.startWriting());
      });
      this.writingRows.add(batch);
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
    if (this.pendingRows() < this.pendingMax) return true;
    this.bufferFull.drop(1, { pending: this.pendingRows(), pendingMax: this.pendingMax });
    return false;
  }

  private noteLatest(deviceId: string, values: TTelemetryValues, ts: number) {
    let latest = this.pendingLatest.get(deviceId);
    if (!latest) this.pendingLatest.set(deviceId, (latest = {}));
    // Runs for every message: the pair of a known key is updated in place (no array per key and
    // message for the collector), and no entries array is made of the values.
    let added = false;
    for (const key in values) {
      const value = values[key] as number;
      const current = latest[key];
      if (!current) {
        latest[key] = [value, ts];
        added = true;
      } else if (current[1] <= ts) {
        current[0] = value;
        current[1] = ts;
      }
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

  /**
   * A batch's share of each kind is its share of what waits: when samples filled every batch,
   * events waited behind every sample queued before them while a backlog lasted.
   */
  private takeRows() {
    const batchRows = this.repository.batchRows;
    const waiting = this.pendingRows();
    const takeEvents = Math.min(
      this.pendingEvents.length,
      Math.ceil((batchRows * this.pendingEvents.length) / Math.max(waiting, 1)),
    );
    const takeSamples = Math.min(this.pendingSamples.length, batchRows - takeEvents);
    const samples = this.pendingSamples.slice(0, takeSamples);
    this.pendingSamples =
      takeSamples === this.pendingSamples.length ? [] : this.pendingSamples.slice(takeSamples);
    const events = this.pendingEvents.slice(0, takeEvents);
    this.pendingEvents =
      takeEvents === this.pendingEvents.length ? [] : this.pendingEvents.slice(takeEvents);
    return { samples, events };
  }

  private async writeRows() {
    let { samples, events } = this.takeRows();
    const rows = samples.length + events.length;
    const started = performance.now();
    const previous = this.lastAnnounced;
    let announced = () => {};
    this.lastAnnounced = new Promise((resolve) => (announced = resolve));
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
      this.written += samples.length + events.length;
      this.batchSeconds += (performance.now() - started) / 1000;
      this.writeFailed.end();
      await previous;
      this.announce(samples, events);
    } catch (err) {
      this.batchSeconds += (performance.now() - started) / 1000;
      this.writeFailed.drop(rows, { err, rows });
    } finally {
      announced();
      this.taken += rows;
      this.batches += 1;
      if (this.pendingRows() <= this.pendingMax / 2) {
        this.bufferFull.end({ pending: this.pendingRows() });
      }
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
    await Promise.all(this.writingRows);
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
        // One transaction per event-loop turn, for the reason the rows' batches take one each.
        if (i > 0) await nextTurn();
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
      if (now - this.lastLatestFailureLog >= LATEST_FAILURE_LOG_INTERVAL_MS) {
        this.log.warn({ err }, 'latest telemetry values could not be written');
        this.lastLatestFailureLog = now;
      }
    } finally {
      this.latestInFlight = new Map();
      this.latestDone += 1;
    }
  }

  /**
   * One bus message for the batch's samples and one per event. All are published, watched or
   * not: with Redis the sockets watching a device may be on any node, and the device channels
   * drop unwatched points with one map lookup each (device-channels.service.ts).
   */
  private announce(samples: PendingSample[], events: PendingEvent[]) {
    const failed = (err: unknown) => this.log.warn({ err }, 'device data announcement failed');
    if (samples.length > 0) {
      this.bus
        .publish('device.telemetry', {
          points: samples.map((s) => ({ deviceId: s.device.id, ts: s.ts, values: s.values })),
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
