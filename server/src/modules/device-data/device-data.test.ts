import { TELEMETRY_HISTORY_MAX_POINTS, type TDeviceEvent } from '@blrms/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_COMPANY_ID } from '../../db/seed/seed.js';
import { ADMIN_PASSWORD, createTestApp, type TestContext, fieldText } from '../../test/app.js';
import {
  DEVICE_PAGES,
  client,
  createDataRule,
  createRole,
  type Client,
} from '../../test/devices.js';
import type { DeviceRef } from '../device-gateway/uplink-sink.service.js';

const DAY = 24 * 60 * 60 * 1000;

describe('device telemetry and events', () => {
  let t: TestContext;
  let admin: Client;
  let acmeAdmin: Client;
  let narrow: Client;
  let keeper: Client;
  let r40: DeviceRef;
  let s27x: DeviceRef;
  let acmeDevice: DeviceRef;
  let now: number;

  const iso = (time: number) => new Date(time).toISOString();
  const record = (device: DeviceRef, values: Record<string, number>, at: number, ts?: number) =>
    t.app.deviceData.recordTelemetry(device, ts === undefined ? { values } : { ts, values }, at);
  const event = (
    device: DeviceRef,
    level: TDeviceEvent['level'],
    code: string,
    at: number,
    ts?: number,
  ) =>
    t.app.deviceData.recordEvent(
      device,
      { level, code, message: `${code} happened`, source: 'device', ...(ts ? { ts } : {}) },
      at,
    );

  beforeAll(async () => {
    t = await createTestApp();
    now = t.clock.now;
    admin = client(t, await t.login('admin', ADMIN_PASSWORD));
    const token = await admin.ok('POST', '/device/token/add', { name: 'data' });
    const add = async (c: Client, tokenId: string, sn: string, series: string) => {
      const d = await c.ok('POST', '/device/device/add', { tokenId, sn, name: sn, series });
      return { id: d.id as string, companyId: '', sn, address: d.tagCode as string };
    };
    r40 = { ...(await add(admin, token.id, 'DATA-R40', 'R40')), companyId: PLATFORM_COMPANY_ID };
    s27x = { ...(await add(admin, token.id, 'DATA-S27X', 'S27X')), companyId: PLATFORM_COMPANY_ID };

    const acme = await admin.ok('POST', '/sys/company/add', {
      name: 'Acme',
      code: 'acme',
      admin: { username: 'acmeboss', realname: 'Acme Boss', password: 'Acme-Boss-Pass-1' },
    });
    acmeAdmin = client(t, await t.login('acmeboss', 'Acme-Boss-Pass-1'));
    const acmeToken = await acmeAdmin.ok('POST', '/device/token/add', { name: 'acme' });
    acmeDevice = { ...(await add(acmeAdmin, acmeToken.id, 'ACME-1', 'R40')), companyId: acme.id };

    // A platform user whose data rule shows S27X devices only.
    const onlyS27x = await createDataRule(t, 'device-list', {
      column: 'series',
      operator: 'EQ',
      value: 'S27X',
    });
    const narrowRole = await createRole(t, PLATFORM_COMPANY_ID, DEVICE_PAGES, {
      'device-list': [onlyS27x],
    });
    await t.createUser({ username: 'narrow', password: 'Narrow-Pass-1', roleIds: [narrowRole] });
    narrow = client(t, await t.login('narrow', 'Narrow-Pass-1'));
    // A platform user handed the retention button, without being a platform administrator.
    const keeperRole = await createRole(t, PLATFORM_COMPANY_ID, [
      ...DEVICE_PAGES,
      'device:retention',
    ]);
    await t.createUser({ username: 'keeper', password: 'Keeper-Pass-1', roleIds: [keeperRole] });
    keeper = client(t, await t.login('keeper', 'Keeper-Pass-1'));
  });
  afterAll(() => t.close());

  it('stores telemetry and serves the latest values, the history and the events', async () => {
    record(r40, { signal: -80, di1: 0 }, now - 3000, now - 3000);
    record(r40, { signal: -71 }, now - 2000, now - 2000);
    // No device time: the sample is dated when it was received.
    record(r40, { ain1: 10.5 }, now - 1000);
    event(r40, 'alarm', 'di1.high', now - 2500, now - 2500);
    event(r40, 'recovery', 'di1.normal', now - 500);
    await t.app.deviceData.flush();

    expect(await admin.ok('GET', `/device/telemetry/latest?deviceId=${r40.id}`)).toEqual({
      deviceId: r40.id,
      values: [
        { key: 'ain1', value: 10.5, ts: iso(now - 1000) },
        { key: 'di1', value: 0, ts: iso(now - 3000) },
        { key: 'signal', value: -71, ts: iso(now - 2000) },
      ],
    });

    expect(await admin.ok('GET', `/device/telemetry/history?deviceId=${r40.id}`)).toEqual({
      deviceId: r40.id,
      points: [
        { ts: iso(now - 3000), values: { signal: -80, di1: 0 } },
        { ts: iso(now - 2000), values: { signal: -71 } },
        { ts: iso(now - 1000), values: { ain1: 10.5 } },
      ],
      truncated: false,
    });
    const range = await admin.ok(
      'GET',
      `/device/telemetry/history?deviceId=${r40.id}&begin=${iso(now - 2500)}&end=${iso(now - 1500)}`,
    );
    expect(range.points).toEqual([{ ts: iso(now - 2000), values: { signal: -71 } }]);

    const events = await admin.ok('GET', `/device/event/list?deviceId=${r40.id}`);
    expect(events).toMatchObject({ total: 2, current: 1, pages: 1 });
    expect(events.records).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f]{32}$/),
        deviceId: r40.id,
        sn: 'DATA-R40',
        ts: iso(now - 500),
        level: 'recovery',
        code: 'di1.normal',
        message: 'di1.normal happened',
        source: 'device',
        receivedAt: iso(now - 500),
      },
      expect.objectContaining({ code: 'di1.high', level: 'alarm', ts: iso(now - 2500) }),
    ]);
    const alarms = await admin.ok('GET', `/device/event/list?deviceId=${r40.id}&level=alarm`);
    expect(alarms.records.map((e: TDeviceEvent) => e.code)).toEqual(['di1.high']);
    const oldestFirst = await admin.ok(
      'GET',
      `/device/event/list?deviceId=${r40.id}&order=asc&pageSize=1&pageNo=2`,
    );
    expect(oldestFirst).toMatchObject({ total: 2, pages: 2 });
    expect(oldestFirst.records.map((e: TDeviceEvent) => e.code)).toEqual(['di1.normal']);
    const inRange = await admin.ok(
      'GET',
      `/device/event/list?deviceId=${r40.id}&begin=${iso(now - 3000)}&end=${iso(now - 1000)}`,
    );
    expect(inRange.records.map((e: TDeviceEvent) => e.code)).toEqual(['di1.high']);
  });

  it('keeps the newest value of a key when an older sample arrives later, and shows values not yet written', async () => {
    record(s27x, { ain1: 5 }, now, now);
    record(s27x, { ain1: 1 }, now + 10, now - 60_000);
    // Read before any flush: this node's unwritten values are part of the answer.
    const latest = await admin.ok('GET', `/device/telemetry/latest?deviceId=${s27x.id}`);
    expect(latest.values).toEqual([{ key: 'ain1', value: 5, ts: iso(now) }]);
    await t.app.deviceData.flush();
    const stored = await admin.ok('GET', `/device/telemetry/latest?deviceId=${s27x.id}`);
    expect(stored.values).toEqual([{ key: 'ain1', value: 5, ts: iso(now) }]);
    const history = await admin.ok(
      'GET',
      `/device/telemetry/history?deviceId=${s27x.id}&begin=${iso(now - DAY)}&end=${iso(now)}`,
    );
    expect(history.points.map((p: { values: object }) => p.values)).toEqual([
      { ain1: 1 },
      { ain1: 5 },
    ]);
  });

  it('dates a sample or event from a clock gone wild when it arrived, without losing the others', async () => {
    const at = now - 100;
    t.app.deviceData.recordTelemetry(s27x, { ts: 1e20, values: { wild: 1 } }, at);
    t.app.deviceData.recordEvent(
      s27x,
      { level: 'warn', code: 'wild', message: '', ts: 2 ** 60, source: 'device' },
      at,
    );
    record(s27x, { tame: 1 }, at, at - 50);
    await t.app.deviceData.flush();
    const history = await admin.ok(
      'GET',
      `/device/telemetry/history?deviceId=${s27x.id}&begin=${iso(at - 50)}&end=${iso(at)}`,
    );
    expect(history.points).toEqual([
      { ts: iso(at - 50), values: { tame: 1 } },
      { ts: iso(at), values: { wild: 1 } },
    ]);
    const events = await admin.ok('GET', `/device/event/list?deviceId=${s27x.id}&level=warn`);
    expect(events.records).toEqual([
      expect.objectContaining({ code: 'wild', ts: iso(at), receivedAt: iso(at) }),
    ]);
  });

  it('returns the latest samples of a range that holds too many, oldest first', async () => {
    const added = await admin.ok('POST', '/device/device/add', {
      tokenId: (await admin.ok('POST', '/device/token/add', { name: 'many' })).id,
      sn: 'MANY-1',
      name: 'many',
      series: 'BL10X',
    });
    const device = {
      id: added.id as string,
      companyId: PLATFORM_COMPANY_ID,
      sn: 'MANY-1',
      address: added.tagCode as string,
    };
    const count = TELEMETRY_HISTORY_MAX_POINTS + 5;
    for (let i = 0; i < count; i++) record(device, { n: i }, now, now - (count - i) * 1000);
    await t.app.deviceData.flush();
    const history = await admin.ok('GET', `/device/telemetry/history?deviceId=${device.id}`);
    expect(history.truncated).toBe(true);
    expect(history.points).toHaveLength(TELEMETRY_HISTORY_MAX_POINTS);
    expect(history.points[0].values).toEqual({ n: 5 });
    expect(history.points.at(-1).values).toEqual({ n: count - 1 });
  });

  it('names the field of a bad range', async () => {
    const reversed = await admin.get(
      `/device/telemetry/history?deviceId=${r40.id}&begin=${iso(now)}&end=${iso(now - 1000)}`,
    );
    expect(reversed.statusCode).toBe(400);
    expect(fieldText(reversed.json())).toBe('end: must not be earlier than begin');
    const events = await admin.get(
      `/device/event/list?deviceId=${r40.id}&begin=${iso(now)}&end=${iso(now - 1000)}`,
    );
    expect(events.statusCode).toBe(400);
    const garbled = await admin.get(`/device/telemetry/history?deviceId=${r40.id}&begin=yesterday`);
    expect(garbled.statusCode).toBe(400);
    expect(fieldText(garbled.json())).toBe('begin: must be an ISO 8601 date-time');
    const level = await admin.get(`/device/event/list?deviceId=${r40.id}&level=panic`);
    expect(fieldText(level.json())).toMatch(/^level: must be one of: info, warn, alarm, recovery/);
  });

  it('answers 404 for a device of another company or hidden by data rules', async () => {
    for (const url of [
      `/device/telemetry/latest?deviceId=${r40.id}`,
      `/device/telemetry/history?deviceId=${r40.id}`,
      `/device/event/list?deviceId=${r40.id}`,
    ]) {
      const other = await acmeAdmin.get(url);
      expect(other.statusCode, url).toBe(404);
      expect(other.json().message).toBe('Device not found');
      expect((await narrow.get(url)).statusCode, url).toBe(404);
      expect((await admin.get(url)).statusCode, url).toBe(200);
    }
    // The rule's own devices are there for the narrow user; acme's own device for acme.
    expect((await narrow.get(`/device/telemetry/latest?deviceId=${s27x.id}`)).statusCode).toBe(200);
    record(acmeDevice, { signal: -60 }, now);
    await t.app.deviceData.flush();
    const acmeLatest = await acmeAdmin.ok(
      'GET',
      `/device/telemetry/latest?deviceId=${acmeDevice.id}`,
    );
    expect(acmeLatest.values).toEqual([{ key: 'signal', value: -60, ts: iso(now) }]);
    expect((await admin.get(`/device/event/list?deviceId=${acmeDevice.id}`)).statusCode).toBe(404);
  });

  it('lets platform administrators only read and change the retention', async () => {
    expect(await admin.ok('GET', '/device/data/retention')).toEqual({ days: 30 });
    const zero = await admin.put('/device/data/retention', { days: 0 });
    expect(zero.statusCode).toBe(400);
    expect(fieldText(zero.json())).toBe('days: must be at least 1');
    const half = await admin.put('/device/data/retention', { days: 1.5 });
    expect(half.statusCode).toBe(400);
    expect(fieldText(half.json())).toMatch(/^days: /);

    // A company administrator does not hold the permission; a user handed it is still refused.
    expect((await acmeAdmin.get('/device/data/retention')).statusCode).toBe(403);
    expect((await acmeAdmin.put('/device/data/retention', { days: 7 })).statusCode).toBe(403);
    const handed = await keeper.put('/device/data/retention', { days: 7 });
    expect(handed.statusCode).toBe(403);
    expect(handed.json().message).toBe('Access denied: platform administrators only');

    const saved = await admin.put('/device/data/retention', { days: 7 });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ message: 'Data retention saved', result: { days: 7 } });
    expect(await admin.ok('GET', '/device/data/retention')).toEqual({ days: 7 });

    const menu = await acmeAdmin.ok('GET', '/sys/permission/getUserPermissionByToken');
    const codes = menu.auth.map((a: { action: string }) => a.action);
    expect(codes).toContain('devicelog:list');
    expect(codes).not.toContain('device:retention');
  });

  it('deletes samples and events older than the retention and keeps newer ones', async () => {
    await admin.ok('PUT', '/device/data/retention', { days: 10 });
    const agedRow = await admin.ok('POST', '/device/device/add', {
      tokenId: (await admin.ok('POST', '/device/token/add', { name: 'aged' })).id,
      sn: 'AGED-1',
      name: 'aged',
      series: 'R40',
    });
    const aged = {
      id: agedRow.id as string,
      companyId: PLATFORM_COMPANY_ID,
      sn: 'AGED-1',
      address: agedRow.tagCode as string,
    };
    record(aged, { signal: -90 }, now - 11 * DAY);
    record(aged, { signal: -70 }, now - 9 * DAY);
    event(aged, 'warn', 'old', now - 11 * DAY);
    event(aged, 'info', 'recent', now - 9 * DAY);
    await t.app.deviceData.flush();

    const purged = await t.app.deviceDataRetention.purgeExpired();
    expect(purged.samples).toBeGreaterThanOrEqual(1);
    expect(purged.events).toBeGreaterThanOrEqual(1);
    const history = await admin.ok(
      'GET',
      `/device/telemetry/history?deviceId=${aged.id}&begin=${iso(now - 30 * DAY)}&end=${iso(now)}`,
    );
    expect(history.points).toEqual([{ ts: iso(now - 9 * DAY), values: { signal: -70 } }]);
    const events = await admin.ok('GET', `/device/event/list?deviceId=${aged.id}`);
    expect(events.records.map((e: TDeviceEvent) => e.code)).toEqual(['recent']);
    // Rows recorded earlier in this file are recent: untouched.
    expect((await admin.ok('GET', `/device/event/list?deviceId=${r40.id}`)).total).toBe(2);
    expect(await t.app.deviceDataRetention.purgeExpired()).toEqual({ samples: 0, events: 0 });
  });

  const newDevice = async (sn: string): Promise<DeviceRef> => {
    const tokenId = (await admin.ok('POST', '/device/token/add', { name: sn })).id;
    const device = await admin.ok('POST', '/device/device/add', {
      tokenId,
      sn,
      name: sn,
      series: 'R40',
    });
    return { id: device.id, companyId: PLATFORM_COMPANY_ID, sn, address: device.tagCode };
  };
  const rowsOf = async (device: DeviceRef) => {
    const count = async (table: 'device_telemetry' | 'device_telemetry_latest' | 'device_event') =>
      Number(
        (
          await t.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('device_id', '=', device.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      samples: await count('device_telemetry'),
      latest: await count('device_telemetry_latest'),
      events: await count('device_event'),
    };
  };

  it('deletes the data of a deleted device, with what it sent just before and after', async () => {
    const gone = await newDevice('GONE-1');
    record(gone, { signal: -70 }, now);
    event(gone, 'info', 'hello', now);
    await t.app.deviceData.flush();
    expect(await rowsOf(gone)).toEqual({ samples: 1, latest: 1, events: 1 });
    // Still buffered when the device is deleted, and arriving afterwards. (Samples only: an event
    // would fail its foreign key and take the batch through the writer's retry instead.)
    record(gone, { signal: -71 }, now);
    await admin.ok('DELETE', `/device/device/delete?id=${gone.id}`);
    record(gone, { signal: -72 }, now);
    await t.app.deviceData.flush();
    expect(await rowsOf(gone)).toEqual({ samples: 0, latest: 0, events: 0 });
  });

  it('writes the others’ rows when a batch names a device deleted without notice', async () => {
    // As when the deletion's bus message has not reached this node yet.
    const gone = await newDevice('GONE-2');
    await t.db.deleteFrom('device').where('id', '=', gone.id).execute();
    record(gone, { signal: -71 }, now);
    event(gone, 'info', 'late', now);
    record(r40, { late: 1 }, now);
    event(r40, 'info', 'alive', now + 1);
    await t.app.deviceData.flush();
    expect(await rowsOf(gone)).toMatchObject({ latest: 0, events: 0 });
    const latest = await admin.ok('GET', `/device/telemetry/latest?deviceId=${r40.id}`);
    expect(latest.values).toContainEqual({ key: 'late', value: 1, ts: iso(now) });
    const events = await admin.ok('GET', `/device/event/list?deviceId=${r40.id}`);
    expect(events.records[0]).toMatchObject({ code: 'alive' });
    expect(t.app.deviceData.dropped).toBe(0);
  });

  it('declares its access', () => {
    for (const route of [
      'GET /api/device/telemetry/latest',
      'GET /api/device/telemetry/history',
      'GET /api/device/event/list',
    ]) {
      expect(t.app.routeAccess.get(route), route).toEqual({
        kind: 'permission',
        code: 'device:list',
      });
    }
    expect(t.app.routeAccess.get('PUT /api/device/data/retention')).toEqual({
      kind: 'permission',
      code: 'device:retention',
    });
  });
});
