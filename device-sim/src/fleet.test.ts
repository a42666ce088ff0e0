import {
  MQTT_PAYLOAD_MAX_BYTES,
  ZEventPayload,
  ZStatusPayload,
  ZTelemetryPayload,
  downTopic,
  upTopic,
  type TDeviceSeries,
  deviceAddress,
} from '@blrms/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Fleet, type FleetOptions } from './fleet.js';
import { startTestBroker, until, type TestBroker } from './test-broker.js';

const TOKEN = 'sim-test-token-key';
const CODE = 'SIMTEST1';
const at = (sn: string) => deviceAddress(CODE, sn);

let broker: TestBroker;
const fleets: Fleet[] = [];

beforeEach(async () => {
  broker = await startTestBroker(TOKEN);
});

afterEach(async () => {
  await Promise.all(fleets.splice(0).map((fleet) => fleet.stop()));
  await broker.close();
});

function startFleet(options: Partial<FleetOptions> = {}): Fleet {
  const fleet = new Fleet({
    url: broker.url,
    token: TOKEN,
    tokenCode: CODE,
    count: 3,
    series: ['R40', 'BL10X', 'S27X'],
    prefix: 'T',
    intervalMs: 60_000,
    keepaliveSec: 60,
    churn: 0,
    badPayloadRate: 0,
    sourceIps: [],
    connectRate: 1000,
    ...options,
  });
  fleets.push(fleet);
  fleet.start();
  return fleet;
}

const onTopic = (topic: string) => broker.published.filter((m) => m.topic === topic);
const json = (payload: Buffer): unknown => JSON.parse(payload.toString());

describe('simulated devices against a real broker', () => {
  it('log in with SN and token, leave a retained offline will and announce a retained status', async () => {
    const fleet = startFleet();
    await until(() => fleet.counters.online === 3, 'three devices online');
    await until(
      () =>
        ['T000001', 'T000002', 'T000003'].every(
          (sn) => onTopic(upTopic(at(sn), 'status')).length > 0,
        ),
      'three status messages',
    );

    const expected: [string, TDeviceSeries][] = [
      ['T000001', 'R40'],
      ['T000002', 'BL10X'],
      ['T000003', 'S27X'],
    ];
    for (const [sn, series] of expected) {
      expect(broker.logins).toContainEqual(
        expect.objectContaining({ clientId: at(sn), username: at(sn), password: TOKEN }),
      );
      const will = broker.wills.get(at(sn));
      expect(will?.topic).toBe(upTopic(at(sn), 'status'));
      expect(will?.retain).toBe(true);
      expect(json(will?.payload ?? Buffer.from('null'))).toEqual({ online: false });

      const [status] = onTopic(upTopic(at(sn), 'status'));
      expect(status?.retain).toBe(true);
      expect(status?.clientId).toBe(at(sn));
      const payload = ZStatusPayload.parse(json(status?.payload ?? Buffer.from('null')));
      expect(payload).toMatchObject({ online: true, series });
    }
  });

  it('report telemetry and events that match the protocol schemas', async () => {
    startFleet({ count: 6, intervalMs: 20 });
    await until(
      () => broker.published.filter((m) => m.topic.endsWith('/up/telemetry')).length >= 120,
      '120 telemetry messages',
    );
    const telemetry = broker.published.filter((m) => m.topic.endsWith('/up/telemetry'));
    for (const message of telemetry) ZTelemetryPayload.parse(json(message.payload));
    const keysOf = (sn: string) =>
      Object.keys(
        ZTelemetryPayload.parse(json(onTopic(upTopic(at(sn), 'telemetry'))[0]!.payload)).values,
      );
    expect(keysOf('T000001')).toEqual(
      expect.arrayContaining(['signal', 'rsrp', 'sinr', 'tx_bytes', 'rx_bytes', 'wan_up']),
    );
    expect(keysOf('T000002')).toEqual(
      expect.arrayContaining(['signal', 'modbus_ok', 'modbus_fail']),
    );
    expect(keysOf('T000003')).toEqual(
      expect.arrayContaining(['di1', 'di2', 'di3', 'di4', 'ain1', 'ain2', 'do1', 'do2', 'signal']),
    );
    // Counters only grow from one report to the next.
    const txBytes = onTopic(upTopic(at('T000001'), 'telemetry')).map(
      (m) => ZTelemetryPayload.parse(json(m.payload)).values.tx_bytes ?? 0,
    );
    expect(txBytes).toEqual([...txBytes].sort((a, b) => a - b));

    await until(
      () => broker.published.some((m) => m.topic === upTopic(at('T000003'), 'event')),
      'an S27X input event',
    );
    for (const message of broker.published.filter((m) => m.topic.endsWith('/up/event')))
      ZEventPayload.parse(json(message.payload));
  });

  it('send the telemetry profile on the devices that follow it, the model elsewhere', async () => {
    const startedAt = Date.now();
    const fleet = startFleet({
      count: 4,
      series: ['S27X'],
      intervalMs: 20,
      telemetryProfile: {
        curves: [
          { key: 'ain1', shape: 'square', from: 10, to: 25, periodMs: 400, decimals: 0 },
          { key: 'temp', shape: 'const', from: 55, to: 55, periodMs: 0, decimals: 0 },
        ],
        devices: 2,
        phase: 'aligned',
        startedAt,
      },
    });
    expect(fleet.profiled().map((agent) => agent.sn)).toEqual(['T000002', 'T000004']);
    const reports = (sn: string) =>
      onTopic(upTopic(at(sn), 'telemetry')).map((m) => ZTelemetryPayload.parse(json(m.payload)));
    await until(
      () => ['T000001', 'T000002'].every((sn) => reports(sn).length >= 30),
      '30 reports from a follower and from another device',
    );
    for (const { ts, values } of reports('T000002')) {
      expect(values.temp).toBe(55);
      expect(values.ain1).toBe(((ts ?? NaN) - startedAt) % 400 < 200 ? 10 : 25);
      expect(values.di1).toBeDefined();
    }
    for (const { values } of reports('T000001')) {
      expect(values).not.toHaveProperty('temp');
      expect(values.ain1).toBeGreaterThanOrEqual(4);
      expect(values.ain1).toBeLessThanOrEqual(20);
    }
  });

  it('answer an RPC ping with pong, and an unknown method with an error', async () => {
    const fleet = startFleet({ count: 1, series: ['R40'] });
    await until(() => fleet.counters.online === 1, 'the device online');
    // The status goes out once the broker confirmed the `down/#` subscription.
    await until(
      () => broker.published.some((m) => m.topic === upTopic(at('T000001'), 'status')),
      'status',
    );

    await broker.publish(downTopic(at('T000001'), 'rpc', 'req-1'), '{"method":"ping","params":{}}');
    await broker.publish(downTopic(at('T000001'), 'rpc', 'req-2'), '{"method":"format_disk"}');
    await until(() => onTopic(upTopic(at('T000001'), 'rpc', 'req-2')).length === 1, 'two replies');
    expect(json(onTopic(upTopic(at('T000001'), 'rpc', 'req-1'))[0]!.payload)).toEqual({
      ok: true,
      result: 'pong',
    });
    expect(json(onTopic(upTopic(at('T000001'), 'rpc', 'req-2'))[0]!.payload)).toMatchObject({
      ok: false,
    });
  });

  it('a dropped device leaves a lost connection (its will is published) and reconnects', async () => {
    const fleet = startFleet({ count: 2, dropReconnectMs: { min: 100, max: 150 } });
    await until(() => fleet.counters.online === 2, 'two devices online');
    const status = upTopic(at('T000001'), 'status');
    await until(() => onTopic(status).length === 1, 'the first status');

    const dropped = fleet.drop(1, 200);
    expect(dropped.map((d) => d.sn)).toEqual(['T000001']);
    // A dropped device says nothing more: the offline status is its will, which the broker
    // publishes because the connection was lost.
    await until(() => onTopic(status).length === 2, 'the last will');
    expect(json(onTopic(status)[1]!.payload)).toEqual({ online: false });
    expect(onTopic(status)[1]?.retain).toBe(true);
    await until(() => onTopic(status).length === 3, 'the status after reconnecting');
    expect(json(onTopic(status)[2]!.payload)).toMatchObject({ online: true });
    expect(broker.logins.filter((l) => l.clientId === at('T000001'))).toHaveLength(2);
    expect(fleet.counters).toMatchObject({ online: 2, drops: 1, connects: 3 });
  });

  it('churn makes devices drop and come back on their own', async () => {
    const fleet = startFleet({
      count: 4,
      intervalMs: 30,
      churn: 0.5,
      dropReconnectMs: { min: 20, max: 50 },
    });
    await until(() => fleet.counters.drops >= 8 && fleet.counters.connects >= 12, 'churn');
    const willsPublished = broker.published.filter(
      (m) => m.topic.endsWith('/up/status') && m.payload.toString() === '{"online":false}',
    );
    expect(willsPublished.length).toBeGreaterThan(0);
  });

  it('bad-payload mode sends malformed JSON, oversized and schema-invalid messages', async () => {
    const fleet = startFleet({ count: 2, intervalMs: 10, badPayloadRate: 1 });
    const kinds = () => {
      const found = new Set<string>();
      for (const m of broker.published) {
        if (m.topic.endsWith('/up/status')) continue;
        if (m.payload.length > MQTT_PAYLOAD_MAX_BYTES) {
          found.add('oversized');
          continue;
        }
        let parsed: unknown;
        try {
          parsed = json(m.payload);
        } catch {
          found.add('malformed');
          continue;
        }
        const schema = m.topic.endsWith('/up/event') ? ZEventPayload : ZTelemetryPayload;
        if (!schema.safeParse(parsed).success) found.add('invalid');
      }
      return found;
    };
    // The counter and the broker's record are read at different moments: wait for both.
    await until(
      () => kinds().size === 3 && fleet.counters.badPayloads > 3,
      'all three kinds of bad payload, counted',
    );
    expect(fleet.counters.telemetry).toBe(0);
  });

  it('a wrong token is refused and the device does not count as online', async () => {
    const fleet = startFleet({ count: 1, token: 'wrong' });
    await until(() => fleet.counters.refused === 1, 'the refusal');
    expect(fleet.counters.online).toBe(0);
    expect(broker.published).toHaveLength(0);
  });

  it('stopping publishes a retained offline status and disconnects politely', async () => {
    const fleet = startFleet({ count: 1, series: ['S27X'] });
    // Online counts at the broker's answer; the device announces itself only once subscribed, so
    // stopping before the broker saw that would leave nothing to compare (seen on a loaded CI).
    const statuses = () => onTopic(upTopic(at('T000001'), 'status'));
    await until(() => statuses().length === 1, 'the device announced online');
    await fleet.stop();
    await until(() => broker.disconnects.includes(at('T000001')), 'the disconnect');
    expect(statuses().map((m) => [m.clientId, json(m.payload)])).toEqual([
      [at('T000001'), expect.objectContaining({ online: true })],
      [at('T000001'), { online: false }],
    ]);
    expect(statuses()[1]?.retain).toBe(true);
  });

  it('pings the broker when idle for half the keepalive', async () => {
    const fleet = startFleet({ count: 1, keepaliveSec: 1 });
    await until(() => fleet.counters.online === 1, 'the device online');
    await until(() => broker.pings.includes(at('T000001')), 'a ping', 3000);
  });

  it('connects from the given source addresses in turn', async () => {
    const fleet = startFleet({ count: 4, sourceIps: ['127.0.0.2', '127.0.0.3'] });
    await until(() => fleet.counters.online === 4, 'four devices online');
    const byClient = new Map(broker.logins.map((l) => [l.clientId, l.remoteAddress]));
    expect([...byClient.entries()].sort()).toEqual([
      [at('T000001'), '127.0.0.2'],
      [at('T000002'), '127.0.0.3'],
      [at('T000003'), '127.0.0.2'],
      [at('T000004'), '127.0.0.3'],
    ]);
  });

  it('opens connections no faster than the connect rate', async () => {
    const started = performance.now();
    const fleet = startFleet({ count: 40, connectRate: 100 });
    await until(() => fleet.counters.online === 40, 'all forty online');
    // A tenth of a second's worth (10) may go at once, the other 30 at 100 per second.
    expect(performance.now() - started).toBeGreaterThanOrEqual(280);
  });
  it('spreads the devices over several brokers; those of a broker that goes away move to the next', async () => {
    const other = await startTestBroker(TOKEN);
    try {
      const fleet = startFleet({ url: [broker.url, other.url], count: 4, random: () => 0.5 });
      await until(() => fleet.agents.every((a) => a.announced), 'four devices online');
      const loginsOn = (b: TestBroker) => new Set(b.logins.map((l) => l.clientId));
      expect(loginsOn(broker)).toEqual(new Set([at('T000001'), at('T000003')]));
      expect(loginsOn(other)).toEqual(new Set([at('T000002'), at('T000004')]));

      await broker.close();
      await until(
        () => loginsOn(other).size === 4 && fleet.agents.every((a) => a.announced),
        'every device online on the broker left',
        10_000,
      );
      expect(fleet.counters.lost).toBe(2);
    } finally {
      broker = await startTestBroker(TOKEN);
      await other.close();
    }
  });
});
