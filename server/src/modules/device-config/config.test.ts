import {
  CONFIG_DEFAULTS,
  downTopic,
  type TDeviceConfigState,
  type TDeviceLog,
  type TR40Config,
} from '@blrms/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_PASSWORD, PLATFORM_ID, createTestApp, type TestContext } from '../../test/app.js';
import { DEVICE_PAGES, client, createRole, type Client } from '../../test/devices.js';
import {
  expectDevice,
  uniqueSn,
  credentialOf,
  type TokenCredential,
} from '../../test/mqtt-devices.js';
import { RemoteDevice } from '../../test/remote-device.js';
import type { ConfigOutcome } from './config.service.js';

const R40 = CONFIG_DEFAULTS.R40 as TR40Config;
const withHeartbeat = (heartbeatSec: number): TR40Config => ({ ...R40, heartbeatSec });

describe('remote configuration', () => {
  let t: TestContext;
  let admin: Client;
  let url: string;
  let key: TokenCredential;
  let tokenId: string;
  const devices: RemoteDevice[] = [];
  const published: TDeviceConfigState[] = [];
  const outcomes: ConfigOutcome[] = [];

  /** A device registered through the API (offline until it connects). */
  async function register(series: 'R40' | 'BL10X' | 'S27X' = 'R40') {
    const sn = uniqueSn('CFG');
    const added = await admin.ok('POST', '/device/device/add', { tokenId, sn, name: sn, series });
    const device = new RemoteDevice(url, sn, key, series);
    devices.push(device);
    return { id: added.id as string, device };
  }

  async function online(device: RemoteDevice) {
    await device.connect();
    await expectDevice(admin, device.sn, { status: 'online' });
  }

  async function offline(device: RemoteDevice) {
    await device.disconnect();
    await expectDevice(admin, device.sn, { status: 'offline' });
  }

  const state = (id: string): Promise<TDeviceConfigState> =>
    admin.ok('GET', `/device/config?deviceId=${id}`);

  /** Waits until the state matches (`toMatchObject`: nested objects in part). */
  async function settled(id: string, expected: Record<string, unknown>) {
    let last: TDeviceConfigState | undefined;
    await vi.waitFor(
      async () => {
        last = await state(id);
        expect(last).toMatchObject(expected);
      },
      { timeout: 3000, interval: 25 },
    );
    return last as TDeviceConfigState;
  }

  async function pushLogs(id: string): Promise<TDeviceLog[]> {
    const page = await admin.ok(
      'GET',
      `/device/log/list?deviceId=${id}&subject=Configuration&order=asc&pageSize=100`,
    );
    return page.records;
  }

  /**
   * The push entries once they are in these states: a state is announced and logged just after
   * the device's answer is stored, so the API may show it first.
   */
  async function logsIn(id: string, states: string[]): Promise<TDeviceLog[]> {
    let logs: TDeviceLog[] = [];
    await vi.waitFor(
      async () => {
        logs = await pushLogs(id);
        expect(logs.map((l) => l.state)).toEqual(states);
      },
      { timeout: 3000, interval: 25 },
    );
    return logs;
  }

  const set = (id: string, baseVersion: number, config: object) =>
    admin.put('/device/config', { deviceId: id, baseVersion, config });

  beforeAll(async () => {
    t = await createTestApp({ app: { mqtt: { port: 0 } } });
    admin = client(t, await t.login('admin', ADMIN_PASSWORD));
    url = `mqtt://127.0.0.1:${t.app.deviceGateway.port}`;
    const token = await admin.ok('POST', '/device/token/add', { name: 'Config' });
    key = credentialOf(token);
    tokenId = token.id;
    t.bus.subscribe('device.config', ({ config }) => published.push(config));
    t.app.deviceConfigs.onOutcome((o) => outcomes.push(o));
  });
  afterEach(async () => {
    await Promise.all(devices.splice(0).map((d) => d.disconnect()));
  });
  afterAll(() => t.close());

  it('sends a change to an online device, which applies it; state, history and log show it', async () => {
    const { id, device } = await register();
    await online(device);
    expect(await state(id)).toEqual({
      deviceId: id,
      series: 'R40',
      desired: null,
      reported: null,
      state: 'none',
      error: null,
      sentAt: null,
    });

    const res = await set(id, 0, withHeartbeat(30));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Configuration saved and sent',
      result: { state: 'pending', desired: { version: 1, changedBy: 'admin' } },
    });
    const applied = await settled(id, { state: 'applied' });
    expect(device.of('config')).toEqual([
      { kind: 'config', id: undefined, payload: { version: 1, config: withHeartbeat(30) } },
    ]);
    expect(applied).toEqual({
      deviceId: id,
      series: 'R40',
      desired: {
        version: 1,
        config: withHeartbeat(30),
        changedBy: 'admin',
        changedAt: new Date(t.clock.now).toISOString(),
      },
      reported: {
        version: 1,
        config: withHeartbeat(30),
        reportedAt: expect.any(String),
      },
      state: 'applied',
      error: null,
      sentAt: new Date(t.clock.now).toISOString(),
    });
    // The console's sockets heard every step, the answer after the push.
    await vi.waitFor(() =>
      expect(published.filter((p) => p.deviceId === id).map((p) => p.state)).toEqual([
        'pending',
        'applied',
      ]),
    );

    t.clock.advance(1000);
    const second = await set(id, 1, { ...withHeartbeat(45), wan: { ...R40.wan, apn: 'iot' } });
    expect(second.statusCode).toBe(200);
    await settled(id, { state: 'applied', reported: { version: 2 } });
    const history = await admin.ok('GET', `/device/config/history?deviceId=${id}`);
    expect(history).toMatchObject({ total: 2, current: 1 });
    expect(history.records).toEqual([
      {
        version: 2,
        config: { ...withHeartbeat(45), wan: { ...R40.wan, apn: 'iot' } },
        changedPaths: ['wan.apn', 'heartbeatSec'],
        changedBy: 'admin',
        changedAt: new Date(t.clock.now).toISOString(),
        campaignId: null,
      },
      expect.objectContaining({ version: 1, changedPaths: ['heartbeatSec'] }),
    ]);

    const logs = await logsIn(id, ['succeeded', 'succeeded']);
    expect(logs[0]).toMatchObject({
      sn: device.sn,
      requestUrl: downTopic(device.address, 'config'),
      sourceUser: 'admin',
      targetUser: 'admin',
      subject: 'Configuration pushed',
      sourceIp: '127.0.0.1',
      state: 'succeeded',
    });
    // Secrets are masked in the log, which readers without the configuration may see.
    expect(JSON.parse(logs[0]?.content ?? '')).toEqual({
      version: 1,
      config: { ...withHeartbeat(30), wifi: { ...R40.wifi, password: '******' } },
    });
    expect(logs[1]).toMatchObject({ state: 'succeeded' });
    const zh = client(t, admin.headers['x-access-token'], 'zh-CN');
    const zhLogs = await zh.ok('GET', `/device/log/list?deviceId=${id}&pageSize=1`);
    expect(zhLogs.records[0].subject).toBe('下发配置');
  });

  it('keeps a change for an offline device and sends it when the device comes online', async () => {
    const { id, device } = await register();
    const res = await set(id, 0, withHeartbeat(90));
    expect(res.json()).toMatchObject({
      message: 'Configuration saved; the device gets it when it comes online',
      result: { state: 'pending', sentAt: null },
    });
    expect(await pushLogs(id)).toEqual([
      expect.objectContaining({ state: 'pending', sourceUser: 'admin', sourceIp: '127.0.0.1' }),
    ]);

    await device.connect();
    await settled(id, { state: 'applied', reported: { version: 1 } });
    expect(device.version).toBe(1);
    expect(device.config).toEqual(withHeartbeat(90));
    // The waiting entry is the push: sent, then succeeded.
    expect(await logsIn(id, ['succeeded'])).toEqual([
      expect.objectContaining({ state: 'succeeded', sourceUser: 'admin' }),
    ]);
  });

  it('sends again after a reconnect when the device did not report the version', async () => {
    const { id, device } = await register();
    device.configMode = 'silent';
    await online(device);
    await set(id, 0, withHeartbeat(120));
    await vi.waitFor(() => expect(device.of('config')).toHaveLength(1));
    await offline(device);
    expect((await state(id)).state).toBe('pending');

    device.configMode = 'apply';
    t.clock.advance(1000);
    await device.connect();
    await settled(id, { state: 'applied', reported: { version: 1 } });
    expect(device.of('config').map((d) => d.payload)).toEqual([
      { version: 1, config: withHeartbeat(120) },
      { version: 1, config: withHeartbeat(120) },
    ]);
    const logs = await logsIn(id, ['timeout', 'succeeded']);
    expect(logs.map((l) => [l.state, l.sourceUser, l.sourceIp])).toEqual([
      ['timeout', 'admin', '127.0.0.1'],
      ['succeeded', 'admin', null],
    ]);

    // Applied: a further reconnect sends nothing.
    await offline(device);
    await online(device);
    await new Promise((r) => setTimeout(r, 200));
    expect(device.of('config')).toHaveLength(2);
  });

  it('shows a refusal as failed with the device’s error, and does not send it again', async () => {
    const { id, device } = await register();
    device.configMode = 'refuse';
    await online(device);
    await set(id, 0, withHeartbeat(300));
    const failed = await settled(id, { state: 'failed' });
    expect(failed).toMatchObject({
      error: 'wifi.channel: not supported by this radio',
      desired: { version: 1 },
      // What the device kept.
      reported: { version: 0, config: R40 },
    });
    const [log] = await logsIn(id, ['failed']);
    expect(JSON.parse(log?.content ?? '')).toMatchObject({
      version: 1,
      error: 'wifi.channel: not supported by this radio',
    });
    await vi.waitFor(() =>
      expect(outcomes).toContainEqual({
        deviceId: id,
        version: 1,
        campaignId: null,
        ok: false,
        error: 'wifi.channel: not supported by this radio',
      }),
    );

    await offline(device);
    await online(device);
    await new Promise((r) => setTimeout(r, 200));
    expect(device.of('config')).toHaveLength(1);

    // A new change goes out.
    device.configMode = 'apply';
    expect((await set(id, 1, withHeartbeat(60))).statusCode).toBe(200);
    await settled(id, { state: 'applied', error: null, reported: { version: 2 } });
  });

  it('refuses a value outside the series’ schema with 400 naming the field, storing and sending nothing', async () => {
    const { id, device } = await register();
    await online(device);
    const res = await set(id, 0, { ...R40, wifi: { ...R40.wifi, password: 'short' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^config\.wifi\.password: /);
    const zh = client(t, admin.headers['x-access-token'], 'zh-CN');
    const zhRes = await zh.put('/device/config', {
      deviceId: id,
      baseVersion: 0,
      config: { ...R40, lan: { ...R40.lan, ip: '300.1.1.1' } },
    });
    expect(zhRes.statusCode).toBe(400);
    expect(zhRes.json().message).toMatch(/^config\.lan\.ip: 不符合 R40 的配置要求/);
    // An unknown key is refused too (the device would not know it).
    expect((await set(id, 0, { ...R40, telnet: true })).statusCode).toBe(400);

    // The device's series decides: an R40 configuration is no S27X configuration.
    const s27x = await register('S27X');
    const wrongSeries = await set(s27x.id, 0, withHeartbeat(30));
    expect(wrongSeries.statusCode).toBe(400);
    expect(wrongSeries.json().message).toMatch(/^config\./);

    await new Promise((r) => setTimeout(r, 100));
    expect(device.downlinks).toEqual([]);
    expect(await state(id)).toMatchObject({ state: 'none', desired: null });
    expect((await admin.ok('GET', `/device/config/history?deviceId=${id}`)).total).toBe(0);
    expect(await pushLogs(id)).toEqual([]);
  });

  it('refuses a change made from a stale version with 409', async () => {
    const { id } = await register();
    expect((await set(id, 0, withHeartbeat(30))).statusCode).toBe(200);
    const stale = await set(id, 0, withHeartbeat(40));
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toMatch(/^baseVersion: .*version 1/);
    expect((await set(id, 2, withHeartbeat(40))).statusCode).toBe(409);
    expect((await state(id)).desired).toMatchObject({ version: 1, config: withHeartbeat(30) });
  });

  it('hides another company’s device (404) and needs device:config to change one', async () => {
    const acme = await admin.ok('POST', '/sys/company/add', {
      name: 'Acme config',
      code: 'acmecfg',
      admin: { username: 'acmecfg', realname: 'Acme', password: 'Acme-Config-Pass-1' },
    });
    const acmeAdmin = client(t, await t.login('acmecfg', 'Acme-Config-Pass-1'));
    const acmeToken = await acmeAdmin.ok('POST', '/device/token/add', { name: 'acme' });
    const theirs = await acmeAdmin.ok('POST', '/device/device/add', {
      tokenId: acmeToken.id,
      sn: uniqueSn('ACME'),
      name: 'theirs',
      series: 'R40',
    });
    expect(acme.id).toMatch(/^[0-9a-f]{32}$/);
    expect((await admin.get(`/device/config?deviceId=${theirs.id}`)).statusCode).toBe(404);
    expect((await set(theirs.id, 0, withHeartbeat(30))).statusCode).toBe(404);
    expect((await admin.get(`/device/config/history?deviceId=${theirs.id}`)).statusCode).toBe(404);
    // Their own administrator reaches it.
    expect(
      (
        await acmeAdmin.put('/device/config', {
          deviceId: theirs.id,
          baseVersion: 0,
          config: withHeartbeat(30),
        })
      ).statusCode,
    ).toBe(200);

    const { id } = await register();
    const viewerRole = await createRole(t, PLATFORM_ID, DEVICE_PAGES);
    await t.createUser({
      username: 'cfgviewer',
      password: 'Cfg-Viewer-Pass-1',
      roleIds: [viewerRole],
    });
    const viewer = client(t, await t.login('cfgviewer', 'Cfg-Viewer-Pass-1'));
    expect((await viewer.get(`/device/config?deviceId=${id}`)).statusCode).toBe(200);
    expect(
      (await viewer.put('/device/config', { deviceId: id, baseVersion: 0, config: R40 }))
        .statusCode,
    ).toBe(403);
  });

  it('serves the JSON Schema of every series', async () => {
    const schemas = await admin.ok('GET', '/device/config/schemas');
    expect(Object.keys(schemas).sort()).toEqual(['BL10X', 'R40', 'S27X']);
    expect(schemas.R40).toMatchObject({
      type: 'object',
      properties: { wifi: { properties: { password: { format: 'password' } } } },
    });
  });

  it('applies a campaign’s patch on top of the desired configuration and reports the outcome', async () => {
    const { id, device } = await register();
    await online(device);
    await set(id, 0, withHeartbeat(30));
    await settled(id, { state: 'applied' });
    const ref = { id, companyId: PLATFORM_ID, sn: device.sn, series: 'R40' };
    const campaignId = 'c'.repeat(32);
    const result = await t.app.deviceConfigs.applyPatch(
      ref,
      { wifi: { ssid: 'plant-7' } },
      'admin',
      campaignId,
    );
    expect(result).toEqual({ version: 2 });
    await settled(id, { state: 'applied', reported: { version: 2 } });
    expect(device.config).toEqual({ ...withHeartbeat(30), wifi: { ...R40.wifi, ssid: 'plant-7' } });
    await vi.waitFor(() =>
      expect(outcomes).toContainEqual({
        deviceId: id,
        version: 2,
        campaignId,
        ok: true,
        error: null,
      }),
    );
    const history = await admin.ok('GET', `/device/config/history?deviceId=${id}&pageSize=1`);
    expect(history.records[0]).toMatchObject({ changedPaths: ['wifi.ssid'], campaignId });

    // A patch the schema refuses names the field and changes nothing.
    expect(
      await t.app.deviceConfigs.applyPatch(ref, { heartbeatSec: 5 }, 'admin', campaignId),
    ).toEqual({ error: expect.stringMatching(/^heartbeatSec: /) });
    expect((await state(id)).desired?.version).toBe(2);
  });
});
