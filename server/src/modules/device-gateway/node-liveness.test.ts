import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../platform/db/ids.js';
import { ADMIN_PASSWORD, PLATFORM_ID, createTestApp, type TestContext } from '../../test/app.js';
import { client, type Client } from '../../test/devices.js';
import { RecordingSink, findDevice, uniqueSn } from '../../test/mqtt-devices.js';
import { GatewayRepository, type LiveRow } from './gateway.repository.js';
import { NodeLiveness } from './node-liveness.service.js';

describe('MQTT node liveness', () => {
  let t: TestContext;
  let admin: Client;
  let tokenId: string;
  const log = pino({ level: 'silent' });

  /** A device shown online, held by `nodeId`, with its connection open in the history. */
  async function heldBy(nodeId: string): Promise<string> {
    const sn = uniqueSn('NODE');
    const { id } = await admin.ok('POST', '/device/device/add', {
      tokenId,
      sn,
      name: sn,
      series: 'R40',
    });
    await t.db
      .updateTable('device')
      .set({ status: 'online', node_id: nodeId, last_connect_at: t.clock.now })
      .where('sn', '=', sn)
      .execute();
    await t.db
      .insertInto('device_session')
      .values({
        id: newId(),
        company_id: PLATFORM_ID,
        device_id: id,
        connected_at: t.clock.now,
        disconnected_at: null,
        reason: null,
        ip: '10.0.0.1',
        node_id: nodeId,
      })
      .execute();
    return sn;
  }

  /** How the device's connections ended (null: still open). */
  const endings = (sn: string) =>
    t.db
      .selectFrom('device_session')
      .innerJoin('device', 'device.id', 'device_session.device_id')
      .select(['device_session.reason', 'device_session.disconnected_at'])
      .where('device.sn', '=', sn)
      .execute();

  function liveness(nodeId: string, announced: LiveRow[], revived: () => void = () => undefined) {
    return new NodeLiveness(nodeId, new GatewayRepository(t.db), t.clock.read, log, {
      offline: async (rows) => {
        announced.push(...rows);
      },
      revived,
    });
  }

  beforeAll(async () => {
    t = await createTestApp({ app: { uplinkSink: new RecordingSink() } });
    admin = client(t, await t.login('admin', ADMIN_PASSWORD));
    tokenId = (await admin.ok('POST', '/device/token/add', { name: 'Nodes' })).id;
  });
  afterAll(() => t.close());

  it('at start, sets offline what the previous run of the node held', async () => {
    const mine = await heldBy('node-a');
    const other = await heldBy('node-b');
    const announced: LiveRow[] = [];
    const node = liveness('node-a', announced);
    await node.start();
    expect(await findDevice(admin, mine)).toMatchObject({
      status: 'offline',
      disconnectReason: 'connection-lost',
    });
    expect(await findDevice(admin, other)).toMatchObject({ status: 'online' });
    expect(announced.map((r) => r.sn)).toEqual([mine]);

    await node.stop();
    const row = await t.db
      .selectFrom('gateway_node')
      .select('id')
      .where('id', '=', 'node-a')
      .execute();
    expect(row).toEqual([]);
  });

  it('sets offline the devices of a node that stopped sending heartbeats, not of live ones', async () => {
    const announced: LiveRow[] = [];
    const silent = liveness('node-silent', []);
    const alive = liveness('node-alive', []);
    const watcher = liveness('node-watcher', announced);
    await silent.start();
    await alive.start();
    const lost = await heldBy('node-silent');
    const kept = await heldBy('node-alive');

    // Every 2 s the live nodes beat; the silent node is judged after 10 s without a beat.
    for (let beat = 0; beat < 4; beat += 1) {
      t.clock.advance(2_000);
      await alive.beat();
    }
    await watcher.start();
    t.clock.advance(2_000);
    await watcher.beat();
    expect(await findDevice(admin, lost)).toMatchObject({ status: 'online' });

    // Any node sweeps: here the watcher is first to beat after the silent node went stale.
    t.clock.advance(2_000);
    await watcher.beat();
    await alive.beat();
    expect(await findDevice(admin, lost)).toMatchObject({
      status: 'offline',
      disconnectReason: 'connection-lost',
    });
    expect(await findDevice(admin, kept)).toMatchObject({ status: 'online' });
    expect(await endings(lost)).toEqual([
      { reason: 'connection-lost', disconnected_at: t.clock.now },
    ]);
    expect(await endings(kept)).toEqual([{ reason: null, disconnected_at: null }]);
    expect(announced.map((r) => r.sn)).toEqual([lost]);
    const nodes = await t.db.selectFrom('gateway_node').select('id').orderBy('id').execute();
    expect(nodes.map((n) => n.id)).toEqual(['node-alive', 'node-watcher']);

    await alive.stop();
    expect(await findDevice(admin, kept)).toMatchObject({
      status: 'offline',
      disconnectReason: 'server-shutdown',
    });
    expect(await endings(kept)).toEqual([
      { reason: 'server-shutdown', disconnected_at: t.clock.now },
    ]);
    await watcher.stop();
  });

  it('after a gap in its own beats (the database was away) a node waits a beat before it judges others', async () => {
    const announced: LiveRow[] = [];
    const other = liveness('node-other', []);
    const judge = liveness('node-judge', announced);
    await other.start();
    await judge.start();
    const held = await heldBy('node-other');

    // Neither could write for 30 s; the judge's first beat after it does not sweep.
    t.clock.advance(30_000);
    await judge.beat();
    expect(await findDevice(admin, held)).toMatchObject({ status: 'online' });
    t.clock.advance(2_000);
    await other.beat();
    await judge.beat();
    expect(await findDevice(admin, held)).toMatchObject({ status: 'online' });
    expect(announced).toEqual([]);
    await other.stop();
    await judge.stop();
  });

  it('a node taken for dead learns it at its next beat, to set its devices online again', async () => {
    let revived = 0;
    const slow = liveness('node-slow', [], () => (revived += 1));
    const judge = liveness('node-judge-2', []);
    await slow.start();
    await judge.start();
    const held = await heldBy('node-slow');
    for (let beat = 0; beat < 6; beat += 1) {
      t.clock.advance(2_000);
      await judge.beat();
    }
    expect(await findDevice(admin, held)).toMatchObject({ status: 'offline' });
    expect(revived).toBe(0);

    t.clock.advance(2_000);
    await slow.beat();
    expect(revived).toBe(1);
    await slow.beat();
    expect(revived).toBe(1);
    await slow.stop();
    await judge.stop();
  });

  it('does not release a node that beat between the sweep’s read and its release', async () => {
    const repository = new GatewayRepository(t.db);
    const late = liveness('node-late', []);
    await late.start();
    const held = await heldBy('node-late');
    const staleBefore = t.clock.now + 1;
    expect(await repository.staleNodes(staleBefore)).toContain('node-late');
    t.clock.advance(2_000);
    await late.beat();
    const released = await repository.releaseStaleNode('node-late', staleBefore, {
      last_disconnect_at: t.clock.now,
      disconnect_reason: 'connection-lost',
    });
    expect(released).toBeNull();
    expect(await findDevice(admin, held)).toMatchObject({ status: 'online' });
    await late.stop();
  });

  it('keeps device_stats in step with the bulk updates', async () => {
    const stats = await t.db
      .selectFrom('device_stats')
      .select(['status', (eb) => eb.fn.sum<number>('n').as('n')])
      .groupBy('status')
      .execute();
    const actual = await t.db
      .selectFrom('device')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('status')
      .execute();
    const asMap = (rows: { status: string; n: number | string }[]) =>
      Object.fromEntries(rows.filter((r) => Number(r.n) > 0).map((r) => [r.status, Number(r.n)]));
    expect(asMap(stats)).toEqual(asMap(actual));
  });
});
