import {
  CONFIG_DEFAULTS,
  SECRET_MASK,
  downTopic,
  maskSecrets,
  upTopic,
  type TDeviceCommand,
  type TDeviceLog,
} from '@blrms/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ADMIN_PASSWORD,
  PLATFORM_ID,
  createTestApp,
  type TestContext,
  fieldText,
} from '../../test/app.js';
import { DEVICE_PAGES, client, createRole, type Client } from '../../test/devices.js';
import {
  expectDevice,
  uniqueSn,
  credentialOf,
  type TokenCredential,
} from '../../test/mqtt-devices.js';
import { RemoteDevice } from '../../test/remote-device.js';

describe('commands to devices', () => {
  let t: TestContext;
  let admin: Client;
  let operator: Client;
  let url: string;
  let key: TokenCredential;
  let tokenId: string;
  const devices: RemoteDevice[] = [];
  const published: TDeviceCommand[] = [];

  async function register(connect = true) {
    const sn = uniqueSn('CMD');
    const added = await admin.ok('POST', '/device/device/add', {
      tokenId,
      sn,
      name: sn,
      series: 'R40',
    });
    const device = new RemoteDevice(url, sn, key);
    devices.push(device);
    if (connect) {
      await device.connect();
      await expectDevice(admin, sn, { status: 'online' });
    }
    return { id: added.id as string, device };
  }

  async function finished(api: Client, deviceId: string, id: string): Promise<TDeviceCommand> {
    let found: TDeviceCommand | undefined;
    await vi.waitFor(
      async () => {
        const page = await api.ok('GET', `/device/command/list?deviceId=${deviceId}`);
        found = (page.records as TDeviceCommand[]).find((c) => c.id === id);
        expect(found?.state).not.toBe('sent');
      },
      { timeout: 3000, interval: 25 },
    );
    return found as TDeviceCommand;
  }

  /** The command's log entry once it is in `state` (logged just after the command ends). */
  async function commandLog(id: string, state: string): Promise<TDeviceLog> {
    let found: TDeviceLog | undefined;
    await vi.waitFor(
      async () => {
        const page = await admin.ok('GET', `/device/log/list?subject=Command&pageSize=100`);
        found = (page.records as TDeviceLog[]).find((l) => l.requestUrl.endsWith(`/${id}`));
        expect(found?.state).toBe(state);
      },
      { timeout: 3000, interval: 25 },
    );
    return found as TDeviceLog;
  }

  beforeAll(async () => {
    t = await createTestApp({ app: { mqtt: { port: 0 } } });
    admin = client(t, await t.login('admin', ADMIN_PASSWORD));
    url = `mqtt://127.0.0.1:${t.app.deviceGateway.port}`;
    const token = await admin.ok('POST', '/device/token/add', { name: 'Commands' });
    key = credentialOf(token);
    tokenId = token.id;
    // An operator with the built-in commands only.
    const role = await createRole(t, PLATFORM_ID, [...DEVICE_PAGES, 'device:command']);
    await t.createUser({ username: 'cmdop', password: 'Cmd-Operator-Pass-1', roleIds: [role] });
    operator = client(t, await t.login('cmdop', 'Cmd-Operator-Pass-1'));
    t.bus.subscribe('device.command', ({ command }) => published.push(command));
  });
  afterEach(async () => {
    await Promise.all(devices.splice(0).map((d) => d.disconnect()));
  });
  afterAll(() => t.close());

  it('pings a device and shows its answer, in the list, the log and on the device’s channel', async () => {
    const { id, device } = await register();
    const res = await operator.post('/device/command', {
      deviceId: id,
      method: 'ping',
      params: { seq: 7 },
    });
    expect(res.statusCode).toBe(200);
    const sent: TDeviceCommand = res.json().result;
    expect(res.json().message).toBe('Command sent');
    expect(sent).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      deviceId: id,
      sn: device.sn,
      method: 'ping',
      params: { seq: 7 },
      timeoutSec: 30,
      state: 'sent',
      result: null,
      error: null,
      createBy: 'cmdop',
      createTime: new Date(t.clock.now).toISOString(),
      replyTime: null,
      lateReply: null,
    });
    const done = await finished(operator, id, sent.id);
    expect(done).toMatchObject({
      state: 'succeeded',
      result: { pong: true, params: { seq: 7 } },
      error: null,
      replyTime: expect.any(String),
    });
    expect(device.of('rpc')).toEqual([
      {
        kind: 'rpc',
        id: sent.id,
        payload: { method: 'ping', params: { seq: 7 }, timeoutSec: 30 },
      },
    ]);
    await vi.waitFor(() =>
      expect(published.filter((c) => c.id === sent.id).map((c) => c.state)).toEqual([
        'sent',
        'succeeded',
      ]),
    );
    const log = await commandLog(sent.id, 'succeeded');
    expect(log).toMatchObject({
      requestUrl: downTopic(device.address, 'rpc', sent.id),
      sourceUser: 'cmdop',
      targetUser: 'admin',
      subject: 'Command sent',
      sourceIp: '127.0.0.1',
      state: 'succeeded',
    });
    expect(JSON.parse(log.content)).toEqual({
      method: 'ping',
      params: { seq: 7 },
      timeoutSec: 30,
      result: { pong: true, params: { seq: 7 } },
    });
  });

  it('reboots a device, which answers before it restarts', async () => {
    const { id } = await register();
    const sent = await operator.ok('POST', '/device/command', { deviceId: id, method: 'reboot' });
    expect(await finished(operator, id, sent.id)).toMatchObject({
      state: 'succeeded',
      result: { rebooting: true },
    });
  });

  it('reads the configuration the device runs, which becomes its reported configuration', async () => {
    const { id, device } = await register();
    device.version = 4;
    device.config = { ...CONFIG_DEFAULTS.R40, heartbeatSec: 15 };
    const sent = await operator.ok('POST', '/device/command', {
      deviceId: id,
      method: 'get_config',
    });
    // The Wi-Fi password stays with the device: the answer is kept with it masked.
    const shown = maskSecrets('R40', device.config);
    expect(shown).toMatchObject({ wifi: { password: SECRET_MASK } });
    expect(await finished(operator, id, sent.id)).toMatchObject({
      state: 'succeeded',
      result: { version: 4, config: shown },
    });
    expect(JSON.parse((await commandLog(sent.id, 'succeeded')).content ?? '')).toMatchObject({
      result: { version: 4, config: shown },
    });
    await vi.waitFor(async () => {
      expect(await admin.ok('GET', `/device/config?deviceId=${id}`)).toMatchObject({
        state: 'none',
        desired: null,
        reported: { version: 4, config: shown },
      });
    });
  });

  it('sends a command still waiting again to the devices this node holds when the bus returns after a gap', async () => {
    const { id, device } = await register();
    device.silentRpc = true;
    const sent: TDeviceCommand = await admin.ok('POST', '/device/command', {
      deviceId: id,
      method: 'ping',
      timeoutSec: 60,
    });
    await vi.waitFor(() => expect(device.of('rpc')).toHaveLength(1));

    // Another node's downlink may not have left during the gap: the node holding the device
    // sends what is still waiting, and the first answer ends it.
    device.silentRpc = false;
    await t.bus.publish('bus.resumed', { gapMs: 5000 });
    expect((await finished(admin, id, sent.id)).state).toBe('succeeded');
    expect(device.of('rpc').map((d) => d.id)).toEqual([sent.id, sent.id]);

    // An ended command is not sent again.
    await t.bus.publish('bus.resumed', { gapMs: 5000 });
    await new Promise((r) => setTimeout(r, 100));
    expect(device.of('rpc')).toHaveLength(2);
  });

  it('ends an unanswered command as timeout, and keeps the first answer that comes later beside it', async () => {
    const { id, device } = await register();
    device.silentRpc = true;
    const sent = await operator.ok('POST', '/device/command', {
      deviceId: id,
      method: 'ping',
      timeoutSec: 5,
    });
    await vi.waitFor(() => expect(device.of('rpc')).toHaveLength(1));
    t.clock.advance(4000);
    expect(await t.app.deviceCommands.sweepTimeouts()).toBe(0);
    t.clock.advance(1000);
    expect(await t.app.deviceCommands.sweepTimeouts()).toBe(1);
    const page = await operator.ok('GET', `/device/command/list?deviceId=${id}`);
    expect(page.records).toEqual([
      expect.objectContaining({
        id: sent.id,
        state: 'timeout',
        error: 'no answer within 5 s',
        replyTime: null,
      }),
    ]);
    expect(await commandLog(sent.id, 'timeout')).toMatchObject({ sourceUser: 'cmdop' });
    expect(published.filter((c) => c.id === sent.id).map((c) => c.state)).toEqual([
      'sent',
      'timeout',
    ]);

    t.clock.advance(2000);
    await device.publish(upTopic(device.address, 'rpc', sent.id), { ok: true, result: 'late' });
    const lateReply = {
      ok: true,
      result: 'late',
      error: null,
      at: new Date(t.clock.now).toISOString(),
    };
    await vi.waitFor(async () =>
      expect(await finished(operator, id, sent.id)).toMatchObject({
        state: 'timeout',
        error: 'no answer within 5 s',
        replyTime: null,
        lateReply,
      }),
    );
    // The log entry takes the late answer after the command row does.
    await vi.waitFor(async () =>
      expect(JSON.parse((await commandLog(sent.id, 'timeout')).content ?? '')).toMatchObject({
        error: 'no answer within 5 s',
        lateReply,
      }),
    );
    await vi.waitFor(() =>
      expect(published.filter((c) => c.id === sent.id).map((c) => c.lateReply)).toEqual([
        null,
        null,
        lateReply,
      ]),
    );
    // A second late answer changes nothing; a sweep on another node finds nothing left to end.
    await device.publish(upTopic(device.address, 'rpc', sent.id), { ok: false, error: 'later' });
    await new Promise((r) => setTimeout(r, 200));
    expect(await finished(operator, id, sent.id)).toMatchObject({ lateReply });
    expect(await t.app.deviceCommands.sweepTimeouts()).toBe(0);
  });

  it('sends a free-form command only with device:command:custom, and shows the device’s error', async () => {
    const { id } = await register();
    const refused = await operator.post('/device/command', { deviceId: id, method: 'set_led' });
    expect(refused.statusCode).toBe(403);
    expect(fieldText(refused.json())).toMatch(/^method: free-form commands need/);

    const sent = await admin.ok('POST', '/device/command', {
      deviceId: id,
      method: 'set_led',
      params: { on: true },
    });
    expect(await finished(admin, id, sent.id)).toMatchObject({
      state: 'failed',
      result: null,
      error: 'unknown method set_led',
    });
    expect(JSON.parse((await commandLog(sent.id, 'failed')).content)).toMatchObject({
      method: 'set_led',
      error: 'unknown method set_led',
    });
  });

  it('refuses a command to a device whose node has gone silent, before the others notice', async () => {
    const { id } = await register(false);
    // The device is shown online on another node that has missed its heartbeats: it died, and no
    // node has set its devices offline yet.
    await t.db
      .insertInto('gateway_node')
      .values({ id: 'dead-node:1', seen_at: t.clock.now - 7_000 })
      .execute();
    await t.db
      .updateTable('device')
      .set({ status: 'online', node_id: 'dead-node:1' })
      .where('id', '=', id)
      .execute();
    const refused = await operator.post('/device/command', { deviceId: id, method: 'ping' });
    expect(refused.statusCode).toBe(409);
    expect((await operator.ok('GET', `/device/command/list?deviceId=${id}`)).total).toBe(0);

    await t.db
      .updateTable('gateway_node')
      .set({ seen_at: t.clock.now })
      .where('id', '=', 'dead-node:1')
      .execute();
    const sent = await operator.post('/device/command', { deviceId: id, method: 'ping' });
    expect(sent.statusCode).toBe(200);
  });

  it('refuses a command to an offline device with 409, and what is not allowed', async () => {
    const { id, device } = await register(false);
    const offline = await operator.post('/device/command', { deviceId: id, method: 'ping' });
    expect(offline.statusCode).toBe(409);
    expect(offline.json().message).toBe(
      'The device is offline: commands reach online devices only',
    );
    expect((await operator.ok('GET', `/device/command/list?deviceId=${id}`)).total).toBe(0);

    await device.connect();
    await expectDevice(admin, device.sn, { status: 'online' });
    const badMethod = await operator.post('/device/command', { deviceId: id, method: 'Reboot!' });
    expect(badMethod.statusCode).toBe(400);
    expect(fieldText(badMethod.json())).toMatch(/^method: /);
    const huge = await admin.post('/device/command', {
      deviceId: id,
      method: 'upload',
      params: { blob: 'x'.repeat(70 * 1024) },
    });
    expect(huge.statusCode).toBe(400);
    expect(fieldText(huge.json())).toMatch(/^params: /);

    const viewerRole = await createRole(t, PLATFORM_ID, DEVICE_PAGES);
    await t.createUser({
      username: 'cmdviewer',
      password: 'Cmd-Viewer-Pass-1',
      roleIds: [viewerRole],
    });
    const viewer = client(t, await t.login('cmdviewer', 'Cmd-Viewer-Pass-1'));
    expect(
      (await viewer.post('/device/command', { deviceId: id, method: 'ping' })).statusCode,
    ).toBe(403);
    expect((await viewer.get(`/device/command/list?deviceId=${id}`)).statusCode).toBe(200);

    const acme = await admin.ok('POST', '/sys/company/add', {
      name: 'Acme commands',
      code: 'acmecmd',
      admin: { username: 'acmecmd', realname: 'Acme', password: 'Acme-Command-Pass-1' },
    });
    expect(acme.id).toMatch(/^[0-9a-f]{32}$/);
    const acmeAdmin = client(t, await t.login('acmecmd', 'Acme-Command-Pass-1'));
    expect(
      (await acmeAdmin.post('/device/command', { deviceId: id, method: 'ping' })).statusCode,
    ).toBe(404);
    expect((await acmeAdmin.get(`/device/command/list?deviceId=${id}`)).statusCode).toBe(404);
    await new Promise((r) => setTimeout(r, 100));
    expect(device.of('rpc')).toEqual([]);
  });
});
