import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  CONFIG_DEFAULTS,
  deviceAddress,
  upTopic,
  type TAlarm,
  type TAlarmCounts,
  type TAlarmRule,
  type TAlarmRuleFormInput,
} from '@blrms/contracts';
import type { MqttClient } from 'mqtt';
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_PASSWORD, createTestApp, fieldText, type TestContext } from '../../test/app.js';
import { OtaDevice, createCampaign, uploadFirmware } from '../../test/campaign.js';
import { companyWithToken } from '../../test/company-devices.js';
import { createCompanyAdmin } from '../../test/company-admin.js';
import { client, type Client } from '../../test/devices.js';
import {
  connectDevice,
  credentialOf,
  findDevice,
  uniqueSn,
  type TokenCredential,
} from '../../test/mqtt-devices.js';
import { outboxFor } from '../../test/outbox.js';
import { RemoteDevice } from '../../test/remote-device.js';

const ALARM_PERMS = [
  'alarm:list',
  'alarm:ack',
  'alarm:clear',
  'alarm:export',
  'alarm:rule:list',
  'alarm:rule:add',
  'alarm:rule:edit',
  'alarm:rule:delete',
  'device:list',
];

/** An HTTP receiver of webhook deliveries. */
async function receiver() {
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    bodies,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

describe('alarms', () => {
  let t: TestContext;
  let admin: Client;
  let adminId: string;
  let url: string;
  let key: TokenCredential;
  let dataDir: string;
  let hook: Awaited<ReturnType<typeof receiver>>;
  const open: MqttClient[] = [];

  async function device(sn = uniqueSn('AL'), token = key) {
    const connection = await connectDevice(url, sn, token);
    open.push(connection);
    const address = deviceAddress(token.code, sn);
    await connection.publishAsync(
      upTopic(address, 'status'),
      JSON.stringify({ online: true, series: 'R40', fw: '1.0.0' }),
      { qos: 1 },
    );
    let id = '';
    await vi.waitFor(
      async () => {
        const found = await t.db
          .selectFrom('device')
          .select(['id', 'series'])
          .where('sn', '=', sn)
          .executeTakeFirst();
        expect(found?.series).toBe('R40');
        id = found!.id;
      },
      { timeout: 3000, interval: 20 },
    );
    return {
      sn,
      id,
      connection,
      /** Publishes telemetry and resolves once the server has taken it in. */
      async telemetry(values: Record<string, unknown>) {
        const stored = new Promise<void>((resolve) => {
          const off = t.bus.subscribe('device.telemetry', ({ points }) => {
            if (!points.some((p) => p.deviceId === id)) return;
            off();
            resolve();
          });
        });
        await connection.publishAsync(upTopic(address, 'telemetry'), JSON.stringify({ values }), {
          qos: 1,
        });
        await stored;
        await t.app.alarmEngine.idle();
      },
      /** Publishes telemetry the server may refuse (no wait for it to be stored). */
      async raw(values: Record<string, unknown>) {
        await connection.publishAsync(upTopic(address, 'telemetry'), JSON.stringify({ values }), {
          qos: 1,
        });
      },
      async event(code: string, level: string) {
        const stored = new Promise<void>((resolve) => {
          const off = t.bus.subscribe('device.event', ({ event }) => {
            if (event.deviceId !== id || event.code !== code) return;
            off();
            resolve();
          });
        });
        await connection.publishAsync(
          upTopic(address, 'event'),
          JSON.stringify({ level, code, message: `${code} ${level}` }),
          { qos: 1 },
        );
        await stored;
        await t.app.alarmEngine.idle();
      },
    };
  }

  async function addRule(as: Client, input: TAlarmRuleFormInput): Promise<TAlarmRule> {
    const rule = (await as.ok('POST', '/alarm/rule/add', input)) as TAlarmRule;
    await t.app.alarmEngine.idle();
    return rule;
  }

  async function alarmsOf(as: Client, query: string): Promise<TAlarm[]> {
    return (await as.ok('GET', `/alarm/list?pageSize=100&${query}`)).records as TAlarm[];
  }

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blrms-alarm-'));
    t = await createTestApp({ app: { mqtt: { port: 0 } }, env: { DATA_DIR: dataDir } });
    admin = client(t, await t.login('admin', ADMIN_PASSWORD));
    const me = await t.db
      .selectFrom('sys_user')
      .select('id')
      .where('username', '=', 'admin')
      .executeTakeFirstOrThrow();
    adminId = me.id;
    await t.db
      .updateTable('sys_user')
      .set({ email: 'ops@example.com' })
      .where('id', '=', adminId)
      .execute();
    url = `mqtt://127.0.0.1:${t.app.deviceGateway.port}`;
    const token = await admin.ok('POST', '/device/token/add', {
      name: 'Alarms',
      autoRegister: true,
    });
    key = credentialOf(token);
    hook = await receiver();
    await admin.ok('PUT', '/sys/message/webhook/network', { allowPrivateNetworks: true });
    await admin.ok('POST', '/sys/message/webhook/add', { name: 'Ops', url: hook.url });
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.endAsync(true)));
    await t.app.alarmEngine.idle();
  });
  afterAll(async () => {
    await hook.close();
    await t.close();
  });

  it('raises a telemetry alarm once the value held for its duration, not before, and clears it', async () => {
    const rule = await addRule(admin, {
      name: 'Signal low',
      severity: 'major',
      scope: { kind: 'all' },
      condition: {
        type: 'telemetry',
        key: 'signal',
        operator: 'below',
        threshold: -100,
        durationSec: 5,
      },
      notify: { channels: ['system', 'email', 'webhook'], userIds: [adminId] },
    });
    const d = await device();
    await d.telemetry({ signal: -105 });
    t.clock.advance(4000);
    await d.telemetry({ signal: -106 });
    await new Promise((r) => setTimeout(r, 600));
    expect(await alarmsOf(admin, `deviceId=${d.id}`)).toEqual([]);
    // The duration passes with no new message: the engine's job raises within a second.
    t.clock.advance(1100);
    let raised: TAlarm | undefined;
    await vi.waitFor(
      async () => {
        [raised] = await alarmsOf(admin, `deviceId=${d.id}`);
        expect(raised).toMatchObject({ state: 'active', severity: 'major', count: 1 });
      },
      { timeout: 1000, interval: 25 },
    );
    expect(raised).toMatchObject({ ruleId: rule.id, ruleName: 'Signal low', value: -106 });
    expect(raised!.message).toBe(`${d.sn} signal is -106, below -100 for 5 s`);
    const zh = client(t, admin.headers['x-access-token'], 'zh-CN');
    expect((await zh.ok('GET', `/alarm/queryById?id=${raised!.id}`)).message).toBe(
      `${d.sn} signal 为 -106，低于 -100 已持续 5 秒`,
    );
    // Notified once: the bell, the outbox (no SMTP) and the webhook receiver.
    await vi.waitFor(
      async () => {
        const bell = await t.db
          .selectFrom('sys_message')
          .selectAll()
          .where('template_code', '=', 'alarm_raised')
          .where('channel', '=', 'system')
          .execute();
        expect(bell).toHaveLength(1);
        expect(bell[0]).toMatchObject({ receiver: 'admin', status: 'sent' });
        expect(outboxFor(dataDir, 'ops@example.com')).toHaveLength(1);
        expect(hook.bodies.some((b) => b.includes('alarm_raised') && b.includes(d.sn))).toBe(true);
      },
      { timeout: 3000, interval: 50 },
    );
    // Repeats while held: one row, its count goes up (written every few seconds).
    await d.telemetry({ signal: -110 });
    await d.telemetry({ signal: -111 });
    t.clock.advance(6000);
    await vi.waitFor(
      async () => {
        const rows = await alarmsOf(admin, `deviceId=${d.id}`);
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({ count: 3, value: -111 });
      },
      { timeout: 2000, interval: 25 },
    );
    // Garbage does not raise, clear or crash: a missing key, a string, a huge number.
    await d.telemetry({ other: 1 });
    await d.raw({ signal: 'NaN' });
    await d.raw({ signal: null });
    await d.telemetry({ signal: 1e308 });
    // A value back in range clears it.
    await d.telemetry({ signal: -80 });
    const [cleared] = await alarmsOf(admin, `deviceId=${d.id}`);
    expect(cleared).toMatchObject({ state: 'cleared', clearReason: 'condition', clearBy: null });
    const logs = await t.db
      .selectFrom('device_log')
      .select('subject')
      .where('device_id', '=', d.id)
      .where('subject', 'like', 'alarm.%')
      .orderBy('log_time')
      .execute();
    expect(logs.map((l) => l.subject)).toEqual(['alarm.raise', 'alarm.clear']);
    await admin.ok('DELETE', `/alarm/rule/delete?id=${rule.id}`);
  });

  it('outside a range with no duration raises at once; a device of another series is not watched', async () => {
    const rule = await addRule(admin, {
      name: 'ain1 range',
      severity: 'critical',
      scope: { kind: 'series', series: 'R40' },
      condition: { type: 'telemetry', key: 'ain1', operator: 'outside', low: 4, high: 20 },
    });
    const d = await device();
    await d.telemetry({ ain1: 12 });
    expect(await alarmsOf(admin, `deviceId=${d.id}`)).toEqual([]);
    await d.telemetry({ ain1: 25 });
    expect(await alarmsOf(admin, `deviceId=${d.id}`)).toMatchObject([
      { state: 'active', severity: 'critical', value: 25 },
    ]);
    const counts = (await admin.ok('GET', '/alarm/counts')) as TAlarmCounts;
    expect(counts.open.critical).toBeGreaterThanOrEqual(1);
    expect(counts.unacknowledged.critical).toBe(counts.open.critical);
    await t.db.updateTable('device').set({ series: 'S27X' }).where('id', '=', d.id).execute();
    await admin.ok('PUT', '/alarm/rule/enable', { id: rule.id, enabled: false });
    const [off] = await alarmsOf(admin, `deviceId=${d.id}`);
    expect(off).toMatchObject({ state: 'cleared', clearReason: 'rule-changed', clearBy: 'admin' });
    await admin.ok('DELETE', `/alarm/rule/delete?id=${rule.id}`);
    expect((await alarmsOf(admin, `deviceId=${d.id}`))[0]!.ruleId).toBeNull();
  });

  it('raises on a device event at its level, counts repeats, and clears on recovery', async () => {
    const rule = await addRule(admin, {
      name: 'Door',
      severity: 'minor',
      scope: { kind: 'all' },
      condition: { type: 'event', code: 'di1', level: 'alarm' },
    });
    const d = await device();
    await d.event('di1', 'warn');
    expect(await alarmsOf(admin, `deviceId=${d.id}`)).toEqual([]);
    await d.event('di1', 'alarm');
    t.clock.advance(10);
    await d.event('di1', 'alarm');
    expect(await alarmsOf(admin, `deviceId=${d.id}`)).toMatchObject([
      { state: 'active', count: 2, conditionType: 'event' },
    ]);
    await d.event('di1', 'recovery');
    expect(await alarmsOf(admin, `deviceId=${d.id}`)).toMatchObject([
      { state: 'cleared', clearReason: 'condition' },
    ]);
    await admin.ok('DELETE', `/alarm/rule/delete?id=${rule.id}`);
  });

  it('acknowledges in bulk, needs a comment to clear by hand, and tells which were skipped', async () => {
    const rule = await addRule(admin, {
      name: 'Hot',
      severity: 'warning',
      scope: { kind: 'all' },
      condition: { type: 'telemetry', key: 'temp', operator: 'above', threshold: 70 },
    });
    const a = await device();
    const b = await device();
    await a.telemetry({ temp: 80 });
    await b.telemetry({ temp: 90 });
    const ids = (await alarmsOf(admin, `ruleId=${rule.id}`)).map((x) => x.id);
    expect(ids).toHaveLength(2);
    const first = await admin.ok('PUT', '/alarm/acknowledge', { ids: [ids[0]], comment: 'on it' });
    expect(first).toEqual({ changed: 1, skipped: 0, notFound: 0 });
    const again = await admin.ok('PUT', '/alarm/acknowledge', {
      ids: [...ids, 'f'.repeat(32)],
    });
    expect(again).toEqual({ changed: 1, skipped: 1, notFound: 1 });
    expect(await admin.ok('GET', `/alarm/queryById?id=${ids[0]}`)).toMatchObject({
      state: 'acknowledged',
      ackBy: 'admin',
      ackComment: 'on it',
    });
    const noComment = await admin.put('/alarm/clear', { ids, comment: '' });
    expect(noComment.statusCode).toBe(400);
    expect(fieldText(noComment.json())).toMatch(/^comment: /);
    expect(await admin.ok('PUT', '/alarm/clear', { ids, comment: 'replaced the fan' })).toEqual({
      changed: 2,
      skipped: 0,
      notFound: 0,
    });
    expect(await alarmsOf(admin, `ruleId=${rule.id}&state=cleared`)).toHaveLength(2);
    // Cleared is final: the next crossing opens a new alarm.
    await a.telemetry({ temp: 60 });
    await a.telemetry({ temp: 85 });
    expect(await alarmsOf(admin, `ruleId=${rule.id}&state=active`)).toHaveLength(1);
    // Export, in both formats.
    const csv = await admin.get(`/alarm/exportXls?format=csv&ruleId=${rule.id}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body).toContain('replaced the fan');
    expect(csv.body.trim().split('\n')).toHaveLength(4);
    const xlsx = await admin.get(`/alarm/exportXls?format=xlsx&ruleId=${rule.id}`);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    await admin.ok('DELETE', `/alarm/rule/delete?id=${rule.id}`);
  });

  it('raises offline alarms past N minutes, waits for an expected restart, clears when back', async () => {
    const rule = await addRule(admin, {
      name: 'Gone',
      severity: 'critical',
      scope: { kind: 'all' },
      condition: { type: 'offline', minutes: 5 },
    });
    const a = await device();
    const b = await device();
    await Promise.all(open.splice(0).map((c) => c.endAsync(true)));
    // Their disconnects recorded (a registered device is offline before it was ever online).
    await vi.waitFor(
      async () => {
        const rows = await t.db
          .selectFrom('device')
          .select(['status', 'last_disconnect_at'])
          .where('id', 'in', [a.id, b.id])
          .execute();
        expect(rows.map((r) => [r.status, r.last_disconnect_at])).toEqual([
          ['offline', t.clock.now],
          ['offline', t.clock.now],
        ]);
      },
      { timeout: 3000, interval: 25 },
    );
    // b is rebooting on the platform's request: its window lasts 10 minutes.
    await t.db
      .updateTable('device')
      .set({ restart_kind: 'reboot', restart_until: t.clock.now + 10 * 60_000 })
      .where('id', '=', b.id)
      .execute();
    const shown = async () =>
      (await alarmsOf(admin, `ruleId=${rule.id}&state=active`))
        .map((x) => x.deviceId)
        .filter((id) => id === a.id || id === b.id)
        .sort();
    t.clock.advance(4 * 60_000);
    await t.app.alarmEngine.sweepOffline();
    expect(await shown()).toEqual([]);
    t.clock.advance(2 * 60_000);
    await t.app.alarmEngine.sweepOffline();
    expect(await shown()).toEqual([a.id]);
    await t.app.alarmEngine.sweepOffline();
    expect(await alarmsOf(admin, `ruleId=${rule.id}&deviceId=${a.id}`)).toHaveLength(1);
    t.clock.advance(5 * 60_000);
    await t.app.alarmEngine.sweepOffline();
    expect(await shown()).toEqual([a.id, b.id].sort());
    await device(a.sn);
    await vi.waitFor(
      async () =>
        expect(
          await t.db
            .selectFrom('device')
            .select('status')
            .where('id', '=', a.id)
            .executeTakeFirst(),
        ).toEqual({ status: 'online' }),
      { timeout: 3000, interval: 25 },
    );
    await t.app.alarmEngine.sweepOffline();
    const back = await alarmsOf(admin, `deviceId=${a.id}&ruleId=${rule.id}`);
    expect(back).toMatchObject([{ state: 'cleared', clearReason: 'condition' }]);
    await admin.ok('DELETE', `/alarm/rule/delete?id=${rule.id}`);
  });

  it('raises config-failed when a device refuses a push, and clears on the next applied one', async () => {
    const rule = await addRule(admin, {
      name: 'Push failed',
      severity: 'major',
      scope: { kind: 'all' },
      condition: { type: 'config-failed' },
    });
    const remote = new RemoteDevice(url, uniqueSn('CF'), key);
    remote.configMode = 'refuse';
    await remote.connect();
    try {
      let id = '';
      await vi.waitFor(async () => {
        id = (await findDevice(admin, remote.sn))!.id;
        expect((await admin.ok('GET', `/device/config?deviceId=${id}`)).reported).not.toBeNull();
      });
      const config = { ...CONFIG_DEFAULTS.R40, heartbeatSec: 45 };
      await admin.ok('PUT', '/device/config', { deviceId: id, baseVersion: 0, config });
      let alarm: TAlarm | undefined;
      await vi.waitFor(
        async () => {
          [alarm] = await alarmsOf(admin, `deviceId=${id}`);
          expect(alarm).toMatchObject({ state: 'active', conditionType: 'config-failed' });
        },
        { timeout: 3000, interval: 25 },
      );
      expect(alarm!.message).toContain(remote.refusal);
      remote.configMode = 'apply';
      const state = await admin.ok('GET', `/device/config?deviceId=${id}`);
      await admin.ok('PUT', '/device/config', {
        deviceId: id,
        baseVersion: state.desired.version,
        config: { ...config, heartbeatSec: 50 },
      });
      await vi.waitFor(
        async () =>
          expect(await alarmsOf(admin, `deviceId=${id}`)).toMatchObject([
            { state: 'cleared', clearReason: 'condition' },
          ]),
        { timeout: 3000, interval: 25 },
      );
    } finally {
      await remote.disconnect();
      await admin.ok('DELETE', `/alarm/rule/delete?id=${rule.id}`);
    }
  });

  it('raises upgrade-failed when a device reports its upgrade failed', async () => {
    const rule = await addRule(admin, {
      name: 'Upgrade failed',
      severity: 'major',
      scope: { kind: 'all' },
      condition: { type: 'upgrade-failed' },
    });
    const ota = await new OtaDevice(url, uniqueSn('UP'), key).connect('1.0.0');
    try {
      let id = '';
      await vi.waitFor(async () => {
        const found = await findDevice(admin, ota.sn);
        expect(found?.version).toBe('1.0.0');
        id = found!.id;
      });
      const firmware = await uploadFirmware(t, admin, {
        series: 'R40',
        version: '2.0.0',
        content: randomBytes(2048),
      });
      await createCampaign(admin, {
        name: 'Upgrade',
        kind: 'ota',
        firmwareId: firmware.id,
        target: { deviceIds: [id] },
      });
      await vi.waitFor(() => expect(ota.lastJob).toBeDefined(), { timeout: 5000, interval: 25 });
      await ota.report(ota.lastJob!.jobId, { state: 'failed', error: 'flash write error' });
      await vi.waitFor(
        async () =>
          expect(await alarmsOf(admin, `deviceId=${id}`)).toMatchObject([
            { state: 'active', conditionType: 'upgrade-failed' },
          ]),
        { timeout: 5000, interval: 25 },
      );
      expect((await alarmsOf(admin, `deviceId=${id}`))[0]!.message).toContain('flash write error');
    } finally {
      await ota.disconnect();
      await admin.ok('DELETE', `/alarm/rule/delete?id=${rule.id}`);
    }
  });

  it('holds notifications in quiet hours and sends them when they end; reminds until acknowledged', async () => {
    const now = new Date(t.clock.now);
    const hhmm = (d: Date) =>
      `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
    const start = hhmm(new Date(now.getTime() - 60_000));
    const end = hhmm(new Date(now.getTime() + 30 * 60_000));
    const rule = await addRule(admin, {
      name: 'Quiet',
      severity: 'critical',
      scope: { kind: 'all' },
      condition: { type: 'telemetry', key: 'q1', operator: 'above', threshold: 1 },
      quietHours: { start, end, timeZone: 'UTC' },
      reminderMinutes: 5,
      notify: { channels: ['system'], userIds: [adminId] },
    });
    const bell = async () =>
      (
        await t.db
          .selectFrom('sys_message')
          .select('id')
          .where('template_code', '=', 'alarm_raised')
          .where('content', 'like', '%q1%')
          .execute()
      ).length;
    const d = await device();
    await d.telemetry({ q1: 5 });
    const [alarm] = await alarmsOf(admin, `ruleId=${rule.id}`);
    expect(alarm).toMatchObject({ state: 'active' });
    await t.app.alarms.sendDue();
    expect(await bell()).toBe(0);
    t.clock.advance(31 * 60_000);
    await t.app.alarms.sendDue();
    expect(await bell()).toBe(1);
    await t.app.alarms.sendDue();
    expect(await bell()).toBe(1);
    t.clock.advance(5 * 60_000);
    await t.app.alarms.sendDue();
    expect(await bell()).toBe(2);
    await admin.ok('PUT', '/alarm/acknowledge', { ids: [alarm!.id] });
    t.clock.advance(5 * 60_000);
    await t.app.alarms.sendDue();
    expect(await bell()).toBe(2);
    await admin.ok('DELETE', `/alarm/rule/delete?id=${rule.id}`);
  });

  it('keeps companies apart: routes, counts, evaluation and the websocket channel', async () => {
    const other = await createCompanyAdmin(t, {
      code: `al-${randomBytes(3).toString('hex')}`,
      username: `alb${randomBytes(3).toString('hex')}`,
      password: 'Alb-Pass-1',
      perms: ALARM_PERMS,
    });
    const username = (
      await t.db
        .selectFrom('sys_user')
        .select('username')
        .where('id', '=', other.userId)
        .executeTakeFirstOrThrow()
    ).username;
    const theirToken = await t.login(username, 'Alb-Pass-1');
    const them = client(t, theirToken);
    const { token: theirKey } = await companyWithToken(t, 'alc');
    // Their rule watches every device of their company only.
    const theirs = await addRule(them, {
      name: 'Theirs',
      severity: 'critical',
      scope: { kind: 'all' },
      condition: { type: 'telemetry', key: 'x9', operator: 'above', threshold: 0 },
    });
    const ours = await addRule(admin, {
      name: 'Ours',
      severity: 'critical',
      scope: { kind: 'all' },
      condition: { type: 'telemetry', key: 'x9', operator: 'above', threshold: 0 },
    });
    // Our socket, subscribed to `alarms`.
    const socket = new WebSocket(
      `ws://127.0.0.1:${(await t.app.listen({ port: 0, host: '127.0.0.1' })).split(':').pop()}/api/websocket/${adminId}`,
      ['blrms-token', admin.headers['x-access-token']],
    );
    const received: { type: string; alarm?: TAlarm }[] = [];
    socket.on('message', (data: Buffer) => received.push(JSON.parse(data.toString())));
    await new Promise((r) => socket.once('open', r));
    socket.send(JSON.stringify({ type: 'subscribe', channel: 'alarms' }));
    await vi.waitFor(() => expect(received.some((m) => m.type === 'subscribed')).toBe(true));

    const mine = await device();
    const foreign = await device(uniqueSn('AO'), theirKey);
    await mine.telemetry({ x9: 1 });
    await foreign.telemetry({ x9: 1 });
    expect((await alarmsOf(admin, `ruleId=${ours.id}`)).map((a) => a.deviceId)).toEqual([mine.id]);
    // Their rule saw nothing of ours; the foreign device is not theirs either (another company).
    expect(await alarmsOf(them, '')).toEqual([]);
    const ourAlarm = (await alarmsOf(admin, `ruleId=${ours.id}`))[0]!;
    for (const [method, route, body] of [
      ['GET', `/alarm/queryById?id=${ourAlarm.id}`, undefined],
      ['GET', `/alarm/rule/queryById?id=${ours.id}`, undefined],
      ['DELETE', `/alarm/rule/delete?id=${ours.id}`, undefined],
      ['PUT', '/alarm/rule/enable', { id: ours.id, enabled: false }],
    ] as const) {
      const res = await (method === 'GET'
        ? them.get(route)
        : method === 'DELETE'
          ? them.del(route)
          : them.put(route, body!));
      expect(res.statusCode, route).toBe(404);
    }
    expect(await them.ok('PUT', '/alarm/acknowledge', { ids: [ourAlarm.id] })).toEqual({
      changed: 0,
      skipped: 0,
      notFound: 1,
    });
    const theirCounts = (await them.ok('GET', '/alarm/counts')) as TAlarmCounts;
    expect(theirCounts.open.critical).toBe(0);
    await vi.waitFor(() =>
      expect(received.filter((m) => m.type === 'alarm').map((m) => m.alarm!.deviceId)).toEqual([
        mine.id,
      ]),
    );
    expect(received.find((m) => m.type === 'alarm')!.alarm!.message).toContain('x9');
    socket.close();
    // A scope naming another company's group or device, or a receiver of theirs, is refused.
    const badScope = await them.post('/alarm/rule/add', {
      name: 'x',
      severity: 'minor',
      scope: { kind: 'device', deviceId: mine.id },
      condition: { type: 'offline', minutes: 5 },
    });
    expect(badScope.statusCode).toBe(400);
    expect(fieldText(badScope.json())).toMatch(/^scope\.deviceId: /);
    const badUser = await them.post('/alarm/rule/add', {
      name: 'x',
      severity: 'minor',
      scope: { kind: 'all' },
      condition: { type: 'offline', minutes: 5 },
      notify: { channels: ['system'], userIds: [adminId] },
    });
    expect(badUser.statusCode).toBe(400);
    expect(fieldText(badUser.json())).toMatch(/^notify\.userIds: /);
    const badCondition = await them.post('/alarm/rule/add', {
      name: 'x',
      severity: 'minor',
      scope: { kind: 'all' },
      condition: { type: 'telemetry', key: 'a', operator: 'outside', low: 5 },
    });
    expect(badCondition.statusCode).toBe(400);
    expect(fieldText(badCondition.json())).toMatch(/condition\.high: /);
    await them.ok('DELETE', `/alarm/rule/delete?id=${theirs.id}`);
    await admin.ok('DELETE', `/alarm/rule/delete?id=${ours.id}`);
  });
});
