import {
  CONFIG_DEFAULTS,
  SECRET_MASK,
  downTopic,
  maskSecrets,
  upTopic,
  type TDeviceCommand,
  type TDeviceConfigState,
  type TDeviceLog,
  type TR40Config,
} from '@blrms/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ADMIN_PASSWORD,
  PLATFORM_ID,
  createTestApp,
  type TestContext,
  fieldText,
} from '../../test/app.js';
import { campaignDevices, createCampaign, expectCampaign } from '../../test/campaign.js';
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
/** How the API shows an R40 configuration: its passwords masked. */
const shown = (config: TR40Config) => maskSecrets('R40', config);
/** What an R40 in the field runs: nothing like the factory settings. */
const FIELD_R40: TR40Config = {
  wan: { mode: 'lte', apn: 'plant.apn', apnUser: 'plant', apnPassword: 'apn-secret-7' },
  lan: {
    ip: '10.7.0.1',
    netmask: '255.255.0.0',
    dhcp: false,
    dhcpStart: '10.7.0.100',
    dhcpEnd: '10.7.0.200',
  },
  wifi: { enabled: true, ssid: 'Plant-7', password: 'wifi-secret-7', channel: 6 },
  heartbeatSec: 300,
};

describe('remote configuration', () => {
  let t: TestContext;
  let admin: Client;
  let url: string;
  let key: TokenCredential;
  let tokenId: string;
  const devices: RemoteDevice[] = [];
  const published: TDeviceConfigState[] = [];
  const outcomes: Omit<ConfigOutcome, 'companyId'>[] = [];

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
    t.app.deviceConfigs.onOutcome(({ companyId: _companyId, ...o }) => outcomes.push(o));
  });
  afterEach(async () => {
    await Promise.all(devices.splice(0).map((d) => d.disconnect()));
  });
  afterAll(() => t.close());

  it('sends a change to an online device, which applies it; state, history and log show it', async () => {
    const { id, device } = await register();
    await online(device);
    // It reported what it runs when it came online.
    const booted = await settled(id, { reported: { version: 0 } });
    expect(booted).toEqual({
      deviceId: id,
      series: 'R40',
      desired: null,
      reported: { version: 0, config: shown(R40), reportedAt: expect.any(String) },
      state: 'none',
      failure: null,
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
        config: shown(withHeartbeat(30)),
        changedBy: 'admin',
        changedAt: new Date(t.clock.now).toISOString(),
      },
      reported: {
        version: 1,
        config: shown(withHeartbeat(30)),
        reportedAt: expect.any(String),
      },
      state: 'applied',
      failure: null,
      sentAt: new Date(t.clock.now).toISOString(),
    });
    // The console's sockets heard every step (the boot report first), the answer after the push.
    await vi.waitFor(() =>
      expect(published.filter((p) => p.deviceId === id).map((p) => p.state)).toEqual([
        'none',
        'pending',
        'applied',
      ]),
    );
    // What the boot report announced is the state as stored, secrets masked.
    expect(published.find((p) => p.deviceId === id)).toEqual(booted);

    t.clock.advance(1000);
    const second = await set(id, 1, { ...withHeartbeat(45), wan: { ...R40.wan, apn: 'iot' } });
    expect(second.statusCode).toBe(200);
    await settled(id, { state: 'applied', reported: { version: 2 } });
    const history = await admin.ok('GET', `/device/config/history?deviceId=${id}`);
    expect(history).toMatchObject({ total: 2, current: 1 });
    expect(history.records).toEqual([
      {
        version: 2,
        config: shown({ ...withHeartbeat(45), wan: { ...R40.wan, apn: 'iot' } }),
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
      config: { ...withHeartbeat(30), wifi: { ...R40.wifi, password: SECRET_MASK } },
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

  it('sends a version still unanswered again to the devices this node holds when the bus returns after a gap', async () => {
    const { id, device } = await register();
    device.configMode = 'silent';
    await online(device);
    const other = await register();
    await online(other.device);
    await set(id, 0, withHeartbeat(90));
    await vi.waitFor(() => expect(device.of('config')).toHaveLength(1));

    // Another node's push may not have left during the gap: the node holding the device sends it.
    device.configMode = 'apply';
    await t.bus.publish('bus.resumed', { gapMs: 5000 });
    await settled(id, { state: 'applied', reported: { version: 1 } });
    expect(device.of('config').map((d) => d.payload)).toEqual([
      { version: 1, config: withHeartbeat(90) },
      { version: 1, config: withHeartbeat(90) },
    ]);
    // Nothing waits on the other device: it gets nothing.
    expect(other.device.of('config')).toEqual([]);
  });

  it('sends the desired version again at once to a device that comes back from a factory reset', async () => {
    const { id, device } = await register();
    await online(device);
    await set(id, 0, withHeartbeat(30));
    await settled(id, { state: 'applied', reported: { version: 1 } });
    await offline(device);
    device.version = 0;
    device.config = structuredClone(R40);
    await online(device);
    // Its report at boot says it runs v0: the platform sends v1 again on this connection.
    await vi.waitFor(() => expect(device.of('config')).toHaveLength(2));
    await settled(id, { state: 'applied', reported: { version: 1 } });
    expect(device.of('config').map((d) => d.payload)).toEqual([
      { version: 1, config: withHeartbeat(30) },
      { version: 1, config: withHeartbeat(30) },
    ]);
    expect(device.config).toEqual(withHeartbeat(30));
  });

  it('shows a refusal as the protocol words it (the version kept) as failed with the device’s reason, at once', async () => {
    const { id, device } = await register();
    device.configMode = 'refuse';
    await online(device);
    await settled(id, { reported: { version: 0 } });
    await set(id, 0, withHeartbeat(300));
    const failed = await settled(id, { state: 'failed' });
    expect(failed).toMatchObject({
      failure: { code: 'device-refused', reason: 'wifi.channel: not supported by this radio' },
      desired: { version: 1 },
      // What the device kept.
      reported: { version: 0, config: shown(R40) },
    });
    expect(device.of('config')).toHaveLength(1);
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
    expect((await state(id)).state).toBe('failed');

    // A new change goes out.
    device.configMode = 'apply';
    expect((await set(id, 1, withHeartbeat(60))).statusCode).toBe(200);
    await settled(id, { state: 'applied', failure: null, reported: { version: 2 } });
  });

  it('takes a refusal that echoes the refused version too, keeping the version the device runs', async () => {
    const { id, device } = await register();
    device.configMode = 'silent';
    await online(device);
    await settled(id, { reported: { version: 0 } });
    await set(id, 0, withHeartbeat(300));
    await vi.waitFor(() => expect(device.of('config')).toHaveLength(1));
    await device.publish(upTopic(device.address, 'config/reported'), {
      version: 1,
      config: R40,
      result: 'error',
      error: 'heartbeatSec: too slow',
    });
    expect(await settled(id, { state: 'failed' })).toMatchObject({
      failure: { code: 'device-refused', reason: 'heartbeatSec: too slow' },
      reported: { version: 0 },
    });
  });

  it('fails a push an online device leaves unanswered past its deadline, so that a campaign finishes', async () => {
    const { id, device } = await register();
    device.configMode = 'silent';
    await online(device);
    await settled(id, { reported: { version: 0 } });
    await set(id, 0, withHeartbeat(120));
    await vi.waitFor(() => expect(device.of('config')).toHaveLength(1));
    t.clock.advance(59_000);
    await t.app.deviceConfigs.sweepUnanswered();
    expect((await state(id)).state).toBe('pending');
    t.clock.advance(1000);
    await t.app.deviceConfigs.sweepUnanswered();
    expect(await state(id)).toMatchObject({
      state: 'failed',
      failure: { code: 'no-answer', afterSec: 60 },
    });
    expect(await logsIn(id, ['timeout'])).toEqual([
      expect.objectContaining({ content: expect.stringContaining('no answer within 60 s') }),
    ]);
    // The campaign engine hears it as it hears a refusal.
    await vi.waitFor(() =>
      expect(outcomes).toContainEqual({
        deviceId: id,
        version: 1,
        campaignId: null,
        ok: false,
        error: 'no answer within 60 s',
      }),
    );
    // Failed, it is not sent again.
    await offline(device);
    await online(device);
    await new Promise((r) => setTimeout(r, 200));
    expect(device.of('config')).toHaveLength(1);
  });

  it('finishes a bulk configuration whose device never answers, the device failed for no answer', async () => {
    const { id, device } = await register();
    device.configMode = 'silent';
    await online(device);
    await settled(id, { reported: { version: 0 } });
    const campaign = await createCampaign(admin, {
      name: 'Silent heartbeat',
      kind: 'config',
      series: 'R40',
      configPatch: { heartbeatSec: 45 },
      target: { deviceIds: [id] },
    });
    await t.app.campaignEngine.tick();
    await vi.waitFor(() => expect(device.of('config')).toHaveLength(1));
    t.clock.advance(60_000);
    await t.app.deviceConfigs.sweepUnanswered();
    await t.app.campaignEngine.tick();
    // Its only device failed: the campaign says so rather than "completed".
    await expectCampaign(admin, campaign.id, { state: 'failed', counts: { failed: 1 } });
    expect((await campaignDevices(admin, campaign.id)).get(device.sn)).toMatchObject({
      state: 'failed',
      error: 'no answer within 60 s',
    });
  });

  it('runs a push’s clock only while the device is online on the connection that got it', async () => {
    // Offline: the change waits, however long.
    const { id, device } = await register();
    device.configMode = 'silent';
    await set(id, 0, withHeartbeat(120));
    t.clock.advance(120_000);
    await t.app.deviceConfigs.sweepUnanswered();
    expect((await state(id)).state).toBe('pending');

    // Sent, then the device went away: it gets the change again when it is back, with a new
    // deadline.
    await online(device);
    await vi.waitFor(() => expect(device.of('config')).toHaveLength(1));
    await offline(device);
    t.clock.advance(120_000);
    await t.app.deviceConfigs.sweepUnanswered();
    expect((await state(id)).state).toBe('pending');
    device.configMode = 'apply';
    await online(device);
    await settled(id, { state: 'applied', reported: { version: 1 } });
    expect(device.of('config')).toHaveLength(2);
  });

  it('sends a device that never reported only the fields someone set, as a patch it merges', async () => {
    const { id, device } = await register();
    // Firmware that does not report at boot: the platform knows nothing of what it runs.
    device.reportsAtBoot = false;
    device.config = FIELD_R40;
    await online(device);
    const ref = { id, companyId: PLATFORM_ID, sn: device.sn, series: 'R40' };
    const campaignId = 'd'.repeat(32);
    expect(
      await t.app.deviceConfigs.applyPatch(ref, { heartbeatSec: 120 }, 'admin', campaignId),
    ).toEqual({ version: 1 });
    await settled(id, { state: 'applied', reported: { version: 1 } });
    expect(device.of('config').map((d) => d.payload)).toEqual([
      { version: 1, patch: { heartbeatSec: 120 } },
    ]);
    // It kept its APN, Wi-Fi and LAN: no factory settings reached it.
    expect(device.config).toEqual({ ...FIELD_R40, heartbeatSec: 120 });
    expect(await state(id)).toMatchObject({
      desired: { version: 1, config: { heartbeatSec: 120 } },
      reported: { version: 1, config: shown({ ...FIELD_R40, heartbeatSec: 120 }) },
    });

    // Once it reported, a change of one field carries the whole configuration it runs.
    expect((await set(id, 1, { wan: { apn: 'iot.apn' } })).statusCode).toBe(200);
    await settled(id, { state: 'applied', reported: { version: 2 } });
    const running = { ...FIELD_R40, heartbeatSec: 120, wan: { ...FIELD_R40.wan, apn: 'iot.apn' } };
    expect(device.of('config')[1]?.payload).toEqual({ version: 2, config: running });
    expect(device.config).toEqual(running);
  });

  it('keeps the fields of a device that never reported unknown, and checks each field sent', async () => {
    const { id, device } = await register();
    device.reportsAtBoot = false;
    device.config = FIELD_R40;
    // Set while it is offline, one field at a time: each version carries every field set so far.
    expect((await set(id, 0, { heartbeatSec: 90 })).statusCode).toBe(200);
    expect((await set(id, 1, { wifi: { ssid: 'Line-2' } })).statusCode).toBe(200);
    expect((await state(id)).desired?.config).toEqual({
      heartbeatSec: 90,
      wifi: { ssid: 'Line-2' },
    });
    const bad = await set(id, 2, { wifi: { channel: 99 } });
    expect(bad.statusCode).toBe(400);
    expect(fieldText(bad.json())).toMatch(/^config\.wifi\.channel: /);
    expect((await set(id, 2, { wifi: { radio: 'on' } })).statusCode).toBe(400);

    await online(device);
    await settled(id, { state: 'applied', reported: { version: 2 } });
    expect(device.of('config').map((d) => d.payload)).toEqual([
      { version: 2, patch: { heartbeatSec: 90, wifi: { ssid: 'Line-2' } } },
    ]);
    expect(device.config).toEqual({
      ...FIELD_R40,
      heartbeatSec: 90,
      wifi: { ...FIELD_R40.wifi, ssid: 'Line-2' },
    });
  });

  it('masks secrets everywhere (state, history, log, commands, sockets), and a mask sent back keeps them', async () => {
    const { id, device } = await register();
    device.config = FIELD_R40;
    await online(device);
    const reported = await settled(id, { reported: { version: 0 } });
    expect(reported.reported?.config).toEqual({
      ...FIELD_R40,
      wan: { ...FIELD_R40.wan, apnPassword: SECRET_MASK },
      wifi: { ...FIELD_R40.wifi, password: SECRET_MASK },
    });

    // An edit of what the console shows: the masks keep the device's passwords.
    const edit = { ...(reported.reported?.config ?? {}), heartbeatSec: 45 };
    expect((await set(id, 0, edit)).statusCode).toBe(200);
    await settled(id, { state: 'applied', reported: { version: 1 } });
    expect(device.of('config')[0]?.payload).toEqual({
      version: 1,
      config: { ...FIELD_R40, heartbeatSec: 45 },
    });
    // A new value replaces one.
    const newWifi = { wifi: { ...FIELD_R40.wifi, password: 'wifi-secret-8' } };
    expect((await set(id, 1, newWifi)).statusCode).toBe(200);
    await settled(id, { state: 'applied', reported: { version: 2 } });
    expect(device.config).toMatchObject(newWifi);

    // Read configuration: the answer is kept masked in the command and its log entry.
    const read = await admin.ok('POST', '/device/command', { deviceId: id, method: 'get_config' });
    let command: TDeviceCommand | undefined;
    await vi.waitFor(async () => {
      const page = await admin.ok('GET', `/device/command/list?deviceId=${id}`);
      command = (page.records as TDeviceCommand[]).find((c) => c.id === read.id);
      expect(command?.state).toBe('succeeded');
    });
    expect(command?.result).toMatchObject({
      version: 2,
      config: { wan: { apnPassword: SECRET_MASK }, wifi: { password: SECRET_MASK } },
    });

    // A reader with the device list only sees no more than an administrator.
    const viewerRole = await createRole(t, PLATFORM_ID, DEVICE_PAGES);
    await t.createUser({
      username: 'secretviewer',
      password: 'Secret-View-1',
      roleIds: [viewerRole],
    });
    const viewer = client(t, await t.login('secretviewer', 'Secret-View-1'));
    const everything = JSON.stringify([
      await admin.ok('GET', `/device/config?deviceId=${id}`),
      await viewer.ok('GET', `/device/config?deviceId=${id}`),
      await viewer.ok('GET', `/device/config/history?deviceId=${id}`),
      await viewer.ok('GET', `/device/log/list?deviceId=${id}&pageSize=100`),
      await admin.ok('GET', `/device/command/list?deviceId=${id}`),
      published.filter((p) => p.deviceId === id),
    ]);
    for (const secret of ['apn-secret-7', 'wifi-secret-7', 'wifi-secret-8']) {
      expect(everything).not.toContain(secret);
    }
    expect(everything).toContain(SECRET_MASK);
  });

  it('refuses a value outside the series’ schema with 400 naming the field, storing and sending nothing', async () => {
    const { id, device } = await register();
    await online(device);
    const res = await set(id, 0, { ...R40, wifi: { ...R40.wifi, password: 'short' } });
    expect(res.statusCode).toBe(400);
    expect(fieldText(res.json())).toMatch(/^config\.wifi\.password: /);
    const zh = client(t, admin.headers['x-access-token'], 'zh-CN');
    const zhRes = await zh.put('/device/config', {
      deviceId: id,
      baseVersion: 0,
      config: { ...R40, lan: { ...R40.lan, ip: '300.1.1.1' } },
    });
    expect(zhRes.statusCode).toBe(400);
    expect(fieldText(zhRes.json())).toMatch(/^config\.lan\.ip: 不符合 R40 的配置要求/);
    // An unknown key is refused too (the device would not know it).
    expect((await set(id, 0, { ...R40, telnet: true })).statusCode).toBe(400);

    // The device's series decides: an R40 configuration is no S27X configuration.
    const s27x = await register('S27X');
    const wrongSeries = await set(s27x.id, 0, withHeartbeat(30));
    expect(wrongSeries.statusCode).toBe(400);
    expect(fieldText(wrongSeries.json())).toMatch(/^config\./);

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
    expect(fieldText(stale.json())).toMatch(/^baseVersion: .*version 1/);
    expect((await set(id, 2, withHeartbeat(40))).statusCode).toBe(409);
    expect((await state(id)).desired).toMatchObject({
      version: 1,
      config: shown(withHeartbeat(30)),
    });
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
