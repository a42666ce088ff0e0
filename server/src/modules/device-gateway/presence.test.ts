import {
  deviceAddress,
  RESTART_WINDOW_MS,
  upTopic,
  type TDeviceAvailability,
  type TDeviceConnection,
  type TDeviceLive,
  type TDeviceLog,
  type TRemovedSn,
} from '@blrms/contracts';
import type { MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PLATFORM_COMPANY_ID } from '../../db/seed/seed.js';
import { ADMIN_PASSWORD, createTestApp, type TestContext } from '../../test/app.js';
import {
  DEVICE_PAGES,
  client,
  createDataRule,
  createRole,
  type Client,
} from '../../test/devices.js';
import {
  connectDevice,
  expectDevice,
  findDevice,
  refusalCode,
  uniqueSn,
  credentialOf,
  type TokenCredential,
} from '../../test/mqtt-devices.js';
import { RemoteDevice } from '../../test/remote-device.js';
import { DEFAULT_PRESENCE_OPTIONS } from './presence-writer.service.js';

const MINUTE = 60_000;

describe('device presence: expected restarts, removed devices, connection history', () => {
  let t: TestContext;
  let admin: Client;
  let url: string;
  let key: TokenCredential;
  let tokenId: string;
  const open: MqttClient[] = [];
  const remotes: RemoteDevice[] = [];
  const live: TDeviceLive[] = [];

  async function device(sn: string) {
    const connection = await connectDevice(url, sn, key);
    open.push(connection);
    return connection;
  }

  /** System messages that name the SN (the owner of every device here is admin). */
  const alertsAbout = (sn: string) =>
    t.db
      .selectFrom('sys_announcement')
      .select(['titile'])
      .where('msg_content', 'like', `%${sn}%`)
      .execute();

  async function deviceLogs(sn: string): Promise<TDeviceLog[]> {
    return (await admin.ok('GET', `/device/log/list?sn=${sn}&pageSize=100`)).records;
  }

  beforeAll(async () => {
    t = await createTestApp({ app: { mqtt: { port: 0 } } });
    admin = client(t, await t.login('admin', ADMIN_PASSWORD));
    url = `mqtt://127.0.0.1:${t.app.deviceGateway.port}`;
    const token = await admin.ok('POST', '/device/token/add', {
      name: 'Presence',
      autoRegister: true,
    });
    key = credentialOf(token);
    tokenId = token.id;
    t.bus.subscribe('device.live', ({ devices }) => live.push(...devices));
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.endAsync(true)));
    await Promise.all(remotes.splice(0).map((d) => d.disconnect()));
  });
  afterAll(() => t.close());

  it('holds back alerts while a rebooted device is away, shows it rebooting, and alerts after the window', async () => {
    const sn = uniqueSn('RBT');
    const remote = new RemoteDevice(url, sn, key);
    remotes.push(remote);
    await remote.connect();
    const { id } = await expectDevice(admin, sn, { status: 'online', expectedRestart: null });
    const rebootAt = t.clock.now;
    const res = await admin.post('/device/command', { deviceId: id, method: 'reboot' });
    expect(res.statusCode).toBe(200);
    await vi.waitFor(() => expect(remote.of('rpc')).toHaveLength(1));

    // The device reboots: it drops, comes back and drops again (an upgrade does so several times).
    await remote.disconnect();
    const until = new Date(rebootAt + RESTART_WINDOW_MS.reboot).toISOString();
    await expectDevice(admin, sn, {
      status: 'offline',
      expectedRestart: { kind: 'reboot', until },
    });
    expect(live.filter((d) => d.id === id).at(-1)).toMatchObject({
      status: 'offline',
      expectedRestart: { kind: 'reboot', until },
    });
    for (let i = 0; i < 4; i++) {
      await remote.connect();
      await expectDevice(admin, sn, { status: 'online' });
      await remote.disconnect();
      await expectDevice(admin, sn, { status: 'offline' });
    }
    // Four disconnects within minutes and a minute away: neither unstable nor offline, yet.
    await t.app.deviceGateway.checkAlerts();
    t.clock.advance(2 * MINUTE);
    await t.app.deviceGateway.checkAlerts();
    expect(await alertsAbout(sn)).toEqual([]);
    expect(await findDevice(admin, sn)).toMatchObject({ expectedRestart: { kind: 'reboot' } });

    // It never came back: once the window is over it is offline, and the owner hears of it.
    t.clock.advance(RESTART_WINDOW_MS.reboot - 2 * MINUTE);
    await t.app.deviceGateway.checkAlerts();
    expect(await alertsAbout(sn)).toEqual([{ titile: '1 台设备离线' }]);
    expect(await findDevice(admin, sn)).toMatchObject({
      status: 'offline',
      expectedRestart: null,
    });
  });

  it('alerts as before when a device drops without a restart the platform caused', async () => {
    const sn = uniqueSn('DROP');
    await (await device(sn)).endAsync();
    await expectDevice(admin, sn, { status: 'offline', expectedRestart: null });
    t.clock.advance(61_000);
    await t.app.deviceGateway.checkAlerts();
    expect(await alertsAbout(sn)).toEqual([{ titile: '1 台设备离线' }]);
  });

  it('keeps a deleted auto-registering device deleted until its SN is allowed again', async () => {
    const sn = uniqueSn('DEL');
    const connection = await device(sn);
    const { id } = await expectDevice(admin, sn, { status: 'online' });
    const closed = new Promise<void>((resolve) => connection.once('close', () => resolve()));
    await admin.ok('DELETE', `/device/device/delete?id=${id}`);
    await closed;

    // The device retries at once, as firmware does: refused, and the refusal is in the log.
    expect(await refusalCode(url, sn, key)).toBe(5);
    expect(await findDevice(admin, sn)).toBeUndefined();
    await vi.waitFor(async () =>
      expect((await deviceLogs(sn)).map((l) => l.subject)).toContain(
        'MQTT connection refused: device-removed',
      ),
    );
    const removed = await admin.ok('GET', `/device/token/removedSns?tokenId=${tokenId}&sn=${sn}`);
    expect(removed.records as TRemovedSn[]).toEqual([
      { sn, removedAt: new Date(t.clock.now).toISOString(), removedBy: 'admin' },
    ]);

    await admin.ok('POST', '/device/token/allowSns', { tokenId, sns: [sn] });
    expect(
      (await admin.ok('GET', `/device/token/removedSns?tokenId=${tokenId}&sn=${sn}`)).total,
    ).toBe(0);
    await device(sn);
    const again = await expectDevice(admin, sn, { status: 'online' });
    expect(again.id).not.toBe(id);
  });

  it('lets a removed SN register again once it is added by hand', async () => {
    const sn = uniqueSn('ADD');
    await (await device(sn)).endAsync();
    const { id } = await expectDevice(admin, sn, { status: 'offline' });
    await admin.ok('DELETE', `/device/device/delete?id=${id}`);
    expect(await refusalCode(url, sn, key)).toBe(5);
    await admin.ok('POST', '/device/device/add', { tokenId, sn, name: sn, series: 'R40' });
    expect(
      (await admin.ok('GET', `/device/token/removedSns?tokenId=${tokenId}&sn=${sn}`)).total,
    ).toBe(0);
    await device(sn);
    await expectDevice(admin, sn, { status: 'online' });
  });

  it('refuses the removed-SN list and its release to users without the token buttons', async () => {
    const role = await createRole(t, PLATFORM_COMPANY_ID, ['device', 'device-list']);
    await t.createUser({ username: 'nokeys', password: 'No-Keys-Pass-1', roleIds: [role] });
    const viewer = client(t, await t.login('nokeys', 'No-Keys-Pass-1'));
    expect((await viewer.get(`/device/token/removedSns?tokenId=${tokenId}`)).statusCode).toBe(403);
    const allow = await viewer.post('/device/token/allowSns', { tokenId, sns: ['X'] });
    expect(allow.statusCode).toBe(403);
  });

  it('lists a device’s connections with reasons and durations, and its availability', async () => {
    const sn = uniqueSn('HIST');
    const createdAt = t.clock.now;
    const first = await device(sn);
    const { id } = await expectDevice(admin, sn, { status: 'online' });
    t.clock.advance(30 * MINUTE);
    await first.endAsync();
    await expectDevice(admin, sn, { status: 'offline' });
    t.clock.advance(30 * MINUTE);
    const second = await device(sn);
    await expectDevice(admin, sn, { status: 'online' });
    t.clock.advance(10 * MINUTE);
    // The same SN connects again while the second connection is open: a takeover.
    const closed = new Promise<void>((resolve) => second.once('close', () => resolve()));
    await device(sn);
    await closed;
    t.clock.advance(20 * MINUTE);

    const iso = (at: number) => new Date(at).toISOString();
    let page: { records: TDeviceConnection[]; total: number } = { records: [], total: 0 };
    await vi.waitFor(async () => {
      page = await admin.ok('GET', `/device/connection/list?deviceId=${id}`);
      expect(page.total).toBe(3);
      expect(page.records[1]?.reason).toBe('takeover');
    });
    expect(page.records).toEqual([
      {
        id: expect.any(String),
        connectedAt: iso(createdAt + 70 * MINUTE),
        disconnectedAt: null,
        reason: null,
        durationMs: 20 * MINUTE,
        ip: '127.0.0.1',
        nodeId: expect.any(String),
      },
      expect.objectContaining({
        connectedAt: iso(createdAt + 60 * MINUTE),
        disconnectedAt: iso(createdAt + 70 * MINUTE),
        reason: 'takeover',
        durationMs: 10 * MINUTE,
      }),
      expect.objectContaining({
        connectedAt: iso(createdAt),
        disconnectedAt: iso(createdAt + 30 * MINUTE),
        reason: 'client-disconnect',
        durationMs: 30 * MINUTE,
      }),
    ]);
    const oldestFirst = await admin.ok(
      'GET',
      `/device/connection/list?deviceId=${id}&order=asc&pageSize=1&pageNo=1`,
    );
    expect(oldestFirst.records[0].reason).toBe('client-disconnect');

    // Online 60 of the 90 minutes since the device was created.
    const availability: TDeviceAvailability = await admin.ok(
      'GET',
      `/device/connection/availability?deviceId=${id}`,
    );
    const window = {
      from: iso(createdAt),
      to: iso(t.clock.now),
      onlineMs: 60 * MINUTE,
      percent: 66.7,
      connections: 3,
    };
    expect(availability).toEqual({ deviceId: id, day: window, week: window });
    // A day later, the last 24 hours hold the open connection only.
    t.clock.advance(24 * 60 * MINUTE);
    const later: TDeviceAvailability = await admin.ok(
      'GET',
      `/device/connection/availability?deviceId=${id}`,
    );
    expect(later.day).toMatchObject({ percent: 100, connections: 1 });
    expect(later.week.percent).toBeCloseTo(((60 + 24 * 60) / (90 + 24 * 60)) * 100, 1);
  });

  it('deletes connections that ended before the retention period, never open ones', async () => {
    const sn = uniqueSn('KEEP');
    const { id } = await admin.ok('POST', '/device/device/add', {
      tokenId,
      sn,
      name: sn,
      series: 'R40',
    });
    const day = 24 * 60 * MINUTE;
    const row = (name: string, connectedDaysAgo: number, endedDaysAgo: number | null) => ({
      id: `${name}${id}`.slice(0, 32),
      company_id: PLATFORM_COMPANY_ID,
      device_id: id,
      connected_at: t.clock.now - connectedDaysAgo * day,
      disconnected_at: endedDaysAgo === null ? null : t.clock.now - endedDaysAgo * day,
      reason: endedDaysAgo === null ? null : 'keepalive-timeout',
      ip: null,
      node_id: null,
    });
    await t.db
      .insertInto('device_session')
      .values([row('a', 40, 31), row('b', 40, 29), row('c', 35, null)])
      .execute();
    expect(await t.app.deviceConnections.purgeExpired()).toBe(1);
    const left = await admin.ok('GET', `/device/connection/list?deviceId=${id}`);
    // Newest first: the open connection, then the one ended 29 days ago.
    expect(left.records.map((c: TDeviceConnection) => c.reason)).toEqual([
      null,
      'keepalive-timeout',
    ]);
  });

  it('closes the connections of a node that stops, and shows history to those who may see the device', async () => {
    const sn = uniqueSn('NODE');
    await device(sn);
    const { id } = await expectDevice(admin, sn, { status: 'online' });
    await t.app.deviceGateway.close();
    const rows = await t.db
      .selectFrom('device_session')
      .select(['reason', 'disconnected_at'])
      .where('device_id', '=', id)
      .execute();
    expect(rows).toEqual([{ reason: 'server-shutdown', disconnected_at: t.clock.now }]);

    // Company and data rules apply as to the device itself.
    const onlyS27x = await createDataRule(t, 'device-list', {
      column: 'series',
      operator: 'EQ',
      value: 'S27X',
    });
    const narrowRole = await createRole(t, PLATFORM_COMPANY_ID, DEVICE_PAGES, {
      'device-list': [onlyS27x],
    });
    await t.createUser({ username: 'narrow', password: 'Narrow-Pass-1', roleIds: [narrowRole] });
    const narrow = client(t, await t.login('narrow', 'Narrow-Pass-1'));
    expect((await narrow.get(`/device/connection/list?deviceId=${id}`)).statusCode).toBe(404);
    expect((await narrow.get(`/device/connection/availability?deviceId=${id}`)).statusCode).toBe(
      404,
    );
  });
});

describe('device presence: last seen', () => {
  let t: TestContext;
  let admin: Client;

  beforeAll(async () => {
    t = await createTestApp({ app: { mqtt: { port: 0 } } });
    admin = client(t, await t.login('admin', ADMIN_PASSWORD));
  });
  afterAll(() => t.close());

  it('follows telemetry within a few seconds, and writes no time closer than that to the last', async () => {
    const token = credentialOf(await admin.ok('POST', '/device/token/add', { name: 'Seen' }));
    const sn = uniqueSn('SEEN');
    const connection = await connectDevice(
      `mqtt://127.0.0.1:${t.app.deviceGateway.port}`,
      sn,
      token,
    );
    const telemetry = () =>
      connection.publishAsync(
        upTopic(deviceAddress(token.code, sn), 'telemetry'),
        '{"values":{"signal":-60}}',
        { qos: 1 },
      );
    try {
      const connectedAt = new Date(t.clock.now).toISOString();
      await expectDevice(admin, sn, { lastSeenAt: connectedAt });
      // A second after the connect: the connect's time stands for it (the row is as far behind
      // as the writer's interval allows), and the row is not written again for it.
      t.clock.advance(1000);
      await telemetry();
      await new Promise((resolve) =>
        setTimeout(resolve, DEFAULT_PRESENCE_OPTIONS.seenIntervalMs + 500),
      );
      await expectDevice(admin, sn, { lastSeenAt: connectedAt });
      for (const seconds of [20, 45]) {
        t.clock.advance(seconds * 1000);
        await telemetry();
        await expectDevice(admin, sn, { lastSeenAt: new Date(t.clock.now).toISOString() }, 4000);
      }
    } finally {
      await connection.endAsync(true);
    }
  });
});
