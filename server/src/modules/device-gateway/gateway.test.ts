import { spawn } from 'node:child_process';
import net from 'node:net';
import {
  MQTT_PAYLOAD_MAX_BYTES,
  deviceAddress,
  downFilter,
  downTopic,
  upTopic,
} from '@blrms/contracts';
import type { IClientOptions, MqttClient } from 'mqtt';
import { generate } from 'mqtt-packet';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sha256 } from '../../platform/auth/tokens.js';
import { newId } from '../../platform/db/ids.js';
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
  createRole,
  type Client,
} from '../../test/devices.js';
import {
  RecordingSink,
  connectDevice,
  expectDevice,
  findDevice,
  credentialOf,
  refusalCode,
  uniqueSn,
  type TokenCredential,
} from '../../test/mqtt-devices.js';
import { GatewayRepository } from './gateway.repository.js';

/** A raw TCP client that sends one CONNECT and reports whether a CONNACK came back. */
function rawConnect(
  port: number,
  connect: { clientId: string; password: string; keepalive?: number },
) {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.on('connect', () =>
    socket.write(
      generate({
        cmd: 'connect',
        protocolId: 'MQTT',
        protocolVersion: 4,
        clean: true,
        clientId: connect.clientId,
        username: connect.clientId,
        password: Buffer.from(connect.password),
        keepalive: connect.keepalive ?? 60,
      }),
    ),
  );
  const answered = new Promise<boolean>((resolve) => {
    socket.once('data', () => resolve(true));
    socket.once('close', () => resolve(false));
  });
  return { socket, answered };
}

describe('MQTT gateway (embedded broker)', () => {
  let t: TestContext;
  let admin: Client;
  let url: string;
  let key: TokenCredential;
  let tokenId: string;
  const sink = new RecordingSink();
  const open: MqttClient[] = [];
  /** The address of a device of the test's token. */
  const at = (sn: string) => deviceAddress(key.code, sn);

  /** A device connection closed after the test. */
  async function device(sn: string, token = key, options: IClientOptions = {}) {
    const connection = await connectDevice(url, sn, token, options);
    open.push(connection);
    return connection;
  }

  async function deviceLogs(sn: string) {
    return t.db.selectFrom('device_log').selectAll().where('sn', '=', sn).execute();
  }

  beforeAll(async () => {
    t = await createTestApp({ app: { mqtt: { port: 0 }, uplinkSink: sink } });
    admin = client(t, await t.login('admin', ADMIN_PASSWORD));
    url = `mqtt://127.0.0.1:${t.app.deviceGateway.port}`;
    const token = await admin.ok('POST', '/device/token/add', {
      name: 'Gateway',
      autoRegister: true,
    });
    key = credentialOf(token);
    tokenId = token.id;
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.endAsync(true)));
  });
  afterAll(() => t.close());

  it('registers an unknown SN on connect and shows it online within a second', async () => {
    const sn = uniqueSn();
    await device(sn);
    const shown = await expectDevice(
      admin,
      sn,
      {
        status: 'online',
        name: sn,
        tokenId,
        ownerName: 'admin',
        ip: '127.0.0.1',
      },
      1000,
    );
    expect(shown.lastConnectAt).not.toBeNull();
    const logs = await deviceLogs(sn);
    expect(logs).toEqual([
      expect.objectContaining({
        subject: 'device.add',
        state: 'succeeded',
        source_ip: '127.0.0.1',
      }),
    ]);
  });

  it('takes series, model, firmware and address from the status message', async () => {
    const sn = uniqueSn();
    const connection = await device(sn);
    await connection.publishAsync(
      upTopic(at(sn), 'status'),
      JSON.stringify({
        online: true,
        series: 'BL10X',
        model: 'BL101',
        fw: '2.1.0',
        ip: '10.1.2.3',
      }),
      { qos: 1, retain: true },
    );
    await expectDevice(admin, sn, {
      status: 'online',
      series: 'BL10X',
      model: 'BL101',
      version: '2.1.0',
      ip: '10.1.2.3',
    });
  });

  it('accepts mosquitto_pub from Debian’s mosquitto-clients', async () => {
    const sn = uniqueSn();
    // -l keeps the connection open and publishes each line of stdin.
    const pub = spawn('/usr/bin/mosquitto_pub', [
      ...['-h', '127.0.0.1', '-p', String(t.app.deviceGateway.port)],
      ...['-i', at(sn), '-u', at(sn), '-P', key.key, '-q', '1', '-r', '-l'],
      ...['-t', upTopic(at(sn), 'status')],
    ]);
    const exited = new Promise((resolve) => pub.once('exit', resolve));
    pub.stdin.write('{"online":true,"series":"S27X"}\n');
    await expectDevice(admin, sn, { status: 'online', series: 'S27X' }, 3000);
    pub.stdin.end();
    await exited;
    await expectDevice(admin, sn, { status: 'offline', disconnectReason: 'client-disconnect' });
  });

  it('refuses a wrong key (return code 4) and logs it on the device of that SN', async () => {
    const sn = uniqueSn();
    await (await device(sn)).endAsync();
    expect(await refusalCode(url, sn, { ...key, key: 'not-the-key' })).toBe(4);
    await vi.waitFor(async () => {
      const refused = (await deviceLogs(sn)).filter((l) => l.state === 'failed');
      expect(refused).toEqual([
        expect.objectContaining({
          subject: 'MQTT connection refused: token-unknown',
          source_ip: '127.0.0.1',
        }),
      ]);
    });
    expect(await refusalCode(url, `${sn}-x`, { ...key, key: key.key.slice(1) })).toBe(4);
    expect(await refusalCode(url, 'bad sn', key)).toBe(4);
  });

  it('refuses a disabled token (4) and a disabled device (5), with a device log row each', async () => {
    const second = await admin.ok('POST', '/device/token/add', {
      name: 'Disabled later',
      autoRegister: true,
    });
    const sn = uniqueSn();
    await (await device(sn, credentialOf(second))).endAsync();
    await admin.ok('PUT', '/device/token/edit', {
      id: second.id,
      name: 'Disabled later',
      autoRegister: true,
      enabled: false,
    });
    expect(await refusalCode(url, sn, credentialOf(second))).toBe(4);

    const other = uniqueSn();
    await (await device(other)).endAsync();
    const registered = await expectDevice(admin, other, { status: 'offline' });
    await admin.ok('PUT', '/device/device/edit', {
      id: registered.id,
      name: registered.name,
      series: registered.series,
      enabled: false,
    });
    expect(await refusalCode(url, other, key)).toBe(5);
    await vi.waitFor(async () => {
      expect((await deviceLogs(sn)).map((l) => l.subject)).toContain(
        'MQTT connection refused: token-disabled',
      );
      expect((await deviceLogs(other)).map((l) => l.subject)).toContain(
        'MQTT connection refused: device-disabled',
      );
    });
    expect(sink.eventsOf(other, 'connection-refused')).toHaveLength(1);
  });

  it('refuses auto-registration when the token has it off', async () => {
    const manual = await admin.ok('POST', '/device/token/add', {
      name: 'Manual',
      autoRegister: false,
    });
    const unknown = uniqueSn();
    expect(await refusalCode(url, unknown, credentialOf(manual))).toBe(5);
    expect(await findDevice(admin, unknown)).toBeUndefined();
  });

  it('keeps devices with the same SN apart: another company can neither take over nor squat them', async () => {
    const sn = uniqueSn('TWIN');
    // Company B claims the SN first, under its own token.
    const companyB = await t.createCompany(`gw-twin-${newId().slice(0, 6)}`);
    const usernameB = `twinb${newId().slice(0, 6)}`;
    await t.createUser({
      username: usernameB,
      password: 'Twin-B-Pass-1',
      companyId: companyB,
      roleIds: [await createRole(t, companyB, [...DEVICE_PAGES, ...DEVICE_BUTTONS])],
    });
    const bossB = client(t, await t.login(usernameB, 'Twin-B-Pass-1'));
    const tokenB = credentialOf(await bossB.ok('POST', '/device/token/add', { name: 'B' }));
    const squatter = await device(sn, tokenB);
    await expectDevice(bossB, sn, { status: 'online' });

    // A's device, with A's key, still connects and registers in A.
    const real = await device(sn, key);
    const mine = await expectDevice(admin, sn, { status: 'online', tokenId });
    expect(mine.tagCode).toBe(at(sn));
    const received: string[] = [];
    real.on('message', (topic) => received.push(topic));
    await real.subscribeAsync(downFilter(at(sn)), { qos: 1 });
    const stolen: string[] = [];
    squatter.on('message', (topic) => stolen.push(topic));
    await squatter.subscribeAsync(downFilter(deviceAddress(tokenB.code, sn)), { qos: 1 });

    // B's key cannot open a session under A's address, nor the bare SN: A stays connected.
    let realClosed = false;
    real.once('close', () => (realClosed = true));
    expect(await refusalCode(url, sn, { code: key.code, key: tokenB.key })).toBe(4);
    expect(await refusalCode(url, sn, tokenB, { clientId: sn, username: sn })).toBe(4);
    await t.app.deviceGateway.send(at(sn), 'config', undefined, { version: 7, config: {} });
    await vi.waitFor(() => expect(received).toEqual([downTopic(at(sn), 'config')]));
    expect(stolen).toEqual([]);
    expect(realClosed).toBe(false);
    await expectDevice(admin, sn, { status: 'online' });
    await expectDevice(bossB, sn, { status: 'online' });
    await vi.waitFor(async () => {
      expect((await deviceLogs(sn)).map((l) => [l.company_id, l.subject])).toContainEqual([
        PLATFORM_ID,
        'MQTT connection refused: token-mismatch',
      ]);
    });
  });

  it('keeps two devices with one SN under two tokens of a company connected side by side', async () => {
    const sn = uniqueSn('PAIR');
    const second = credentialOf(
      await admin.ok('POST', '/device/token/add', { name: 'Second', autoRegister: true }),
    );
    const first = await device(sn, key);
    const other = await device(sn, second);
    let closes = 0;
    first.on('close', () => (closes += 1));
    other.on('close', () => (closes += 1));
    await vi.waitFor(async () => {
      const page = await admin.ok('GET', `/device/device/list?sn=${sn}&pageSize=10`);
      expect(page.records.map((d: { status: string }) => d.status)).toEqual(['online', 'online']);
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(closes).toBe(0);
    expect(sink.eventsOf(sn, 'takeover')).toEqual([]);
  });

  it('answers logins looked up together each as if alone', async () => {
    const sn = uniqueSn('BATCH');
    const other = credentialOf(
      await admin.ok('POST', '/device/token/add', { name: 'Batch', autoRegister: true }),
    );
    await (await device(sn, key)).endAsync();
    const disabledSn = uniqueSn('BATCH');
    await (await device(disabledSn, key)).endAsync();
    const disabled = await expectDevice(admin, disabledSn, { status: 'offline' });
    await admin.ok('PUT', '/device/device/edit', {
      id: disabled.id,
      name: disabled.name,
      series: disabled.series,
      enabled: false,
    });
    const logins: [string, string][] = [
      [sha256(key.key), sn],
      [sha256(key.key), uniqueSn('BATCH')],
      [sha256('not-the-key'), sn],
      [sha256(other.key), sn],
      [sha256(key.key), disabledSn],
      [sha256(key.key), sn],
    ];
    const repository = new GatewayRepository(t.db);
    const alone = [];
    for (const [keyHash, loginSn] of logins) alone.push(await repository.login(keyHash, loginSn));
    const together = await Promise.all(logins.map(([h, s]) => repository.login(h, s)));
    expect(together).toEqual(alone);
    expect(
      alone.map((row) => row && [row.token_id === tokenId, row.device_id, row.device_enabled]),
    ).toEqual([
      [true, expect.any(String), 1],
      [true, null, null],
      undefined,
      [false, null, null],
      [true, disabled.id, 0],
      [true, expect.any(String), 1],
    ]);
    // Through the broker, at once: each connection gets its own answer.
    const codes = await Promise.all([
      refusalCode(url, sn, key),
      refusalCode(url, sn, { ...key, key: 'not-the-key' }),
      refusalCode(url, disabledSn, key),
      refusalCode(url, sn, { code: key.code, key: other.key }),
    ]);
    expect(codes).toEqual([0, 4, 5, 4]);
  });

  it('refuses the devices of a frozen company', async () => {
    const companyId = await t.createCompany(`gw-frozen-${newId().slice(0, 6)}`);
    const ownerId = await t.createUser({
      username: `gwfrozen${newId().slice(0, 6)}`,
      password: 'Frozen-Pass-1',
      companyId,
    });
    const frozen = { code: newId().slice(0, 8).toUpperCase(), key: `frozen-${newId()}` };
    await t.db
      .insertInto('device_token')
      .values({
        id: newId(),
        company_id: companyId,
        owner_id: ownerId,
        code: frozen.code,
        name: 'Frozen',
        remark: null,
        token_key: frozen.key,
        key_hash: sha256(frozen.key),
        auto_register: 1,
        enabled: 1,
        create_time: t.clock.now,
        update_time: null,
      })
      .execute();
    await t.db.updateTable('sys_company').set({ status: 2 }).where('id', '=', companyId).execute();
    const sn = uniqueSn();
    expect(await refusalCode(url, sn, frozen)).toBe(5);
    await vi.waitFor(async () => {
      expect(await deviceLogs(sn)).toEqual([
        expect.objectContaining({
          company_id: companyId,
          subject: 'MQTT connection refused: company-frozen',
        }),
      ]);
    });
  });

  it('keeps devices to their own topics: a foreign publish closes the connection, a foreign subscription is refused', async () => {
    const victimSn = uniqueSn();
    const victim = await device(victimSn);
    await victim.subscribeAsync(downFilter(at(victimSn)), { qos: 1 });
    const received: string[] = [];
    victim.on('message', (topic) => received.push(topic));

    const snoopSn = uniqueSn();
    const snoop = await device(snoopSn);
    // mqtt.js rejects a SUBACK with any refusal, and carries the packet in the error.
    const suback = await snoop
      .subscribeAsync([downFilter(at(victimSn)), '#', downFilter(at(snoopSn))], { qos: 1 })
      .then(
        () => null,
        (error: { packet?: { granted?: number[] } }) => error.packet?.granted,
      );
    expect(suback).toEqual([128, 128, 1]);
    expect(snoop.connected).toBe(true);

    // MQTT 3.1.1 cannot refuse a publish: the server closes the connection instead of
    // acknowledging what it drops, so the device knows it was not delivered.
    const intruderSn = uniqueSn();
    const intruder = await device(intruderSn);
    const closed = new Promise<void>((resolve) => intruder.once('close', () => resolve()));
    intruder.publish(downTopic(at(victimSn), 'config'), '{"version":1,"config":{}}', { qos: 1 });
    await closed;
    await expectDevice(admin, intruderSn, {
      status: 'offline',
      disconnectReason: 'acl-violation',
    });

    // The server's own downlink does reach the device; the intruder's never did.
    await t.app.deviceGateway.send(at(victimSn), 'config', undefined, { version: 2, config: {} });
    await vi.waitFor(() => expect(received).toEqual([downTopic(at(victimSn), 'config')]));
    expect(sink.eventsOf(snoopSn, 'acl-violation').map((e) => e.message)).toEqual([
      `subscribe ${downFilter(at(victimSn))}`,
      'subscribe #',
    ]);
    expect(sink.eventsOf(intruderSn, 'acl-violation').map((e) => e.message)).toEqual([
      `publish ${downTopic(at(victimSn), 'config')}`,
    ]);
  });

  it('disconnects a device after ten refused subscriptions', async () => {
    const sn = uniqueSn();
    const connection = await device(sn);
    for (let i = 0; i < 10; i++) connection.subscribe(`elsewhere/${i}`, { qos: 1 });
    await expectDevice(admin, sn, { status: 'offline', disconnectReason: 'acl-violation' });
  });

  it('lets a watcher with the device’s key see its downlinks, and nothing more', async () => {
    const sn = uniqueSn('WATCH');
    const real = await device(sn);
    await real.subscribeAsync(downFilter(at(sn)), { qos: 1 });
    await expectDevice(admin, sn, { status: 'online' });
    const watcher = await connectDevice(url, sn, key, {
      clientId: `${at(sn)}:watch`,
      username: at(sn),
    });
    open.push(watcher);
    const watched: string[] = [];
    watcher.on('message', (topic) => watched.push(topic));
    await watcher.subscribeAsync(downFilter(at(sn)), { qos: 1 });

    await t.app.deviceGateway.send(at(sn), 'rpc', 'w1', { method: 'ping', timeoutSec: 5 });
    await vi.waitFor(() => expect(watched).toEqual([downTopic(at(sn), 'rpc', 'w1')]));
    // The device keeps its session and its presence: the watcher is not the device.
    expect(real.connected).toBe(true);
    await watcher.endAsync();
    await new Promise((r) => setTimeout(r, 200));
    await expectDevice(admin, sn, { status: 'online' });
    expect(real.connected).toBe(true);

    // A watcher may not speak for the device, nor watch with another token's key.
    const speaking = await connectDevice(url, sn, key, {
      clientId: `${at(sn)}:watch`,
      username: at(sn),
    });
    const closed = new Promise<void>((resolve) => speaking.once('close', () => resolve()));
    speaking.publish(upTopic(at(sn), 'telemetry'), '{"values":{"signal":-1}}', { qos: 1 });
    await closed;
    const other = credentialOf(await admin.ok('POST', '/device/token/add', { name: 'Not it' }));
    expect(
      await refusalCode(
        url,
        sn,
        { code: key.code, key: other.key },
        {
          clientId: `${at(sn)}:watch`,
          username: at(sn),
        },
      ),
    ).toBe(4);
    expect(
      await refusalCode(url, uniqueSn('NEW'), key, {
        clientId: `${at('NEW-1')}:watch`,
        username: at('NEW-1'),
      }),
    ).toBe(5);
    expect(sink.telemetry.filter((r) => r.device.sn === sn)).toEqual([]);
  });

  it('keeps the valid values of a telemetry message and reports the invalid ones', async () => {
    const sn = uniqueSn();
    const connection = await device(sn);
    await connection.publishAsync(
      upTopic(at(sn), 'telemetry'),
      JSON.stringify({ values: { signal: -70, 'bad key': 1, di1: 'on', ain1: 4.5 } }),
      { qos: 1 },
    );
    await vi.waitFor(() =>
      expect(sink.telemetry.filter((r) => r.device.sn === sn).map((r) => r.payload)).toEqual([
        { values: { signal: -70, ain1: 4.5 } },
      ]),
    );
    expect(sink.eventsOf(sn, 'malformed-payload').map((e) => e.message)).toEqual([
      `${upTopic(at(sn), 'telemetry')}: values dropped: bad key, di1`,
    ]);
  });

  it('takes telemetry as its schema does: other fields dropped, a bad time refused', async () => {
    const sn = uniqueSn();
    const connection = await device(sn);
    const topic = upTopic(at(sn), 'telemetry');
    for (const payload of [
      { ts: 5, values: { signal: -70 }, extra: true },
      { ts: -1, values: { signal: -71 } },
      { ts: 1.5, values: { signal: -72 } },
      { values: { signal: -73, Signal_2: 0 } },
    ]) {
      await connection.publishAsync(topic, JSON.stringify(payload), { qos: 1 });
    }
    await vi.waitFor(() =>
      expect(sink.telemetry.filter((r) => r.device.sn === sn).map((r) => r.payload)).toEqual([
        { ts: 5, values: { signal: -70 } },
        { values: { signal: -73, Signal_2: 0 } },
      ]),
    );
    expect(sink.eventsOf(sn, 'malformed-payload')).toHaveLength(2);
  });

  it('lets a second connection with the same SN take over and keeps the device online', async () => {
    const sn = uniqueSn();
    const first = await device(sn);
    await expectDevice(admin, sn, { status: 'online' });
    const closed = new Promise<void>((resolve) => first.once('close', () => resolve()));
    await device(sn);
    await closed;
    await expectDevice(admin, sn, { status: 'online', disconnectReason: 'takeover' });
    expect(sink.eventsOf(sn, 'takeover')).toHaveLength(1);
    // Still online once the presence writes of both connections have settled.
    await new Promise((r) => setTimeout(r, 300));
    expect(await findDevice(admin, sn)).toMatchObject({ status: 'online' });
  });

  it('sets offline a device whose connection dies, one that disconnects, and one with a will', async () => {
    const lost = uniqueSn();
    const withWill = uniqueSn();
    const clean = uniqueSn();
    const a = await device(lost);
    const b = await device(withWill, key, {
      will: {
        topic: upTopic(at(withWill), 'status'),
        payload: Buffer.from('{"online":false}'),
        qos: 1,
        retain: true,
      },
    });
    const c = await device(clean);
    await expectDevice(admin, withWill, { status: 'online' });
    a.stream.destroy();
    b.stream.destroy();
    await c.endAsync();
    await expectDevice(admin, lost, { status: 'offline', disconnectReason: 'connection-lost' });
    const shown = await expectDevice(admin, withWill, {
      status: 'offline',
      disconnectReason: 'connection-lost',
    });
    expect(shown.lastDisconnectAt).not.toBeNull();
    await expectDevice(admin, clean, { status: 'offline', disconnectReason: 'client-disconnect' });
  });

  it('notices a device that stops talking (keepalive timeout)', async () => {
    const sn = uniqueSn();
    // Promises a packet every second, then sends nothing more.
    const silent = rawConnect(t.app.deviceGateway.port ?? 0, {
      clientId: at(sn),
      password: key.key,
      keepalive: 1,
    });
    expect(await silent.answered).toBe(true);
    await expectDevice(admin, sn, { status: 'online' });
    await expectDevice(
      admin,
      sn,
      { status: 'offline', disconnectReason: 'keepalive-timeout' },
      4000,
    );
    silent.socket.destroy();
  });

  it('routes telemetry and events to the device-data sink', async () => {
    const sn = uniqueSn();
    const connection = await device(sn);
    await connection.publishAsync(
      upTopic(at(sn), 'telemetry'),
      JSON.stringify({ ts: 1000, values: { signal: -71, di1: 1 } }),
      { qos: 1 },
    );
    await connection.publishAsync(
      upTopic(at(sn), 'event'),
      JSON.stringify({ level: 'alarm', code: 'di1', message: 'door open' }),
      { qos: 1 },
    );
    await vi.waitFor(() => {
      expect(sink.telemetry.filter((r) => r.device.sn === sn)).toEqual([
        {
          device: expect.objectContaining({ sn }),
          payload: { ts: 1000, values: { signal: -71, di1: 1 } },
        },
      ]);
      expect(sink.eventsOf(sn, 'di1')).toEqual([
        expect.objectContaining({ level: 'alarm', message: 'door open', source: 'device' }),
      ]);
    });
  });

  it('hands on replies and live online statuses, and delivers downlinks to the device', async () => {
    const sn = uniqueSn();
    const connection = await device(sn);
    await connection.subscribeAsync(downFilter(at(sn)), { qos: 1 });
    const status = { online: true, series: 'R40', fw: '1.2.3' };
    await connection.publishAsync(upTopic(at(sn), 'status'), JSON.stringify(status), {
      qos: 1,
      retain: true,
    });
    const downlink = new Promise<string>((resolve) =>
      connection.once('message', (topic) => resolve(topic)),
    );
    await t.app.deviceGateway.send(at(sn), 'ota', 'job1', { version: '1.2.4' });
    expect(await downlink).toBe(downTopic(at(sn), 'ota', 'job1'));
    const replies = [
      [
        upTopic(at(sn), 'config/reported'),
        { version: 2, result: 'ok', config: { heartbeatSec: 60 } },
      ],
      [upTopic(at(sn), 'rpc', 'req1'), { ok: true, result: 'pong' }],
      [upTopic(at(sn), 'ota', 'job1'), { state: 'downloading', progress: 40 }],
      // Not what the schema says: recorded as malformed, not handed on.
      [upTopic(at(sn), 'ota', 'job1'), { state: 'exploded' }],
    ] as const;
    for (const [topic, payload] of replies) {
      await connection.publishAsync(topic, JSON.stringify(payload), { qos: 1 });
    }
    await vi.waitFor(() => {
      expect(sink.replies.filter((r) => r.sn === sn)).toEqual([
        { kind: 'online', sn, payload: { series: 'R40', fw: '1.2.3' } },
        { kind: 'config/reported', sn, payload: replies[0][1] },
        { kind: 'rpc', sn, id: 'req1', payload: replies[1][1] },
        { kind: 'ota', sn, id: 'job1', payload: replies[2][1] },
      ]);
      expect(sink.eventsOf(sn, 'malformed-payload')).toHaveLength(1);
    });
  });

  it('drops and records payloads over 64 KiB, malformed JSON and schema failures', async () => {
    const sn = uniqueSn();
    const connection = await device(sn);
    await connection.publishAsync(
      upTopic(at(sn), 'telemetry'),
      Buffer.alloc(MQTT_PAYLOAD_MAX_BYTES + 1, 0x20),
      { qos: 1 },
    );
    await connection.publishAsync(upTopic(at(sn), 'telemetry'), '{"values":', { qos: 1 });
    await connection.publishAsync(upTopic(at(sn), 'event'), '{"level":"panic","code":"x"}', {
      qos: 1,
    });
    await vi.waitFor(() => {
      const messages = sink.eventsOf(sn, 'malformed-payload').map((e) => e.message);
      expect(messages).toEqual([
        `${upTopic(at(sn), 'telemetry')}: payload of 65537 bytes is over the 65536-byte limit`,
        `${upTopic(at(sn), 'telemetry')}: not JSON`,
        expect.stringMatching(new RegExp(`^${upTopic(at(sn), 'event')}: level: `)),
      ]);
    });
    expect(sink.telemetry.filter((r) => r.device.sn === sn)).toEqual([]);
    expect(connection.connected).toBe(true);
  });

  it('disconnects a device that keeps sending bad payloads', async () => {
    const sn = uniqueSn();
    const connection = await device(sn);
    for (let i = 0; i < 21; i++) connection.publish(upTopic(at(sn), 'telemetry'), 'garbage');
    await expectDevice(admin, sn, { status: 'offline', disconnectReason: 'bad-payloads' });
    expect(sink.eventsOf(sn, 'malformed-payload')).toHaveLength(20);
  });

  it('counts bad payloads per device across its reconnects, and records 20 a minute', async () => {
    const sn = uniqueSn();
    const malformed = () => sink.eventsOf(sn, 'malformed-payload');
    const first = await device(sn);
    for (let i = 0; i < 15; i++) first.publish(upTopic(at(sn), 'telemetry'), 'garbage');
    await vi.waitFor(() => expect(malformed()).toHaveLength(15));
    await first.endAsync();

    const second = await device(sn);
    for (let i = 0; i < 10; i++) second.publish(upTopic(at(sn), 'telemetry'), 'garbage');
    await expectDevice(admin, sn, { status: 'offline', disconnectReason: 'bad-payloads' });
    expect(malformed()).toHaveLength(20);

    // Within the minute, its next bad payload closes a new connection at once.
    const third = await device(sn);
    await expectDevice(admin, sn, { status: 'online' });
    third.publish(upTopic(at(sn), 'telemetry'), 'garbage');
    await expectDevice(admin, sn, { status: 'offline', disconnectReason: 'bad-payloads' });
    expect(malformed()).toHaveLength(20);

    // A minute on, the next bad payload is recorded again, after the summary of the last minute.
    t.clock.advance(60_000);
    const fourth = await device(sn);
    fourth.publish(upTopic(at(sn), 'telemetry'), 'garbage');
    await vi.waitFor(() => expect(malformed()).toHaveLength(21));
    expect(sink.eventsOf(sn, 'repeats-summarised').map((e) => e.message)).toEqual([
      expect.stringMatching(
        /^In the last minute: malformed-payload ×2\d, bad-payload-disconnect ×2; \d+ of them not recorded one by one$/,
      ),
    ]);
  });

  it('closes a connection that sends a giant packet, without reading it', async () => {
    const sn = uniqueSn();
    const connection = await device(sn);
    const closed = new Promise<void>((resolve) => connection.once('close', () => resolve()));
    connection.publish(upTopic(at(sn), 'telemetry'), Buffer.alloc(4 * 1024 * 1024, 0x20));
    await closed;
    await expectDevice(admin, sn, { status: 'offline', disconnectReason: 'bad-payloads' });
    expect(sink.eventsOf(sn, 'malformed-payload')[0]?.message).toMatch(
      /^\(packet\): packet of \d+ bytes/,
    );
  });

  it('closes the connections of a token disabled through the API', async () => {
    const second = await admin.ok('POST', '/device/token/add', {
      name: 'Kicked',
      autoRegister: true,
    });
    const sn = uniqueSn();
    const connection = await device(sn, credentialOf(second));
    await expectDevice(admin, sn, { status: 'online' });
    const closed = new Promise<void>((resolve) => connection.once('close', () => resolve()));
    await admin.ok('PUT', '/device/token/edit', {
      id: second.id,
      name: 'Kicked',
      autoRegister: true,
      enabled: false,
    });
    await closed;
    await expectDevice(admin, sn, { status: 'offline', disconnectReason: 'token-disabled' });
  });

  it('closes the connection of a device disabled or deleted through the API', async () => {
    const disabled = uniqueSn();
    const deleted = uniqueSn();
    const a = await device(disabled);
    const b = await device(deleted);
    const shownA = await expectDevice(admin, disabled, { status: 'online' });
    const shownB = await expectDevice(admin, deleted, { status: 'online' });
    const closedA = new Promise<void>((resolve) => a.once('close', () => resolve()));
    const closedB = new Promise<void>((resolve) => b.once('close', () => resolve()));
    await admin.ok('PUT', '/device/device/edit', {
      id: shownA.id,
      name: shownA.name,
      series: shownA.series,
      enabled: false,
    });
    await admin.ok('DELETE', `/device/device/delete?id=${shownB.id}`);
    await Promise.all([closedA, closedB]);
    await expectDevice(admin, disabled, { status: 'offline', disconnectReason: 'device-disabled' });
  });

  it('closes, once the bus is back, the connections another node would have kicked during the gap', async () => {
    const second = await admin.ok('POST', '/device/token/add', {
      name: 'Rekeyed in the gap',
      autoRegister: true,
    });
    const keep = uniqueSn();
    const disabled = uniqueSn();
    const rekeyed = uniqueSn();
    const kept = await device(keep);
    const a = await device(disabled);
    const b = await device(rekeyed, credentialOf(second));
    const shownA = await expectDevice(admin, disabled, { status: 'online' });
    await expectDevice(admin, rekeyed, { status: 'online' });
    await expectDevice(admin, keep, { status: 'online' });
    const closedA = new Promise<void>((resolve) => a.once('close', () => resolve()));
    const closedB = new Promise<void>((resolve) => b.once('close', () => resolve()));
    // Changed on another node while the bus was away: no kick reached this node.
    await t.db.updateTable('device').set({ enabled: 0 }).where('id', '=', shownA.id).execute();
    await t.db
      .updateTable('device_token')
      .set({ key_hash: 'f'.repeat(64) })
      .where('id', '=', second.id)
      .execute();
    await t.bus.publish('bus.resumed', { gapMs: 5000 });
    await Promise.all([closedA, closedB]);
    await expectDevice(admin, disabled, { status: 'offline', disconnectReason: 'device-disabled' });
    await expectDevice(admin, rekeyed, { status: 'offline', disconnectReason: 'token-disabled' });
    expect(kept.connected).toBe(true);
  });

  it('sets its devices online again when another node took it for dead', async () => {
    const sn = uniqueSn();
    await device(sn);
    await expectDevice(admin, sn, { status: 'online' });
    // What another node does to a node it finds silent.
    const released = await new GatewayRepository(t.db).releaseStaleNode(
      t.app.deviceGateway.node,
      Number.MAX_SAFE_INTEGER,
      { last_disconnect_at: t.clock.now, disconnect_reason: 'connection-lost' },
    );
    expect(released?.map((r) => r.sn)).toContain(sn);
    await expectDevice(admin, sn, { status: 'offline' });

    await t.app.deviceGateway.sweepNodes();
    await expectDevice(admin, sn, { status: 'online' });
  });

  it('speaks MQTT over WebSocket on the HTTP port at /mqtt', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address() as net.AddressInfo;
    const sn = uniqueSn();
    const ws = await connectDevice(`ws://127.0.0.1:${address.port}/mqtt`, sn, key);
    open.push(ws);
    await expectDevice(admin, sn, { status: 'online' });
  });

  it('alerts the owner once when a device stays offline, and once for a flapping device', async () => {
    // A token of another owner: the alerts of the devices of the other tests go to admin.
    const companyId = await t.createCompany(`gw-alerts-${newId().slice(0, 6)}`);
    const ownerName = `gwowner${newId().slice(0, 6)}`;
    const ownerId = await t.createUser({
      username: ownerName,
      password: 'Owner-Pass-1',
      companyId,
    });
    const ownerToken = { code: newId().slice(0, 8).toUpperCase(), key: `alerts-${newId()}` };
    await t.db
      .insertInto('device_token')
      .values({
        id: newId(),
        company_id: companyId,
        owner_id: ownerId,
        code: ownerToken.code,
        name: 'Alerts',
        remark: null,
        token_key: ownerToken.key,
        key_hash: sha256(ownerToken.key),
        auto_register: 1,
        enabled: 1,
        create_time: t.clock.now,
        update_time: null,
      })
      .execute();
    const alerts = () =>
      t.db
        .selectFrom('sys_announcement')
        .innerJoin('sys_announcement_send as s', 's.annt_id', 'sys_announcement.id')
        .select(['titile', 'msg_content', 'msg_code', 'open_page', 'bus_id'])
        .where('s.user_id', '=', ownerId)
        .orderBy('sys_announcement.create_time')
        .execute();
    const deviceOf = async (sn: string) =>
      t.db
        .selectFrom('device')
        .select(['id', 'status'])
        .where('sn', '=', sn)
        .executeTakeFirstOrThrow();
    const waitOffline = (sn: string) =>
      vi.waitFor(async () => expect((await deviceOf(sn)).status).toBe('offline'), {
        timeout: 1000,
      });

    const steady = uniqueSn();
    const flapping = uniqueSn();
    await (await device(steady, ownerToken)).endAsync();
    await waitOffline(steady);
    for (let i = 0; i < 4; i++) {
      await (await device(flapping, ownerToken)).endAsync();
      await waitOffline(flapping);
    }
    await t.app.deviceGateway.checkAlerts();
    expect(await alerts()).toEqual([
      expect.objectContaining({
        titile: '1 台设备连接不稳定',
        msg_code: 'device_unstable',
        msg_content: expect.stringContaining(flapping),
      }),
    ]);

    t.clock.advance(61_000);
    await t.app.deviceGateway.checkAlerts();
    await t.app.deviceGateway.checkAlerts();
    const steadyId = (await deviceOf(steady)).id;
    expect((await alerts()).slice(1)).toEqual([
      expect.objectContaining({
        titile: '1 台设备离线',
        msg_code: 'device_offline',
        msg_content: expect.stringContaining(steady),
        open_page: `/device/detail/${steadyId}`,
        bus_id: steadyId,
      }),
    ]);

    // The owner reads the same alerts in the language of their console, one language each.
    const owner = await t.login(ownerName, 'Owner-Pass-1');
    const bellIn = async (lang: string) =>
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/sys/annountCement/listByUser',
          headers: authHeaders(owner, { 'accept-language': lang }),
        })
      ).json().result.sysMsgList as { titile: string; msgContent: string }[];
    const zh = await bellIn('zh-CN');
    expect(zh.map((m) => m.titile)).toEqual(['1 台设备离线', '1 台设备连接不稳定']);
    expect(zh[0]?.msgContent).toBe(`<p>以下设备已离线超过 60 秒：${steady}</p>`);
    const en = await bellIn('en-US');
    expect(en.map((m) => m.titile)).toEqual([
      '1 device(s) offline',
      '1 device(s) with an unstable connection',
    ]);
    expect(en[0]?.msgContent).toBe(
      `<p>These devices have been offline for more than 60 s: ${steady}</p>`,
    );
    for (const m of [...zh, ...en]) expect(`${m.titile}${m.msgContent}`).not.toContain(' / ');
  });
});

describe('MQTT gateway with the device-data module', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({ app: { mqtt: { port: 0 } } });
  });
  afterAll(() => t.close());

  it('stores telemetry and records malformed payloads as events the API shows', async () => {
    const admin = client(t, await t.login('admin', ADMIN_PASSWORD));
    const token = credentialOf(await admin.ok('POST', '/device/token/add', { name: 'Data' }));
    const sn = uniqueSn();
    const at = (s: string) => deviceAddress(token.code, s);
    const connection = await connectDevice(
      `mqtt://127.0.0.1:${t.app.deviceGateway.port}`,
      sn,
      token,
    );
    await connection.publishAsync(upTopic(at(sn), 'telemetry'), '{"values":{"signal":-65}}', {
      qos: 1,
    });
    await connection.publishAsync(upTopic(at(sn), 'event'), 'not json', { qos: 1 });
    await connection.endAsync();
    await t.app.deviceData.flush();
    const { id } = await expectDevice(admin, sn, { status: 'offline' });
    const latest = await admin.ok('GET', `/device/telemetry/latest?deviceId=${id}`);
    expect(latest.values).toEqual([expect.objectContaining({ key: 'signal', value: -65 })]);
    const events = await admin.ok('GET', `/device/event/list?deviceId=${id}`);
    expect(events.records).toEqual([
      expect.objectContaining({
        code: 'malformed-payload',
        level: 'warn',
        source: 'platform',
        message: `${upTopic(at(sn), 'event')}: not JSON`,
      }),
    ]);
  });
});

describe('MQTT gateway connect rate limit', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({
      app: {
        mqtt: { port: 0, connectRateLimit: { perSecond: 1, burst: 20 } },
        uplinkSink: new RecordingSink(),
      },
    });
  });
  afterAll(() => t.close());

  it('refuses a burst of connections from one address and stays up', async () => {
    const port = t.app.deviceGateway.port ?? 0;
    const attempts = Array.from({ length: 300 }, (_, i) =>
      rawConnect(port, { clientId: `BURST-${i}`, password: 'wrong' }),
    );
    const answered = await Promise.all(attempts.map((a) => a.answered));
    for (const a of attempts) a.socket.destroy();
    const admitted = answered.filter(Boolean).length;
    expect(admitted).toBeGreaterThanOrEqual(20);
    expect(admitted).toBeLessThan(40);
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
  });
});
