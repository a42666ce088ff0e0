import os from 'node:os';
import path from 'node:path';
import { deviceAddress, downFilter, downTopic, type TDeviceLive } from '@blrms/contracts';
import type { MqttClient } from 'mqtt';
import pino from 'pino';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, type App } from '../../app.js';
import { loadConfig } from '../../config.js';
import { RedisBus } from '../../platform/bus/redis-bus.js';
import { createDatabase, type DatabaseHandle } from '../../platform/db/database.js';
import { ADMIN_PASSWORD, TEST_HASH_COST, createTestApp, type TestContext } from '../../test/app.js';
import { companyWithToken } from '../../test/company-devices.js';
import { client, type Client } from '../../test/devices.js';
import {
  RecordingSink,
  connectDevice,
  credentialOf,
  expectDevice,
  uniqueSn,
  type TokenCredential,
} from '../../test/mqtt-devices.js';

const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;

// Runs where PostgreSQL and Redis are reachable:
// DATABASE_URL=postgres://... REDIS_URL=redis://127.0.0.1:6379 npx vitest run ...
describe.skipIf(!databaseUrl || !redisUrl)('two server nodes sharing PostgreSQL and Redis', () => {
  let nodeA: TestContext;
  let nodeB: App;
  let databaseB: DatabaseHandle;
  let busB: RedisBus;
  let apiA: Client;
  let apiB: Client;
  let urlA: string;
  let urlB: string;
  let key: TokenCredential;
  const liveOnB: TDeviceLive[] = [];
  const open: MqttClient[] = [];
  const log = pino({ level: 'silent' });

  beforeAll(async () => {
    nodeA = await createTestApp({
      app: {
        mqtt: { port: 0 },
        uplinkSink: new RecordingSink(),
        bus: await RedisBus.connect(redisUrl ?? '', log),
      },
    });
    // Node B opens the database node A created.
    const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(
      nodeA.db,
    );
    const url = new URL(databaseUrl ?? '');
    url.pathname = `/${rows[0]?.name ?? ''}`;
    databaseB = createDatabase({ dialect: 'postgres', url: url.toString() });
    busB = await RedisBus.connect(redisUrl ?? '', log);
    busB.subscribe('device.live', ({ devices }) => liveOnB.push(...devices));
    nodeB = await buildApp(
      {
        ...loadConfig({ ADMIN_PASSWORD, LOG_LEVEL: 'silent' }),
        webDist: path.join(os.tmpdir(), 'blrms-no-console'),
      },
      {
        database: databaseB,
        bus: busB,
        hashCost: TEST_HASH_COST,
        clock: nodeA.clock.read,
        logger: false,
        mqtt: { port: 0 },
        uplinkSink: new RecordingSink(),
      },
    );
    // Sessions live in the database: node A's login works on node B.
    const token = await nodeA.login('admin', ADMIN_PASSWORD);
    apiA = client(nodeA, token);
    apiB = client({ ...nodeA, app: nodeB }, token);
    urlA = `mqtt://127.0.0.1:${nodeA.app.deviceGateway.port}`;
    urlB = `mqtt://127.0.0.1:${nodeB.deviceGateway.port}`;
    key = credentialOf(
      await apiA.ok('POST', '/device/token/add', { name: 'Two nodes', autoRegister: true }),
    );
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.endAsync(true)));
  });
  afterAll(async () => {
    await nodeB?.close();
    await databaseB?.db.destroy();
    await nodeA?.close();
  });

  async function device(url: string, sn: string, token = key) {
    const connection = await connectDevice(url, sn, token);
    open.push(connection);
    return connection;
  }

  it('shows a device connected to node A online on node B, through the bus', async () => {
    const sn = uniqueSn('TWO');
    const connection = await device(urlA, sn);
    await expectDevice(apiB, sn, { status: 'online', ip: '127.0.0.1' });
    await vi.waitFor(() =>
      expect(liveOnB.filter((d) => d.sn === sn).at(-1)).toMatchObject({ status: 'online' }),
    );
    await connection.endAsync();
    await expectDevice(apiB, sn, { status: 'offline', disconnectReason: 'client-disconnect' });
    await vi.waitFor(() =>
      expect(liveOnB.filter((d) => d.sn === sn).at(-1)).toMatchObject({ status: 'offline' }),
    );
  });

  it('keeps a device online on node B when its stale connection on node A dies later', async () => {
    const sn = uniqueSn('TWO');
    const stale = await device(urlA, sn);
    await expectDevice(apiA, sn, { status: 'online' });
    await device(urlB, sn);
    await new Promise((r) => setTimeout(r, 300));
    stale.stream.destroy();
    await new Promise((r) => setTimeout(r, 500));
    await expectDevice(apiA, sn, { status: 'online' });
  });

  it('delivers a downlink sent on node B to a device connected to node A', async () => {
    const sn = uniqueSn('TWO');
    const connection = await device(urlA, sn);
    await connection.subscribeAsync(downFilter(deviceAddress(key.code, sn)), { qos: 1 });
    const received = new Promise<{ topic: string; payload: unknown }>((resolve) =>
      connection.once('message', (topic, payload) =>
        resolve({ topic, payload: JSON.parse(payload.toString()) }),
      ),
    );
    await nodeB.deviceGateway.send(deviceAddress(key.code, sn), 'rpc', 'req1', {
      method: 'ping',
      timeoutSec: 5,
    });
    expect(await received).toEqual({
      topic: downTopic(deviceAddress(key.code, sn), 'rpc', 'req1'),
      payload: { method: 'ping', timeoutSec: 5 },
    });
  });

  it('closes a connection on node A when its token is disabled through node B', async () => {
    const token = await apiB.ok('POST', '/device/token/add', { name: 'Kick', autoRegister: true });
    const sn = uniqueSn('TWO');
    const connection = await device(urlA, sn, credentialOf(token));
    await expectDevice(apiB, sn, { status: 'online' });
    const closed = new Promise<void>((resolve) => connection.once('close', () => resolve()));
    await apiB.ok('PUT', '/device/token/edit', {
      id: token.id,
      name: 'Kick',
      autoRegister: true,
      enabled: false,
    });
    await closed;
    await expectDevice(apiB, sn, { status: 'offline', disconnectReason: 'token-disabled' });
  });

  it('closes a connection on node A when its company is frozen through node B', async () => {
    const { companyId, token } = await companyWithToken(nodeA, 'twofrz');
    const sn = uniqueSn('TWO');
    const connection = await device(urlA, sn, token);
    const closed = new Promise<void>((resolve) => connection.once('close', () => resolve()));
    await apiB.ok('PUT', '/sys/company/frozen', { id: companyId, status: 2 });
    await closed;
    await vi.waitFor(async () => {
      const row = await nodeA.db
        .selectFrom('device')
        .select('disconnect_reason')
        .where('sn', '=', sn)
        .executeTakeFirst();
      expect(row?.disconnect_reason).toBe('company-frozen');
    });
  });

  it('holds back the alert of a restart expected on node B for a device that drops on node A', async () => {
    const sn = uniqueSn('TWO');
    const connection = await device(urlA, sn);
    const { id } = await expectDevice(apiB, sn, { status: 'online' });
    await nodeB.deviceGateway.expectRestart(id, 'upgrade');
    await connection.endAsync();
    await vi.waitFor(() =>
      expect(liveOnB.filter((d) => d.sn === sn).at(-1)).toMatchObject({
        status: 'offline',
        expectedRestart: { kind: 'upgrade' },
      }),
    );
    const alerts = () =>
      nodeA.db
        .selectFrom('sys_announcement')
        .select('titile')
        .where('msg_content', 'like', `%${sn}%`)
        .execute();
    nodeA.clock.advance(2 * 60_000);
    await nodeA.app.deviceGateway.checkAlerts();
    expect(await alerts()).toEqual([]);

    // Back on the other node within the window: no alert from either, and two connections.
    await device(urlB, sn);
    await expectDevice(apiA, sn, { status: 'online' });
    nodeA.clock.advance(15 * 60_000);
    await nodeA.app.deviceGateway.checkAlerts();
    await nodeB.deviceGateway.checkAlerts();
    expect(await alerts()).toEqual([]);
    const history = await apiA.ok('GET', `/device/connection/list?deviceId=${id}&order=asc`);
    expect(history.records.map((c: { reason: string | null }) => c.reason)).toEqual([
      'client-disconnect',
      null,
    ]);
    expect(new Set(history.records.map((c: { nodeId: string }) => c.nodeId)).size).toBe(2);
  });
});
