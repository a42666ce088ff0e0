import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_COMPANY_ID } from '../../db/seed/seed.js';
import { ADMIN_PASSWORD, createTestApp, type TestContext } from '../../test/app.js';
import { client } from '../../test/devices.js';
import type { DeviceRef } from '../device-gateway/uplink-sink.service.js';
import { MetricsService } from '../monitor/metrics.service.js';
import { MonitorRepository } from '../monitor/monitor.repository.js';
import { DeviceDataWriter } from './device-data-writer.service.js';
import { DeviceDataRepository, type TelemetrySample } from './device-data.repository.js';
import type { DeviceEventTable } from '../../platform/db/schema.js';

interface LogLine {
  level: 'warn' | 'info';
  detail: Record<string, unknown>;
  message: string;
}

/** A logger that keeps the warnings and info lines (debug and below are ignored). */
function recordingLogger(lines: LogLine[]): FastifyBaseLogger {
  const keep = (level: LogLine['level']) => (detail: Record<string, unknown>, message: string) =>
    lines.push({ level, detail, message });
  const ignore = () => undefined;
  const logger = {
    level: 'info',
    warn: keep('warn'),
    info: keep('info'),
    error: keep('warn'),
    fatal: keep('warn'),
    debug: ignore,
    trace: ignore,
    silent: ignore,
    child: () => logger,
  };
  return logger as unknown as FastifyBaseLogger;
}

/** A store that writes a batch only when let through: slower than any stream. */
class GatedRepository extends DeviceDataRepository {
  private opened: (() => void) | null = null;
  private gate: Promise<void> | null = null;
  failing = false;
  batches = 0;

  close() {
    this.gate = new Promise((open) => (this.opened = open));
  }

  open() {
    this.opened?.();
    this.gate = null;
  }

  override async writeRows(samples: TelemetrySample[], events: DeviceEventTable[]) {
    this.batches += 1;
    if (this.gate) await this.gate;
    if (this.failing) throw new Error('the store is down');
    await super.writeRows(samples, events);
  }
}

/** A device of the platform company, added through the API with a token of its own. */
async function addDevice(t: TestContext, sn: string): Promise<DeviceRef> {
  const admin = client(t, await t.login('admin', ADMIN_PASSWORD));
  const token = await admin.ok('POST', '/device/token/add', { name: sn });
  const added = await admin.ok('POST', '/device/device/add', {
    tokenId: token.id,
    sn,
    name: sn,
    series: 'R40',
  });
  return { id: added.id, companyId: PLATFORM_COMPANY_ID, sn, address: added.tagCode };
}

/** `name{labels}` → value of a Prometheus text exposition. */
function samplesOf(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{.*\})?) (\S+)$/.exec(line);
    if (match) samples.set(match[1]!, Number(match[2]));
  }
  return samples;
}

describe('device data writer slower than the stream', () => {
  let t: TestContext;
  let device: DeviceRef;
  let lines: LogLine[];
  let repository: GatedRepository;
  let writer: DeviceDataWriter;
  let metrics: MetricsService;

  const PENDING_MAX = 100;
  const scrape = async () => samplesOf(await metrics.render());
  const storedSeqs = async () => {
    const { rows } = await sql<{ values_json: string }>`select values_json from device_telemetry
      where device_id = ${device.id} order by ts`.execute(t.db);
    return rows.map((r) => (JSON.parse(r.values_json) as { seq: number }).seq);
  };
  const send = (from: number, count: number) => {
    for (let seq = from; seq < from + count; seq += 1) {
      writer.recordTelemetry(device, { ts: t.clock.now + seq, values: { seq } }, t.clock.now);
    }
  };

  beforeAll(async () => {
    t = await createTestApp();
    device = await addDevice(t, 'SHED-1');
    lines = [];
    const log = recordingLogger(lines);
    repository = new GatedRepository(t.db, t.dialect);
    writer = new DeviceDataWriter(repository, t.bus, log, t.clock.read, {
      pendingMax: PENDING_MAX,
    });
    metrics = new MetricsService({
      nodeId: () => 'test',
      traffic: () => ({ broker: 'none', connected: null, received: 0, sent: 0, refused: 0 }),
      consoleSockets: () => 0,
      deviceData: () => writer.stats(),
      db: t.db,
      repository: new MonitorRepository(t.db, t.dialect),
      clock: t.clock.read,
      log,
    });
  });
  afterAll(async () => {
    await writer.close();
    await t.close();
  });

  it('sheds explicitly: counted in /metrics, one warning when it starts, one info when it ends, what was kept intact', async () => {
    const before = await scrape();
    expect(before.get('blrms_device_data_rows_dropped_total{reason="buffer_full"}')).toBe(0);
    expect(before.get('blrms_device_data_rows_dropped_total{reason="write_failed"}')).toBe(0);
    expect(before.get('blrms_device_data_rows_pending_max')).toBe(PENDING_MAX);

    repository.close();
    // The backlog fills (100 rows), the next 150 are shed.
    send(0, 250);
    let now = await scrape();
    expect(now.get('blrms_device_data_rows_pending')).toBe(PENDING_MAX);
    expect(now.get('blrms_device_data_rows_dropped_total{reason="buffer_full"}')).toBe(150);
    expect(now.get('blrms_device_data_shedding{reason="buffer_full"}')).toBe(1);

    // One batch takes the backlog and waits for the store; the stream goes on, and so does the
    // shedding (the backlog fills again), still without another warning.
    writer.startWriting();
    send(250, 300);
    for (let i = 0; i < 20; i += 1) send(550 + i * 10, 10);
    now = await scrape();
    expect(now.get('blrms_device_data_rows_dropped_total{reason="buffer_full"}')).toBe(150 + 400);
    expect(lines.filter((l) => l.level === 'warn')).toEqual([
      expect.objectContaining({
        level: 'warn',
        detail: expect.objectContaining({ reason: 'buffer_full', pendingMax: PENDING_MAX }),
        message: expect.stringContaining('shedding'),
      }),
    ]);
    expect(lines.filter((l) => l.level === 'info')).toEqual([]);

    repository.open();
    await writer.flush();
    now = await scrape();
    expect(now.get('blrms_device_data_rows_pending')).toBe(0);
    expect(now.get('blrms_device_data_shedding{reason="buffer_full"}')).toBe(0);
    expect(now.get('blrms_device_data_rows_written_total')).toBe(200);
    expect(now.get('blrms_device_data_batches_total')).toBe(repository.batches);
    expect(lines.filter((l) => l.level === 'warn')).toHaveLength(1);
    expect(lines.filter((l) => l.level === 'info')).toEqual([
      expect.objectContaining({
        detail: expect.objectContaining({ reason: 'buffer_full', dropped: 550 }),
        message: expect.stringContaining('ended'),
      }),
    ]);
    expect(writer.dropped).toBe(550);

    // What was kept is stored whole: the first 100 and the 100 after the first batch was taken.
    const kept = [
      ...Array.from({ length: 100 }, (_, i) => i),
      ...Array.from({ length: 100 }, (_, i) => 250 + i),
    ];
    expect(await storedSeqs()).toEqual(kept);
  });

  it('counts and logs once the batches a failing store loses, and says when it writes again', async () => {
    lines.length = 0;
    const written = writer.stats().written;
    repository.failing = true;
    for (let batch = 0; batch < 5; batch += 1) {
      send(10_000 + batch * 10, 10);
      await writer.flush();
    }
    let now = await scrape();
    expect(now.get('blrms_device_data_rows_dropped_total{reason="write_failed"}')).toBe(50);
    expect(now.get('blrms_device_data_shedding{reason="write_failed"}')).toBe(1);
    expect(lines.filter((l) => l.level === 'warn')).toEqual([
      expect.objectContaining({ detail: expect.objectContaining({ reason: 'write_failed' }) }),
    ]);

    repository.failing = false;
    send(20_000, 10);
    await writer.flush();
    now = await scrape();
    expect(now.get('blrms_device_data_shedding{reason="write_failed"}')).toBe(0);
    expect(now.get('blrms_device_data_rows_written_total')).toBe(written + 10);
    expect(lines.filter((l) => l.level === 'warn')).toHaveLength(1);
    expect(lines.filter((l) => l.level === 'info')).toEqual([
      expect.objectContaining({
        detail: expect.objectContaining({ reason: 'write_failed', dropped: 50 }),
      }),
    ]);
    expect((await storedSeqs()).slice(-10)).toEqual(
      Array.from({ length: 10 }, (_, i) => 20_000 + i),
    );
  });

  it('stores an event carrying a lone surrogate, and the rest of its batch', async () => {
    const dropped = writer.dropped;
    send(30_000, 3);
    writer.recordEvent(
      device,
      { level: 'warn', code: 'odd\uDC00', message: 'half \uD800 pair', source: 'device' },
      t.clock.now,
    );
    await writer.flush();
    expect(writer.dropped).toBe(dropped);
    expect((await storedSeqs()).slice(-3)).toEqual([30_000, 30_001, 30_002]);
    const { rows } = await sql<{ code: string; message: string }>`select code, message
      from device_event where device_id = ${device.id}`.execute(t.db);
    expect(rows).toEqual([{ code: 'odd\uFFFD', message: 'half \uFFFD pair' }]);
  });
});

describe('device data writer with a backlog', () => {
  let t: TestContext;
  let device: DeviceRef;
  let repository: GatedRepository;
  let writer: DeviceDataWriter;

  beforeAll(async () => {
    t = await createTestApp();
    device = await addDevice(t, 'BACKLOG-1');
    repository = new GatedRepository(t.db, t.dialect);
    writer = new DeviceDataWriter(repository, t.bus, recordingLogger([]), t.clock.read);
  });
  afterAll(async () => {
    await writer.close();
    await t.close();
  });

  it('writes one batch per turn of the event loop, so sockets and timers are served between them', async () => {
    const rows = 3 * repository.batchRows;
    for (let seq = 0; seq < rows; seq += 1) {
      writer.recordTelemetry(device, { ts: t.clock.now + seq, values: { seq } }, t.clock.now);
    }
    // On SQLite a batch never waits for I/O: batches begun back to back would all be written
    // before anything else the event loop has to do. (PostgreSQL begins two side by side.)
    const batchesAtNextTurn = await new Promise((resolve) =>
      setImmediate(() => resolve(repository.batches)),
    );
    expect(batchesAtNextTurn).toBe(repository.concurrentBatches);
    await writer.flush();
    expect(repository.batches).toBeGreaterThan(3);
    const { rows: stored } = await sql<{ n: number }>`select count(*) as n from device_telemetry
      where device_id = ${device.id}`.execute(t.db);
    expect(Number(stored[0]?.n)).toBe(rows);
  });

  it('gives waiting events their share of each batch, not what samples leave over', async () => {
    const batches: { samples: number; events: number }[] = [];
    class Recording extends DeviceDataRepository {
      override async writeRows(samples: TelemetrySample[], events: DeviceEventTable[]) {
        batches.push({ samples: samples.length, events: events.length });
        await super.writeRows(samples, events);
      }
    }
    const recording = new Recording(t.db, t.dialect);
    const own = new DeviceDataWriter(recording, t.bus, recordingLogger([]), t.clock.read);
    for (let seq = 0; seq < 3 * recording.batchRows; seq += 1) {
      own.recordTelemetry(device, { ts: t.clock.now + seq, values: { seq } }, t.clock.now);
    }
    for (let i = 0; i < 30; i += 1) {
      own.recordEvent(
        device,
        { level: 'warn', code: `storm-${i}`, message: 'threshold', source: 'device' },
        t.clock.now,
      );
    }
    await own.flush();
    await own.close();
    expect(batches.reduce((n, b) => n + b.events, 0)).toBe(30);
    // Not all in the last batch, after every sample recorded before them.
    expect(batches.findIndex((b) => b.events > 0)).toBeLessThan(batches.length - 1);
  });

  it('stores every sample of a batch whatever its size, each as it was sent', async () => {
    const other = await addDevice(t, 'BACKLOG-2');
    // 1,234 rows: every statement size SQLite's insert is made of (250, 50, 10 and 1 rows).
    const samples: TelemetrySample[] = Array.from({ length: 1234 }, (_, i) => ({
      device_id: other.id,
      ts: t.clock.now + i,
      received_at: t.clock.now + 10_000 + i,
      values: { seq: i, 'odd "key"': -(i + 1) / 8, big: 2 ** 52 + i },
    }));
    await new DeviceDataRepository(t.db, t.dialect).writeRows(samples, []);
    const { rows } = await sql<{ ts: number; received_at: number; values_json: string }>`
      select ts, received_at, values_json from device_telemetry
      where device_id = ${other.id} order by ts`.execute(t.db);
    expect(
      rows.map((r) => ({
        device_id: other.id,
        ts: Number(r.ts),
        received_at: Number(r.received_at),
        values: JSON.parse(r.values_json) as Record<string, number>,
      })),
    ).toEqual(samples);
  });
});
