import net from 'node:net';
import { deviceAddress, downFilter, downTopic, upTopic } from '@blrms/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_PASSWORD, createTestApp, type TestContext } from '../../test/app.js';
import { client, type Client } from '../../test/devices.js';
import {
  RecordingSink,
  connectDevice,
  credentialOf,
  expectDevice,
  uniqueSn,
  type TokenCredential,
} from '../../test/mqtt-devices.js';

/** The machine's Mosquitto (anonymous, persistent): what the external-broker mode is tested on. */
const BROKER_URL = 'mqtt://127.0.0.1:1883';

const brokerUp = await new Promise<boolean>((resolve) => {
  const socket = net.connect(1883, '127.0.0.1');
  socket.once('connect', () => {
    socket.destroy();
    resolve(true);
  });
  socket.once('error', () => resolve(false));
});

describe.skipIf(!brokerUp)('MQTT gateway (external broker, MQTT_URL)', () => {
  let t: TestContext;
  let admin: Client;
  let tokenId: string;
  const sink = new RecordingSink();
  /** Retained status topics this run created, emptied afterwards (the broker keeps them). */
  const retained: string[] = [];

  let token: TokenCredential;
  const at = (sn: string) => deviceAddress(token.code, sn);

  async function addDevice(sn: string) {
    await admin.ok('POST', '/device/device/add', { tokenId, sn, name: sn, series: 'R40' });
  }

  beforeAll(async () => {
    t = await createTestApp({ app: { mqtt: { url: BROKER_URL }, uplinkSink: sink } });
    admin = client(t, await t.login('admin', ADMIN_PASSWORD));
    const added = await admin.ok('POST', '/device/token/add', {
      name: 'External',
      autoRegister: true,
    });
    tokenId = added.id;
    token = credentialOf(added);
  });
  afterAll(async () => {
    const cleaner = await connectDevice(BROKER_URL, uniqueSn('CLEAN'), { code: 'CLEAN', key: 'x' });
    for (const topic of retained) await cleaner.publishAsync(topic, '', { retain: true, qos: 1 });
    await cleaner.endAsync();
    await t.close();
  });

  it('takes presence from the retained status and the last will', async () => {
    const sn = uniqueSn('EXT');
    await addDevice(sn);
    const status = upTopic(at(sn), 'status');
    retained.push(status);
    const device = await connectDevice(
      BROKER_URL,
      sn,
      { ...token, key: 'any' },
      {
        will: { topic: status, payload: Buffer.from('{"online":false}'), qos: 1, retain: true },
      },
    );
    await device.publishAsync(
      status,
      JSON.stringify({ online: true, series: 'S27X', fw: '3.0.1', ip: '100.64.0.9' }),
      { qos: 1, retain: true },
    );
    const online = await expectDevice(admin, sn, {
      status: 'online',
      series: 'S27X',
      version: '3.0.1',
      ip: '100.64.0.9',
    });
    expect(online.lastConnectAt).not.toBeNull();

    // The connection dies without DISCONNECT: the broker publishes the will.
    device.stream.destroy();
    await expectDevice(admin, sn, { status: 'offline', disconnectReason: 'last-will' }, 3000);
  });

  it('receives telemetry through the shared subscription and sends downlinks', async () => {
    const sn = uniqueSn('EXT');
    await addDevice(sn);
    const device = await connectDevice(BROKER_URL, sn, { ...token, key: 'any' });
    await device.subscribeAsync(downFilter(at(sn)), { qos: 1 });
    const received: string[] = [];
    device.on('message', (topic) => received.push(topic));
    await device.publishAsync(upTopic(at(sn), 'telemetry'), '{"values":{"signal":-80}}', {
      qos: 1,
    });
    await vi.waitFor(() =>
      expect(sink.telemetry.filter((r) => r.device.sn === sn).map((r) => r.payload)).toEqual([
        { values: { signal: -80 } },
      ]),
    );
    await t.app.deviceGateway.send(at(sn), 'rpc', 'r1', {
      method: 'ping',
      params: {},
      timeoutSec: 5,
    });
    await vi.waitFor(() => expect(received).toEqual([downTopic(at(sn), 'rpc', 'r1')]));
    await device.endAsync();
  });

  it('ignores uplinks of SNs it does not know', async () => {
    const sn = uniqueSn('EXT');
    const device = await connectDevice(BROKER_URL, sn, { ...token, key: 'any' });
    await device.publishAsync(upTopic(at(sn), 'telemetry'), '{"values":{"signal":-80}}', {
      qos: 1,
    });
    await device.publishAsync(upTopic(at(sn), 'status'), '{"online":true,"series":"R40"}', {
      qos: 1,
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(sink.telemetry.filter((r) => r.device.sn === sn)).toEqual([]);
    const rows = await t.db.selectFrom('device').select('id').where('sn', '=', sn).execute();
    expect(rows).toEqual([]);
    await device.endAsync();
  });
});
