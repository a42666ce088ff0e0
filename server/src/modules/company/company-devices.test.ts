import type { MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_PASSWORD, createTestApp, type TestContext } from '../../test/app.js';
import { companyWithToken } from '../../test/company-devices.js';
import { client, type Client } from '../../test/devices.js';
import {
  RecordingSink,
  connectDevice,
  refusalCode,
  uniqueSn,
  type TokenCredential,
} from '../../test/mqtt-devices.js';

/** Issue 14 item 8: freezing a company closes its devices' connections at once. */
describe('freezing a company with connected devices', () => {
  let t: TestContext;
  let admin: Client;
  let url: string;
  const open: MqttClient[] = [];

  beforeAll(async () => {
    t = await createTestApp({ app: { mqtt: { port: 0 }, uplinkSink: new RecordingSink() } });
    admin = client(t, await t.login('admin', ADMIN_PASSWORD));
    url = `mqtt://127.0.0.1:${t.app.deviceGateway.port}`;
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.endAsync(true)));
  });
  afterAll(() => t.close());

  const device = async (sn: string, token: TokenCredential) => {
    const connection = await connectDevice(url, sn, token);
    open.push(connection);
    return connection;
  };

  const reasonOf = async (sn: string) =>
    (await t.db
      .selectFrom('device')
      .select(['status', 'disconnect_reason'])
      .where('sn', '=', sn)
      .executeTakeFirst()) ?? null;

  it('disconnects the frozen company’s devices within a second, keeps the others, refuses until unfrozen', async () => {
    const frozen = await companyWithToken(t, 'freeze');
    const other = await companyWithToken(t, 'stays');
    const frozenSn = uniqueSn('FRZ');
    const otherSn = uniqueSn('STY');
    const victim = await device(frozenSn, frozen.token);
    const bystander = await device(otherSn, other.token);
    await vi.waitFor(async () => {
      expect((await reasonOf(frozenSn))?.status).toBe('online');
      expect((await reasonOf(otherSn))?.status).toBe('online');
    });
    let bystanderClosed = false;
    bystander.on('close', () => (bystanderClosed = true));
    const closed = new Promise<number>((resolve) =>
      victim.once('close', () => resolve(Date.now())),
    );

    const frozeAt = Date.now();
    await admin.ok('PUT', '/sys/company/frozen', { id: frozen.companyId, status: 2 });
    expect((await closed) - frozeAt).toBeLessThan(1000);
    await vi.waitFor(async () =>
      expect(await reasonOf(frozenSn)).toEqual({
        status: 'offline',
        disconnect_reason: 'company-frozen',
      }),
    );

    expect(await refusalCode(url, frozenSn, frozen.token)).toBe(5);
    await new Promise((r) => setTimeout(r, 300));
    expect(bystanderClosed).toBe(false);
    expect(bystander.connected).toBe(true);

    await admin.ok('PUT', '/sys/company/frozen', { id: frozen.companyId, status: 1 });
    const back = await device(frozenSn, frozen.token);
    expect(back.connected).toBe(true);
    await vi.waitFor(async () => expect((await reasonOf(frozenSn))?.status).toBe('online'));
  });
});
