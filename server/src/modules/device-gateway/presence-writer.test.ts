import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { MemoryBus } from '../../platform/bus/memory-bus.js';
import type { DeviceSessionTable } from '../../platform/db/schema.js';
import type {
  GatewayRepository,
  LiveRow,
  PresenceChange,
  SessionWrites,
} from './gateway.repository.js';
import { PresenceWriter } from './presence-writer.service.js';

/** Records what each batch would write; fails the batches it is told to. */
class FakeRepository {
  readonly batches: { changes: PresenceChange[]; sessions: SessionWrites }[] = [];
  failures = 0;
  /** How long each batch takes to write (a busy database). */
  writeMs = 0;

  applyPresence(changes: PresenceChange[], sessions: SessionWrites): Promise<LiveRow[]> {
    if (this.failures > 0) {
      this.failures -= 1;
      return new Promise((_, reject) => setTimeout(() => reject(new Error('database away')), 30));
    }
    this.batches.push({ changes, sessions: structuredClone(sessions) });
    if (this.writeMs === 0) return Promise.resolve([]);
    return new Promise((resolve) => setTimeout(() => resolve([]), this.writeMs));
  }
}

const session = (id: string): DeviceSessionTable => ({
  id,
  company_id: 'c',
  device_id: 'd',
  connected_at: 1000,
  disconnected_at: null,
  reason: null,
  ip: null,
  node_id: 'n',
});

function writer(repository: FakeRepository, seenIntervalMs = 60_000, seenBatch = 1) {
  return new PresenceWriter(
    repository as unknown as GatewayRepository,
    new MemoryBus(),
    () => 0,
    pino({ level: 'silent' }),
    { intervalMs: 5, maxBatch: 1, seenBatch, seenIntervalMs },
  );
}

/** The writer with its production interval (100 ms), last-seen times kept out of the way. */
function writerAt100Ms(repository: FakeRepository, maxBatch: number) {
  return new PresenceWriter(
    repository as unknown as GatewayRepository,
    new MemoryBus(),
    () => 0,
    pino({ level: 'silent' }),
    { intervalMs: 100, maxBatch, seenBatch: 100, seenIntervalMs: 60_000 },
  );
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PresenceWriter', () => {
  it('writes a session closed while its first write failed as one closed row', async () => {
    const repository = new FakeRepository();
    const presence = writer(repository);
    repository.failures = 1;
    presence.sessionOpened(session('s1'));
    presence.sessionOpened(session('s2'));
    // The first batch (s1) is being written, and fails: s1 closes meanwhile, then goes back into
    // the queue behind s2.
    await sleep(15);
    presence.sessionClosed({ id: 's1', disconnectedAt: 2000, reason: 'client-disconnect' });
    await sleep(30);
    await presence.flush();
    const written = repository.batches.flatMap((b) => b.sessions.opened);
    expect(written.map((s) => [s.id, s.disconnected_at, s.reason])).toEqual([
      ['s2', null, null],
      ['s1', 2000, 'client-disconnect'],
    ]);
    expect(repository.batches.flatMap((b) => b.sessions.closed)).toEqual([]);
  });

  it('gathers last-seen times and never writes an older one over a newer change', async () => {
    const repository = new FakeRepository();
    const presence = writer(repository, 30);
    presence.seen('d1', 'c', 100);
    presence.seen('d1', 'c', 200);
    presence.seen('d2', 'c', 150);
    // A disconnect sets the time itself: the buffered one of d2 is dropped.
    presence.write({ deviceId: 'd2', companyId: 'c', values: { last_seen_at: 300 } });
    await sleep(10);
    expect(repository.batches.map((b) => b.changes)).toEqual([
      [{ deviceId: 'd2', companyId: 'c', values: { last_seen_at: 300 } }],
    ]);
    await sleep(60);
    await presence.flush();
    expect(repository.batches.slice(1).map((b) => b.changes)).toEqual([
      [{ deviceId: 'd1', companyId: 'c', values: { last_seen_at: 200 } }],
    ]);
  });

  it('writes a device going offline before the last-seen times that were waiting', async () => {
    const repository = new FakeRepository();
    repository.writeMs = 40;
    const presence = writer(repository, 10, 2);
    for (const id of ['d1', 'd2', 'd3', 'd4', 'd5', 'd6']) presence.seen(id, 'c', 100);
    // The first two last-seen times are being written when d9 goes offline.
    await sleep(30);
    const offline = {
      deviceId: 'd9',
      companyId: 'c',
      values: { status: 'offline' as const, last_seen_at: 200 },
      guard: { nodeId: 'n', connectedAt: 50 },
    };
    presence.write(offline);
    await presence.flush();
    expect(repository.batches.map((b) => b.changes.map((c) => c.deviceId))).toEqual([
      ['d1', 'd2'],
      ['d9'],
      ['d3', 'd4'],
      ['d5', 'd6'],
    ]);
  });

  it('puts a later last-seen time into the change waiting for its device, guard kept', async () => {
    const repository = new FakeRepository();
    repository.writeMs = 40;
    const presence = writer(repository, 10);
    presence.write({ deviceId: 'd0', companyId: 'c', values: { status: 'online' } });
    await sleep(10);
    // d1's disconnect waits behind d0's batch; then a message of d1 still in flight arrives.
    const guard = { nodeId: 'n', connectedAt: 50 };
    presence.write({
      deviceId: 'd1',
      companyId: 'c',
      values: { status: 'offline', last_seen_at: 200 },
      guard,
    });
    presence.seen('d1', 'c', 250);
    await presence.flush();
    expect(repository.batches.map((b) => b.changes)).toEqual([
      [{ deviceId: 'd0', companyId: 'c', values: { status: 'online' } }],
      [{ deviceId: 'd1', companyId: 'c', values: { status: 'offline', last_seen_at: 250 }, guard }],
    ]);
  });

  it('writes one batch per turn of the event loop, even when the store never waits for I/O', async () => {
    const repository = new FakeRepository();
    const presence = writer(repository);
    for (const id of ['d1', 'd2', 'd3', 'd4']) {
      presence.write({ deviceId: id, companyId: 'c', values: { status: 'online' } });
    }
    const flushed = presence.flush();
    const batchesAtNextTurn = await new Promise((resolve) =>
      setImmediate(() => resolve(repository.batches.length)),
    );
    await flushed;
    expect(batchesAtNextTurn).toBe(1);
    expect(repository.batches).toHaveLength(4);
  });

  it('writes a steady stream of connects once an interval, not once a batch was written', async () => {
    const repository = new FakeRepository();
    repository.writeMs = 10;
    const presence = writerAt100Ms(repository, 1000);
    // A device connects every 2 ms for 600 ms, each with its connection's session.
    const queued = new Map<string, number>();
    const written = new Map<string, number>();
    const original = repository.applyPresence.bind(repository);
    repository.applyPresence = (changes, sessions) => {
      for (const change of changes) written.set(change.deviceId, performance.now());
      return original(changes, sessions);
    };
    const started = performance.now();
    for (let n = 0; n < 300; n += 1) {
      const deviceId = `d${n}`;
      queued.set(deviceId, performance.now());
      presence.write({ deviceId, companyId: 'c', values: { status: 'online' } });
      presence.sessionOpened({ ...session(`s${n}`), device_id: deviceId });
      await sleep(2);
    }
    const intervals = (performance.now() - started) / 100;
    await sleep(250);
    // Written back to back, each batch took what came due while the one before was written:
    // a batch per 10 ms write. Once an interval, one batch per 100 ms of the stream, and the last.
    expect(repository.batches.length).toBeLessThanOrEqual(Math.ceil(intervals) + 2);
    expect(repository.batches.flatMap((b) => b.sessions.opened)).toHaveLength(300);
    expect(written.size).toBe(300);
    // No change waits more than two intervals (and a write) for its batch.
    for (const [deviceId, at] of written) {
      expect(at - (queued.get(deviceId) ?? 0)).toBeLessThan(260);
    }
    await presence.close();
  });

  it('writes a connect and the status report right after it as one update, however busy', async () => {
    const repository = new FakeRepository();
    repository.writeMs = 200;
    const presence = writerAt100Ms(repository, 100);
    presence.write({ deviceId: 'd0', companyId: 'c', values: { status: 'online' } });
    // d0's batch is taken at 100 ms and written until 300 ms. d1 connects at 280 ms and reports
    // its series at 330 ms: its connect must not leave alone in the batch taken at 300 ms.
    await sleep(280);
    presence.write({
      deviceId: 'd1',
      companyId: 'c',
      values: { status: 'online', ip: '10.0.0.1' },
    });
    await sleep(50);
    presence.write({ deviceId: 'd1', companyId: 'c', values: { series: 'BL10X' } });
    await sleep(300);
    expect(repository.batches.map((b) => b.changes)).toEqual([
      [{ deviceId: 'd0', companyId: 'c', values: { status: 'online' } }],
      [
        {
          deviceId: 'd1',
          companyId: 'c',
          values: { status: 'online', ip: '10.0.0.1', series: 'BL10X' },
        },
      ],
    ]);
    await presence.close();
  });
});
