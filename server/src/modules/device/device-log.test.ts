import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ROLE_ID, PLATFORM_COMPANY_ID } from '../../db/seed/seed.js';
import { AppError } from '../../platform/http/app-error.js';
import { ADMIN_PASSWORD, createTestApp, type TestContext } from '../../test/app.js';
import { client, type Client } from '../../test/devices.js';
import { DeviceLogRepository } from './device-log.repository.js';
import { DeviceLogService, type DeviceLogEntry } from './device-log.service.js';

describe('device logs', () => {
  let t: TestContext;
  let admin: Client;
  let bossB: Client;
  let logs: DeviceLogService;
  const entry = (overrides: Partial<DeviceLogEntry> = {}): DeviceLogEntry => ({
    companyId: PLATFORM_COMPANY_ID,
    deviceId: null,
    sn: 'LOG-1',
    requestUrl: 'blrms/v1/LOG-1/event',
    sourceUser: null,
    targetUser: 'admin',
    subject: 'heartbeat',
    content: { rssi: -60 },
    sourceIp: '10.0.0.1',
    state: 'succeeded',
    ...overrides,
  });

  beforeAll(async () => {
    t = await createTestApp();
    admin = client(t, await t.login('admin', ADMIN_PASSWORD));
    const companyB = await t.createCompany('log-b');
    await t.createUser({
      username: 'logbossb',
      password: 'Boss-B-Pass-1',
      companyId: companyB,
      roleIds: [ADMIN_ROLE_ID],
    });
    bossB = client(t, await t.login('logbossb', 'Boss-B-Pass-1'));
    logs = new DeviceLogService(new DeviceLogRepository(t.db), t.clock.read);
  });
  afterAll(() => t.close());

  it('stores what other modules write and lists it with filters', async () => {
    const start = t.clock.now;
    await logs.write(entry());
    t.clock.advance(1000);
    await logs.write(
      entry({ sn: 'LOG-2', subject: 'config push', state: 'failed', sourceUser: 'ops' }),
    );
    t.clock.advance(1000);
    await logs.write(
      entry({ sn: 'LOG-2', subject: 'ota', state: 'pending', logTime: start - 86_400_000 }),
    );

    const subjects = async (query: string) =>
      (await admin.ok('GET', `/device/log/list?${query}`)).records.map(
        (r: { subject: string }) => r.subject,
      );
    expect(await subjects('sn=LOG')).toEqual(['config push', 'heartbeat', 'ota']);
    expect(await subjects('sn=LOG&state=failed')).toEqual(['config push']);
    expect(await subjects('user=ops')).toEqual(['config push']);
    expect(await subjects('sn=LOG&subject=beat')).toEqual(['heartbeat']);
    const from = encodeURIComponent(new Date(start - 1000).toISOString());
    expect(await subjects(`sn=LOG&logTime_begin=${from}`)).toEqual(['config push', 'heartbeat']);
    expect(await subjects('sn=LOG&column=subject&order=asc')).toEqual([
      'config push',
      'heartbeat',
      'ota',
    ]);
    const one = (await admin.ok('GET', '/device/log/list?sn=LOG-1')).records[0];
    expect(JSON.parse(one.content)).toEqual({ rssi: -60 });
    expect(await admin.ok('GET', `/device/log/queryById?id=${one.id}`)).toEqual(one);
    expect((await bossB.get(`/device/log/queryById?id=${one.id}`)).statusCode).toBe(404);
    expect((await bossB.ok('GET', '/device/log/list')).total).toBe(0);
  });

  it('accepts 64 KiB of content and refuses more with a clear message', async () => {
    await logs.write(entry({ sn: 'BIG-1', content: 'x'.repeat(64 * 1024) }));
    const tooBig = logs.write(entry({ sn: 'BIG-2', content: '设'.repeat(22_000) }));
    await expect(tooBig).rejects.toBeInstanceOf(AppError);
    await expect(tooBig).rejects.toMatchObject({
      code: 'deviceLogContentTooLarge',
      httpStatus: 413,
      params: { size: 66_000 },
    });
    expect((await admin.ok('GET', '/device/log/list?sn=BIG')).total).toBe(1);
  });

  it('finds server-written subjects by their translated text', async () => {
    const token = await admin.ok('POST', '/device/token/add', { name: 'log' });
    await admin.ok('POST', '/device/device/add', {
      tokenId: token.id,
      sn: 'LOGDEV-1',
      name: 'x',
      series: 'R40',
    });
    const zh = await t.app.inject({
      method: 'GET',
      url: `/api/device/log/list?subject=${encodeURIComponent('添加')}`,
      headers: { ...admin.headers, 'accept-language': 'zh-CN' },
    });
    expect(zh.json().result.records).toEqual([
      expect.objectContaining({ sn: 'LOGDEV-1', subject: '添加设备' }),
    ]);
  });

  it('offers no way to change logs', async () => {
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      for (const path of ['add', 'edit', 'delete']) {
        const res = await t.app.inject({
          method,
          url: `/api/device/log/${path}`,
          headers: admin.headers,
          payload: {},
        });
        expect(res.statusCode).toBe(404);
      }
    }
  });

  it.each(['column=log_time', 'state=done', `subject=${'s'.repeat(129)}`, 'logTime_end=now'])(
    'refuses %s with 400',
    async (query) => {
      expect((await admin.get(`/device/log/list?${query}`)).statusCode).toBe(400);
    },
  );
});
