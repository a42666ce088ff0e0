import { MQTT_HOOK_SECRET_HEADER, deviceAddress, downFilter, upTopic } from '@blrms/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_PASSWORD, createTestApp, type TestContext } from '../../test/app.js';
import { createCompanyAdmin } from '../../test/company-admin.js';
import { client, type Client } from '../../test/devices.js';
import { RecordingSink, findDevice, uniqueSn } from '../../test/mqtt-devices.js';

describe('EMQX hooks', () => {
  let t: TestContext;
  let admin: Client;
  let secret: string;
  let key: string;
  let code: string;

  const hook = (path: 'auth' | 'acl', payload: object, headerValue: string | null = secret) =>
    t.app.inject({
      method: 'POST',
      url: `/api/mqtt/${path}`,
      headers: headerValue === null ? {} : { [MQTT_HOOK_SECRET_HEADER]: headerValue },
      payload,
    });

  beforeAll(async () => {
    t = await createTestApp({
      // The server's own account on the broker, as MQTT_URL names it.
      env: { MQTT_URL: 'mqtt://blrms-server:S3rver%2Fpass@127.0.0.1:1883' },
      app: { uplinkSink: new RecordingSink() },
    });
    admin = client(t, await t.login('admin', ADMIN_PASSWORD));
    secret = (await admin.ok('GET', '/mqtt/hookSecret')).secret;
    const token = await admin.ok('POST', '/device/token/add', { name: 'EMQX', autoRegister: true });
    key = token.tokenKey;
    code = token.code;
  });
  afterAll(() => t.close());

  it('generates one secret, kept in the settings, shown to platform administrators only', async () => {
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await t.db
      .selectFrom('sys_setting')
      .select('setting_value')
      .where('setting_key', '=', 'mqtt.hook-secret')
      .executeTakeFirstOrThrow();
    expect(stored.setting_value).toBe(secret);
    expect(await admin.ok('GET', '/mqtt/hookSecret')).toEqual({
      secret,
      header: MQTT_HOOK_SECRET_HEADER,
    });

    await createCompanyAdmin(t, {
      code: 'hook-co',
      username: 'hookcoadmin',
      password: 'Hook-Admin-1',
      perms: ['device:list'],
    });
    const customer = client(t, await t.login('hookcoadmin', 'Hook-Admin-1'));
    expect((await customer.get('/mqtt/hookSecret')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/mqtt/hookSecret' })).statusCode).toBe(
      401,
    );
  });

  it('answers 401 without the secret or with a wrong one', async () => {
    const body = { clientid: 'X', username: 'X', password: key };
    for (const headerValue of [null, '', 'wrong', `${secret}x`]) {
      const res = await hook('auth', body, headerValue);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ success: false, code: 401 });
    }
    expect((await hook('acl', { ...body, topic: 't', action: 'publish' }, null)).statusCode).toBe(
      401,
    );
  });

  it('authenticates devices like the embedded broker, auto-registration included', async () => {
    const sn = uniqueSn('EMQX');
    const address = deviceAddress(code, sn);
    const allowed = await hook('auth', {
      clientid: address,
      username: address,
      password: key,
      peerhost: '10.9.8.7',
    });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json()).toEqual({ result: 'allow', is_superuser: false });
    expect(await findDevice(admin, sn)).toMatchObject({ name: sn, status: 'offline' });

    const wrongKey = await hook('auth', { clientid: address, username: address, password: 'nope' });
    expect(wrongKey.json()).toEqual({ result: 'deny' });
    const otherUsername = await hook('auth', {
      clientid: address,
      username: `${address}x`,
      password: key,
    });
    expect(otherUsername.json()).toEqual({ result: 'deny' });
    const bareSn = await hook('auth', { clientid: sn, username: sn, password: key });
    expect(bareSn.json()).toEqual({ result: 'deny' });

    // Another token's key does not open this token's address.
    const other = (
      await admin.ok('POST', '/device/token/add', { name: 'EMQX 2', autoRegister: true })
    ).tokenKey;
    const elsewhere = await hook('auth', { clientid: address, username: address, password: other });
    expect(elsewhere.json()).toEqual({ result: 'deny' });
    // Written behind the answer; every refusal of a known SN lands in its company's log.
    await vi.waitFor(async () => {
      const logs = await t.db
        .selectFrom('device_log')
        .select('subject')
        .where('sn', '=', sn)
        .where('state', '=', 'failed')
        .execute();
      expect(logs.map((l) => l.subject).sort()).toEqual([
        'MQTT connection refused: bad-credentials',
        'MQTT connection refused: token-mismatch',
        'MQTT connection refused: token-unknown',
      ]);
    });
  });

  it('lets the server’s own account in as superuser', async () => {
    const res = await hook('auth', {
      clientid: 'blrms-node-1',
      username: 'blrms-server',
      password: 'S3rver/pass',
    });
    expect(res.json()).toEqual({ result: 'allow', is_superuser: true });
    const wrong = await hook('auth', {
      clientid: 'blrms-node-1',
      username: 'blrms-server',
      password: 'guess',
    });
    expect(wrong.json()).toEqual({ result: 'deny' });
    const acl = await hook('acl', {
      clientid: 'blrms-node-1',
      username: 'blrms-server',
      topic: '$share/blrms/blrms/v1/+/up/telemetry',
      action: 'subscribe',
    });
    expect(acl.json()).toEqual({ result: 'allow' });
  });

  it('authorizes a device to its own topics only', async () => {
    const sn = uniqueSn('EMQX');
    const address = deviceAddress(code, sn);
    const twin = deviceAddress('TWIN2345', sn);
    const acl = async (topic: string, action: 'publish' | 'subscribe', clientid = address) =>
      (await hook('acl', { clientid, username: address, topic, action })).json().result;
    expect(await acl(upTopic(address, 'telemetry'), 'publish')).toBe('allow');
    expect(await acl(downFilter(address), 'subscribe')).toBe('allow');
    expect(await acl(upTopic(twin, 'telemetry'), 'publish')).toBe('deny');
    expect(await acl(downFilter(twin), 'subscribe')).toBe('deny');
    expect(await acl('#', 'subscribe')).toBe('deny');
    expect(await acl(downFilter(address), 'publish')).toBe('deny');
    expect(await acl(upTopic(address, 'telemetry'), 'publish', 'someone-else')).toBe('deny');
  });
});
