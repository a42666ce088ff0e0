import {
  CAMPAIGN_DEVICE_STATES,
  SESSION_LIFETIME_MS,
  WS_CLOSE_FORBIDDEN,
  WS_CLOSE_UNAUTHORIZED,
  WS_TOKEN_PROTOCOL,
  type TCampaignProgress,
  type TClientMessage,
  type TDeviceCommand,
  type TDeviceConfigState,
  type TDeviceLive,
  type TServerMessage,
} from '@blrms/contracts';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { departId, permissionId } from '../../db/seed/seed.js';
import type { DeviceRef } from '../../modules/device-gateway/uplink-sink.service.js';
import {
  ADMIN_PASSWORD,
  PLATFORM_ID,
  authHeaders,
  createTestApp,
  type TestContext,
} from '../../test/app.js';
import {
  DEVICE_BUTTONS,
  DEVICE_PAGES,
  client,
  createDataRule,
  createRole,
  type Client,
} from '../../test/devices.js';
import { sha256 } from '../auth/tokens.js';
import { newId } from '../db/ids.js';
import type { Bus } from '../bus/bus.js';
import { RedisBus } from '../bus/redis-bus.js';
import { MAX_DEVICE_CHANNELS } from '../../modules/device-data/device-channels.service.js';

/** A console socket that records what it receives and how it closed. */
class Probe {
  readonly messages: TServerMessage[] = [];
  readonly socket: WebSocket;
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly opened: Promise<void>;

  constructor(base: string, userId: string, token?: string) {
    this.socket = new WebSocket(
      `${base}/api/websocket/${userId}`,
      token ? [WS_TOKEN_PROTOCOL, token] : [],
    );
    this.socket.on('message', (data) => this.messages.push(JSON.parse(data.toString())));
    this.opened = new Promise((resolve, reject) => {
      this.socket.once('open', () => resolve());
      this.socket.once('error', reject);
    });
    this.closed = new Promise((resolve) =>
      this.socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  async next(type: TServerMessage['type'], timeoutMs = 2000): Promise<TServerMessage> {
    return this.until((m) => m.type === type, timeoutMs, `no ${type} message`);
  }

  /** The first message received that matches. */
  async until(
    matches: (m: TServerMessage) => boolean,
    timeoutMs = 2000,
    what = 'no matching message',
  ): Promise<TServerMessage> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const found = this.messages.find(matches);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`${what} within ${timeoutMs} ms: ${JSON.stringify(this.messages)}`);
  }

  send(message: TClientMessage | Record<string, unknown>) {
    this.socket.send(JSON.stringify(message));
  }

  /** Subscribes and waits for the answer: `subscribed` or `subscribe-refused`. */
  async subscribe(channel: string): Promise<TServerMessage> {
    const before = this.messages.length;
    this.send({ type: 'subscribe', channel });
    return this.until(
      (m) =>
        this.messages.indexOf(m) >= before &&
        (m.type === 'subscribed' || m.type === 'subscribe-refused') &&
        m.channel === channel,
      2000,
      `no answer to the subscription of ${channel}`,
    );
  }

  /** Resolves once every message the server sent before this call has arrived. */
  async drained(): Promise<void> {
    const before = this.messages.length;
    this.send({ type: 'heartbeat' });
    await this.until(
      (m) => m.type === 'heartbeat' && this.messages.indexOf(m) >= before,
      2000,
      'no heartbeat',
    );
  }

  of<T extends TServerMessage['type']>(type: T): Extract<TServerMessage, { type: T }>[] {
    return this.messages.filter((m): m is Extract<TServerMessage, { type: T }> => m.type === type);
  }
}

describe('console websocket', () => {
  let t: TestContext;
  let base: string;
  let memberId: string;
  let member: string;
  let outsiderId: string;
  let outsider: string;
  let admin: string;
  const probes: Probe[] = [];
  const probe = (userId: string, token?: string) => {
    const p = new Probe(base, userId, token);
    probes.push(p);
    return p;
  };

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    base = `ws://127.0.0.1:${address.port}`;
    memberId = await t.createUser({
      username: 'member',
      password: 'Member-Pass-1',
      orgCodes: ['A01A01'],
    });
    outsiderId = await t.createUser({
      username: 'outsider',
      password: 'Outsider-Pass-1',
      orgCodes: ['A01A02'],
    });
    admin = await t.login('admin', ADMIN_PASSWORD);
    member = await t.login('member', 'Member-Pass-1');
    outsider = await t.login('outsider', 'Outsider-Pass-1');
  });
  afterAll(async () => {
    for (const p of probes) p.socket.terminate();
    await t.close();
  });

  async function publishToRnD(title: string): Promise<string> {
    const add = await t.app.inject({
      method: 'POST',
      url: '/api/sys/annountCement/add',
      headers: authHeaders(admin),
      payload: {
        titile: title,
        msgContent: '<p>x</p>',
        priority: 'H',
        msgType: 'depart',
        departIds: [departId('A01A01')],
      },
    });
    const id = add.json().result.id as string;
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/sys/annountCement/doReleaseData?id=${id}`,
      headers: authHeaders(admin),
    });
    expect(res.statusCode).toBe(200);
    return id;
  }

  it('tells the recipients of a publish, and nobody else', async () => {
    const mine = probe(memberId, member);
    const theirs = probe(outsiderId, outsider);
    await Promise.all([mine.opened, theirs.opened]);
    expect(mine.socket.protocol).toBe(WS_TOKEN_PROTOCOL);
    const id = await publishToRnD('Urgent');
    expect(await mine.next('user')).toEqual({
      type: 'user',
      msgId: id,
      msgTxt: 'Urgent',
      cmd: 'publish',
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(theirs.messages).toEqual([]);
  });

  it('sends a system message’s title in the language each console declared', async () => {
    const chinese = probe(memberId, member);
    const english = probe(memberId, member);
    await Promise.all([chinese.opened, english.opened]);
    english.send({ type: 'language', lang: 'en-US' });
    await english.drained();
    const id = await t.app.announcements.sendSystemMessage({
      companyId: PLATFORM_ID,
      userIds: [memberId],
      code: 'device.offline',
      params: { count: 2, seconds: 60, devices: 'R40A0001, R40A0002', more: 0 },
      priority: 'M',
    });
    const published = (m: TServerMessage) => m.type === 'user' && m.msgId === id;
    expect(await chinese.until(published)).toMatchObject({ msgTxt: '2 台设备离线' });
    expect(await english.until(published)).toMatchObject({ msgTxt: '2 device(s) offline' });
  });

  it('tells every socket to resync when the bus returns after a gap, and closes those whose session ended meanwhile', async () => {
    const ended = await t.login('member', 'Member-Pass-1');
    const kept = probe(memberId, member);
    const gone = probe(memberId, ended);
    await Promise.all([kept.opened, gone.opened]);
    const list = () =>
      t.app.inject({ method: 'GET', url: '/api/sys/user/list', headers: authHeaders(ended) });
    expect((await list()).statusCode).not.toBe(401);
    // A logout on another node during the gap: its event never came, only the database knows.
    await t.db
      .updateTable('sys_session')
      .set({ revoked_time: t.clock.now })
      .where('token_hash', '=', sha256(ended))
      .execute();

    await t.bus.publish('bus.resumed', { gapMs: 5000 });
    expect(await kept.next('resync')).toEqual({ type: 'resync' });
    expect((await gone.closed).code).toBe(WS_CLOSE_UNAUTHORIZED);
    // The node's session cache was dropped too: the ended session is refused at once.
    expect((await list()).statusCode).toBe(401);
    expect(kept.socket.readyState).toBe(WebSocket.OPEN);
  });

  it('answers a heartbeat', async () => {
    const p = probe(memberId, member);
    await p.opened;
    p.socket.send(JSON.stringify({ type: 'heartbeat' }));
    expect(await p.next('heartbeat')).toEqual({ type: 'heartbeat' });
  });

  it('closes a socket without a token, or with an unknown one, with 4401', async () => {
    expect((await probe(memberId).closed).code).toBe(WS_CLOSE_UNAUTHORIZED);
    expect((await probe(memberId, 'not-a-session').closed).code).toBe(WS_CLOSE_UNAUTHORIZED);
  });

  it("refuses a socket for another user's id with 4403, even with a valid token", async () => {
    const p = probe(memberId, outsider);
    expect((await p.closed).code).toBe(WS_CLOSE_FORBIDDEN);
    expect(p.messages).toEqual([]);
  });

  it('refuses other paths under /api/websocket', async () => {
    const p = new WebSocket(`${base}/api/websocket/../sys/user`, [WS_TOKEN_PROTOCOL, member]);
    await expect(
      new Promise((resolve, reject) => {
        p.once('open', resolve);
        p.once('error', reject);
      }),
    ).rejects.toThrow();
  });

  it('closes the sockets of a session that logs out', async () => {
    const token = await t.login('member', 'Member-Pass-1');
    const p = probe(memberId, token);
    await p.opened;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/sys/logout',
      headers: authHeaders(token),
    });
    expect(res.statusCode).toBe(200);
    expect((await p.closed).code).toBe(WS_CLOSE_UNAUTHORIZED);
  });

  it('refuses an expired session', async () => {
    const token = await t.login('outsider', 'Outsider-Pass-1');
    t.clock.advance(SESSION_LIFETIME_MS + 60_000);
    try {
      expect((await probe(outsiderId, token).closed).code).toBe(WS_CLOSE_UNAUTHORIZED);
    } finally {
      t.clock.advance(-(SESSION_LIFETIME_MS + 60_000));
    }
  });
});

describe('device channels of the console websocket', () => {
  let t: TestContext;
  let base: string;
  let admin: { id: string; token: string };
  let api: Client;
  let r40: DeviceRef;
  let s27x: DeviceRef;
  let otherCompanyDevice: DeviceRef;
  const probes: Probe[] = [];
  const open = async (user: { id: string; token: string }) => {
    const p = new Probe(base, user.id, user.token);
    probes.push(p);
    await p.opened;
    return p;
  };
  const signIn = async (username: string, password: string, roleIds: string[]) => {
    const id = await t.createUser({ username, password, roleIds });
    return { id, token: await t.login(username, password) };
  };
  const live = (device: DeviceRef, status: 'online' | 'offline'): TDeviceLive => ({
    id: device.id,
    sn: device.sn,
    groupId: null,
    status,
    ip: status === 'online' ? '10.0.0.7' : null,
    series: 'R40',
    model: null,
    version: '1.2.3',
    lastSeenAt: new Date(t.clock.now).toISOString(),
    lastConnectAt: new Date(t.clock.now).toISOString(),
    lastDisconnectAt: null,
    disconnectReason: null,
    expectedRestart: null,
  });
  const addDevice = async (tokenId: string, sn: string, series: string): Promise<DeviceRef> => {
    const device = await api.ok('POST', '/device/device/add', { tokenId, sn, name: sn, series });
    return { id: device.id, companyId: PLATFORM_ID, sn, address: device.tagCode };
  };

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    base = `ws://127.0.0.1:${address.port}`;
    const adminId = (
      await t.db
        .selectFrom('sys_user')
        .select('id')
        .where('username', '=', 'admin')
        .executeTakeFirstOrThrow()
    ).id;
    admin = { id: adminId, token: await t.login('admin', ADMIN_PASSWORD) };
    api = client(t, admin.token);
    const token = await api.ok('POST', '/device/token/add', { name: 'live' });
    r40 = await addDevice(token.id, 'LIVE-R40', 'R40');
    s27x = await addDevice(token.id, 'LIVE-S27X', 'S27X');
    const otherCompany = await t.createCompany('elsewhere');
    const boss = await t.createUser({
      username: 'elsewhereboss',
      password: 'Elsewhere-Pass-1',
      companyId: otherCompany,
      roleIds: [await createRole(t, otherCompany, [...DEVICE_PAGES, ...DEVICE_BUTTONS])],
    });
    const bossApi = client(t, await t.login('elsewhereboss', 'Elsewhere-Pass-1'));
    const otherToken = await bossApi.ok('POST', '/device/token/add', { name: 'theirs' });
    const theirs = await bossApi.ok('POST', '/device/device/add', {
      tokenId: otherToken.id,
      sn: 'THEIRS-1',
      name: 'theirs',
      series: 'R40',
    });
    otherCompanyDevice = {
      id: theirs.id,
      companyId: otherCompany,
      sn: 'THEIRS-1',
      address: theirs.tagCode,
    };
    expect(boss).toMatch(/^[0-9a-f]{32}$/);
  });
  afterAll(async () => {
    for (const p of probes) p.socket.terminate();
    await t.close();
  });

  it('sends the status changes of the company’s devices to `devices`, and no other company’s', async () => {
    const p = await open(admin);
    expect(await p.subscribe('devices')).toEqual({ type: 'subscribed', channel: 'devices' });
    await t.bus.publish('device.live', {
      companyId: otherCompanyDevice.companyId,
      devices: [live(otherCompanyDevice, 'online')],
    });
    const mine = [live(r40, 'online'), live(s27x, 'offline')];
    await t.bus.publish('device.live', { companyId: PLATFORM_ID, devices: mine });
    await p.drained();
    expect(p.of('device-status')).toEqual([{ type: 'device-status', devices: mine }]);
  });

  it('refuses device channels to a user without device:list', async () => {
    const p = await open(await signIn('nodevices', 'No-Devices-Pass-1', []));
    expect(await p.subscribe('devices')).toEqual({
      type: 'subscribe-refused',
      channel: 'devices',
      reason: 'forbidden',
    });
    expect(await p.subscribe(`device:${r40.id}`)).toMatchObject({ reason: 'forbidden' });
    await t.bus.publish('device.live', { companyId: PLATFORM_ID, devices: [live(r40, 'online')] });
    await p.drained();
    expect(p.of('device-status')).toEqual([]);
  });

  it('sends a watched device’s telemetry, events and status, until unsubscribed', async () => {
    const p = await open(admin);
    expect(await p.subscribe(`device:${r40.id}`)).toEqual({
      type: 'subscribed',
      channel: `device:${r40.id}`,
    });
    const at = t.clock.now;
    t.app.deviceData.recordTelemetry(r40, { ts: at - 1000, values: { signal: -67, di1: 1 } }, at);
    t.app.deviceData.recordTelemetry(s27x, { values: { ain1: 3 } }, at);
    t.app.deviceData.recordEvent(
      r40,
      { level: 'alarm', code: 'di1.high', message: 'Input 1 high', source: 'device' },
      at,
    );
    await t.app.deviceData.flush();
    const telemetry = await p.next('device-telemetry');
    expect(telemetry).toEqual({
      type: 'device-telemetry',
      deviceId: r40.id,
      point: { ts: new Date(at - 1000).toISOString(), values: { signal: -67, di1: 1 } },
    });
    expect(await p.next('device-event')).toEqual({
      type: 'device-event',
      event: {
        id: expect.stringMatching(/^[0-9a-f]{32}$/),
        deviceId: r40.id,
        sn: 'LIVE-R40',
        ts: new Date(at).toISOString(),
        level: 'alarm',
        code: 'di1.high',
        message: 'Input 1 high',
        source: 'device',
        receivedAt: new Date(at).toISOString(),
      },
    });
    // Of a status batch, the watched device only.
    await t.bus.publish('device.live', {
      companyId: PLATFORM_ID,
      devices: [live(s27x, 'online'), live(r40, 'offline')],
    });
    expect(await p.next('device-status')).toEqual({
      type: 'device-status',
      devices: [live(r40, 'offline')],
    });
    await p.drained();
    expect(p.of('device-telemetry')).toHaveLength(1);

    p.send({ type: 'unsubscribe', channel: `device:${r40.id}` });
    // Processed in order: once this subscription is answered, the unsubscribe has happened.
    await p.subscribe(`device:${s27x.id}`);
    t.app.deviceData.recordTelemetry(r40, { values: { signal: -60 } }, at);
    t.app.deviceData.recordTelemetry(s27x, { values: { ain1: 4 } }, at);
    await t.app.deviceData.flush();
    await p.until((m) => m.type === 'device-telemetry' && m.deviceId === s27x.id);
    await t.bus.publish('device.live', { companyId: PLATFORM_ID, devices: [live(r40, 'online')] });
    await p.drained();
    expect(p.of('device-telemetry').map((m) => m.deviceId)).toEqual([r40.id, s27x.id]);
    expect(p.of('device-status')).toHaveLength(1);
  });

  it('sends a status change once to a socket on both `devices` and the device’s channel', async () => {
    const p = await open(admin);
    await p.subscribe('devices');
    await p.subscribe(`device:${r40.id}`);
    await t.bus.publish('device.live', { companyId: PLATFORM_ID, devices: [live(r40, 'online')] });
    await p.drained();
    expect(p.of('device-status')).toEqual([
      { type: 'device-status', devices: [live(r40, 'online')] },
    ]);
  });

  it('refuses a device hidden by the user’s data rules or of another company as not found', async () => {
    const onlyS27x = await createDataRule(t, 'device-list', {
      column: 'series',
      operator: 'EQ',
      value: 'S27X',
    });
    const role = await createRole(t, PLATFORM_ID, DEVICE_PAGES, { 'device-list': [onlyS27x] });
    const p = await open(await signIn('s27xonly', 'S27x-Only-Pass-1', [role]));
    expect(await p.subscribe(`device:${r40.id}`)).toEqual({
      type: 'subscribe-refused',
      channel: `device:${r40.id}`,
      reason: 'not-found',
    });
    expect(await p.subscribe(`device:${otherCompanyDevice.id}`)).toMatchObject({
      reason: 'not-found',
    });
    expect(await p.subscribe(`device:${s27x.id}`)).toMatchObject({ type: 'subscribed' });
  });

  it('sends `devices` only the status changes of devices the user’s data rules show, in order', async () => {
    const ownOnly = await createDataRule(t, 'device-list', {
      column: 'ownerId',
      operator: 'EQ',
      value: '#{sys_user_id}',
    });
    const role = await createRole(t, PLATFORM_ID, [...DEVICE_PAGES, ...DEVICE_BUTTONS], {
      'device-list': [ownOnly],
    });
    const owner = await signIn('ownonly', 'Own-Only-Pass-1', [role]);
    const ownerApi = client(t, owner.token);
    const token = await ownerApi.ok('POST', '/device/token/add', { name: 'own' });
    const own = await ownerApi.ok('POST', '/device/device/add', {
      tokenId: token.id,
      sn: 'OWN-1',
      name: 'own',
      series: 'R40',
    });
    const mine: DeviceRef = {
      id: own.id,
      companyId: PLATFORM_ID,
      sn: 'OWN-1',
      address: own.tagCode,
    };
    // Two tabs of the user, and an administrator.
    const tabs = [await open(owner), await open(owner)];
    const full = await open(admin);
    for (const p of [...tabs, full]) {
      expect(await p.subscribe('devices')).toEqual({ type: 'subscribed', channel: 'devices' });
    }

    const batches = [
      [live(r40, 'online')],
      [live(s27x, 'offline'), live(mine, 'online'), live(r40, 'offline')],
      [live(mine, 'offline')],
    ];
    for (const devices of batches) {
      await t.bus.publish('device.live', { companyId: PLATFORM_ID, devices });
    }
    for (const p of tabs) {
      await p.until((m) => m.type === 'device-status' && m.devices[0]?.status === 'offline');
      await p.drained();
      expect(p.of('device-status')).toEqual([
        { type: 'device-status', devices: [live(mine, 'online')] },
        { type: 'device-status', devices: [live(mine, 'offline')] },
      ]);
    }
    await full.drained();
    expect(full.of('device-status')).toEqual(
      batches.map((devices) => ({ type: 'device-status', devices })),
    );
  });

  it('applies data rules a user gains to the status changes their open `devices` gets', async () => {
    const role = await createRole(t, PLATFORM_ID, DEVICE_PAGES);
    const user = await signIn('narrowedlater', 'Narrowed-Later-Pass-1', [role]);
    const p = await open(user);
    await p.subscribe('devices');
    await t.bus.publish('device.live', { companyId: PLATFORM_ID, devices: [live(r40, 'online')] });
    await p.next('device-status');

    const onlyS27x = await createDataRule(t, 'device-list', {
      column: 'series',
      operator: 'EQ',
      value: 'S27X',
    });
    await t.db
      .updateTable('sys_role_permission')
      .set({ data_rule_ids: onlyS27x })
      .where('role_id', '=', role)
      .where('permission_id', '=', permissionId('device-list'))
      .execute();
    await t.bus.publish('auth.permissions-changed', { userId: user.id });
    // The socket is checked again in the background: once a batch comes filtered, it is done.
    const isS27xOnly = (m: TServerMessage) =>
      m.type === 'device-status' && m.devices.length === 1 && m.devices[0]?.id === s27x.id;
    const both = [live(r40, 'offline'), live(s27x, 'online')];
    for (let i = 0; i < 100 && !p.messages.some(isS27xOnly); i++) {
      await t.bus.publish('device.live', { companyId: PLATFORM_ID, devices: both });
      await new Promise((r) => setTimeout(r, 20));
    }
    const narrowedFrom = p.messages.findIndex(isS27xOnly);
    expect(narrowedFrom).toBeGreaterThan(0);
    await t.bus.publish('device.live', { companyId: PLATFORM_ID, devices: [live(r40, 'online')] });
    const last = [live(r40, 'online'), live(s27x, 'offline')];
    await t.bus.publish('device.live', { companyId: PLATFORM_ID, devices: last });
    await p.until((m) => isS27xOnly(m) && m.type === 'device-status' && !m.devices[0]?.ip);
    await p.drained();
    const since = p.messages
      .slice(narrowedFrom)
      .filter((m) => m.type === 'device-status')
      .flatMap((m) => m.devices);
    expect(since.map((d) => d.id)).not.toContain(r40.id);
    expect(since.at(-1)).toEqual(live(s27x, 'offline'));
  });

  it('refuses what is not a channel, and more device channels than the cap', async () => {
    const p = await open(admin);
    expect(await p.subscribe('everything')).toEqual({
      type: 'subscribe-refused',
      channel: 'everything',
      reason: 'invalid',
    });
    const token = await api.ok('POST', '/device/token/add', { name: 'many' });
    const many: DeviceRef[] = [];
    for (let i = 0; i <= MAX_DEVICE_CHANNELS; i++)
      many.push(await addDevice(token.id, `CAP-${i}`, 'R40'));
    for (const device of many.slice(0, MAX_DEVICE_CHANNELS)) {
      expect(await p.subscribe(`device:${device.id}`)).toMatchObject({ type: 'subscribed' });
    }
    const over = many[MAX_DEVICE_CHANNELS];
    expect(await p.subscribe(`device:${over?.id}`)).toMatchObject({ reason: 'invalid' });
    // Making room lets it in.
    p.send({ type: 'unsubscribe', channel: `device:${many[0]?.id}` });
    expect(await p.subscribe(`device:${over?.id}`)).toMatchObject({ type: 'subscribed' });
  });

  it('stops a socket’s device channels when its user loses device:list', async () => {
    const role = await createRole(t, PLATFORM_ID, DEVICE_PAGES);
    const user = await signIn('revoked', 'Revoked-Pass-1', [role]);
    const p = await open(user);
    await p.subscribe('devices');
    await p.subscribe(`device:${r40.id}`);
    await t.db.deleteFrom('sys_role_permission').where('role_id', '=', role).execute();
    await t.bus.publish('auth.permissions-changed', { userId: user.id });
    await p.until((m) => m.type === 'subscribe-refused' && m.channel === `device:${r40.id}`);
    expect(p.of('subscribe-refused')).toEqual([
      { type: 'subscribe-refused', channel: 'devices', reason: 'forbidden' },
      { type: 'subscribe-refused', channel: `device:${r40.id}`, reason: 'forbidden' },
    ]);
    await t.bus.publish('device.live', { companyId: PLATFORM_ID, devices: [live(r40, 'online')] });
    await p.drained();
    expect(p.of('device-status')).toEqual([]);
  });
});

describe('configuration, commands and campaigns on the console websocket', () => {
  let t: TestContext;
  let base: string;
  let admin: { id: string; token: string };
  let r40: DeviceRef;
  let s27x: DeviceRef;
  let otherCompany: string;
  const probes: Probe[] = [];
  const open = async (user: { id: string; token: string }) => {
    const p = new Probe(base, user.id, user.token);
    probes.push(p);
    await p.opened;
    return p;
  };
  const signIn = async (username: string, password: string, roleIds: string[]) => {
    const id = await t.createUser({ username, password, roleIds });
    return { id, token: await t.login(username, password) };
  };
  const configState = (device: DeviceRef): TDeviceConfigState => ({
    deviceId: device.id,
    series: 'R40',
    desired: {
      version: 3,
      config: { heartbeatSec: 30 },
      changedBy: 'admin',
      changedAt: new Date(t.clock.now).toISOString(),
    },
    reported: null,
    state: 'pending',
    failure: null,
    sentAt: null,
  });
  const command = (device: DeviceRef): TDeviceCommand => ({
    id: newId(),
    deviceId: device.id,
    sn: device.sn,
    method: 'ping',
    params: null,
    timeoutSec: 30,
    state: 'succeeded',
    result: { pong: true },
    error: null,
    createBy: 'admin',
    createTime: new Date(t.clock.now).toISOString(),
    replyTime: new Date(t.clock.now).toISOString(),
    lateReply: null,
  });
  const progress = (): TCampaignProgress => ({
    id: newId(),
    state: 'running',
    pausedReason: null,
    currentWave: 0,
    gate: null,
    gateUntil: null,
    thresholdWave: null,
    waveDeadline: null,
    total: 200,
    counts: Object.fromEntries(
      CAMPAIGN_DEVICE_STATES.map((s) => [s, s === 'queued' ? 200 : 0]),
    ) as TCampaignProgress['counts'],
    waitingOffline: 0,
    endTime: null,
  });

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    base = `ws://127.0.0.1:${address.port}`;
    const adminId = (
      await t.db
        .selectFrom('sys_user')
        .select('id')
        .where('username', '=', 'admin')
        .executeTakeFirstOrThrow()
    ).id;
    admin = { id: adminId, token: await t.login('admin', ADMIN_PASSWORD) };
    const api = client(t, admin.token);
    const token = await api.ok('POST', '/device/token/add', { name: 'remote' });
    const add = async (sn: string, series: string): Promise<DeviceRef> => {
      const device = await api.ok('POST', '/device/device/add', {
        tokenId: token.id,
        sn,
        name: sn,
        series,
      });
      return { id: device.id, companyId: PLATFORM_ID, sn, address: device.tagCode };
    };
    r40 = await add('REMOTE-R40', 'R40');
    s27x = await add('REMOTE-S27X', 'S27X');
    otherCompany = await t.createCompany('campaignsother');
  });
  afterAll(async () => {
    for (const p of probes) p.socket.terminate();
    await t.close();
  });

  it('sends a watched device’s configuration state and commands, and no other device’s', async () => {
    const p = await open(admin);
    await p.subscribe(`device:${r40.id}`);
    const mine = command(r40);
    await t.bus.publish('device.config', { companyId: PLATFORM_ID, config: configState(s27x) });
    await t.bus.publish('device.command', { companyId: PLATFORM_ID, command: command(s27x) });
    await t.bus.publish('device.config', { companyId: PLATFORM_ID, config: configState(r40) });
    await t.bus.publish('device.command', { companyId: PLATFORM_ID, command: mine });
    await p.drained();
    expect(p.of('device-config')).toEqual([{ type: 'device-config', config: configState(r40) }]);
    expect(p.of('device-command')).toEqual([{ type: 'device-command', command: mine }]);
  });

  it('sends the progress of the company’s campaigns to `campaigns`, with campaign:list only', async () => {
    const p = await open(admin);
    expect(await p.subscribe('campaigns')).toEqual({ type: 'subscribed', channel: 'campaigns' });
    const mine = progress();
    await t.bus.publish('campaign.progress', { companyId: otherCompany, campaign: progress() });
    await t.bus.publish('campaign.progress', { companyId: PLATFORM_ID, campaign: mine });
    await p.drained();
    expect(p.of('campaign-progress')).toEqual([{ type: 'campaign-progress', campaign: mine }]);

    // Unsubscribed: nothing more.
    p.send({ type: 'unsubscribe', channel: 'campaigns' });
    await p.subscribe(`device:${r40.id}`);
    await t.bus.publish('campaign.progress', { companyId: PLATFORM_ID, campaign: progress() });
    await p.drained();
    expect(p.of('campaign-progress')).toHaveLength(1);

    const devicesOnly = await open(
      await signIn('nocampaigns', 'No-Campaigns-Pass-1', [
        await createRole(t, PLATFORM_ID, ['device', 'device-list']),
      ]),
    );
    expect(await devicesOnly.subscribe('campaigns')).toEqual({
      type: 'subscribe-refused',
      channel: 'campaigns',
      reason: 'forbidden',
    });
    await t.bus.publish('campaign.progress', { companyId: PLATFORM_ID, campaign: progress() });
    await devicesOnly.drained();
    expect(devicesOnly.of('campaign-progress')).toEqual([]);
  });

  it('stops `campaigns` when its user loses campaign:list', async () => {
    const role = await createRole(t, PLATFORM_ID, ['device', 'device-campaign']);
    const user = await signIn('campaignwatcher', 'Campaign-Watcher-Pass-1', [role]);
    const p = await open(user);
    expect(await p.subscribe('campaigns')).toMatchObject({ type: 'subscribed' });
    await t.bus.publish('campaign.progress', { companyId: PLATFORM_ID, campaign: progress() });
    await p.next('campaign-progress');

    await t.db.deleteFrom('sys_role_permission').where('role_id', '=', role).execute();
    await t.bus.publish('auth.permissions-changed', { userId: user.id });
    expect(await p.until((m) => m.type === 'subscribe-refused')).toEqual({
      type: 'subscribe-refused',
      channel: 'campaigns',
      reason: 'forbidden',
    });
    await t.bus.publish('campaign.progress', { companyId: PLATFORM_ID, campaign: progress() });
    await p.drained();
    expect(p.of('campaign-progress')).toHaveLength(1);
  });
});

// Runs where a Redis server is reachable: REDIS_URL=redis://127.0.0.1:6379 npx vitest run ...
describe.skipIf(!process.env.REDIS_URL)('console websocket across nodes (Redis)', () => {
  let t: TestContext;
  let otherNode: Bus;
  let socket: Probe | undefined;

  beforeAll(async () => {
    const log = pino({ level: 'silent' });
    const bus = await RedisBus.connect(process.env.REDIS_URL ?? '', log);
    otherNode = await RedisBus.connect(process.env.REDIS_URL ?? '', log);
    t = await createTestApp({ app: { bus } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    socket?.socket.terminate();
    await otherNode.close();
    await t.close();
  });

  it('delivers a publish made on another node to the sockets of this node', async () => {
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const userId = await t.createUser({ username: 'remote', password: 'Remote-Pass-1' });
    const token = await t.login('remote', 'Remote-Pass-1');
    socket = new Probe(`ws://127.0.0.1:${address.port}`, userId, token);
    await socket.opened;
    await otherNode.publish('notice.delivered', {
      companyId: 'c'.repeat(32),
      userIds: [userId],
      msgId: 'a'.repeat(32),
      msgTxt: { 'zh-CN': '来自节点 B', 'en-US': 'From node B' },
      cmd: 'publish',
    });
    expect(await socket.next('user')).toMatchObject({ msgTxt: '来自节点 B' });
  });

  it('delivers device status changes made on another node to `devices` on this node', async () => {
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const adminId = (
      await t.db
        .selectFrom('sys_user')
        .select('id')
        .where('username', '=', 'admin')
        .executeTakeFirstOrThrow()
    ).id;
    const fleet = new Probe(
      `ws://127.0.0.1:${address.port}`,
      adminId,
      await t.login('admin', ADMIN_PASSWORD),
    );
    await fleet.opened;
    try {
      expect(await fleet.subscribe('devices')).toMatchObject({ type: 'subscribed' });
      const device: TDeviceLive = {
        id: 'd'.repeat(32),
        sn: 'REMOTE-1',
        groupId: null,
        status: 'online',
        ip: null,
        series: 'R40',
        model: null,
        version: null,
        lastSeenAt: null,
        lastConnectAt: null,
        lastDisconnectAt: null,
        disconnectReason: null,
        expectedRestart: null,
      };
      await otherNode.publish('device.live', { companyId: PLATFORM_ID, devices: [device] });
      expect(await fleet.next('device-status')).toEqual({
        type: 'device-status',
        devices: [device],
      });
    } finally {
      fleet.socket.terminate();
    }
  });
});
