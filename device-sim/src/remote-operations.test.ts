import {
  CONFIG_DEFAULTS,
  ZConfigReportedPayload,
  ZRpcReplyPayload,
  ZStatusPayload,
  configProblem,
  downTopic,
  mergePatch,
  upTopic,
  deviceAddress,
} from '@blrms/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFleet, type Fleet, type StartFleetOptions } from './fleet.js';
import { startTestBroker, until, type TestBroker } from './test-broker.js';

const TOKEN = 'sim-remote-token';
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

async function fleetOf(options: Partial<StartFleetOptions>): Promise<Fleet> {
  const fleet = await startFleet({
    url: broker.url,
    token: TOKEN,
    tokenCode: CODE,
    rebootDelayMs: 100,
    ...options,
  });
  fleets.push(fleet);
  return fleet;
}

const onTopic = (topic: string) => broker.published.filter((m) => m.topic === topic);
const json = (payload: Buffer): unknown => JSON.parse(payload.toString());
const reportsOf = (sn: string) =>
  onTopic(upTopic(at(sn), 'config/reported')).map((m) =>
    ZConfigReportedPayload.parse(json(m.payload)),
  );
/** The reports after the one a device makes when it comes online (what it runs). */
const answersOf = (sn: string) => reportsOf(sn).slice(1);
const repliesOf = (sn: string, reqId: string) =>
  onTopic(upTopic(at(sn), 'rpc', reqId)).map((m) => ZRpcReplyPayload.parse(json(m.payload)));

const R40 = CONFIG_DEFAULTS.R40;
const withWifi = (wifi: Record<string, unknown>) => mergePatch(R40, { wifi }) as typeof R40;

describe('remote configuration on a simulated device', () => {
  it('applies a valid configuration and reports it with its version', async () => {
    const fleet = await fleetOf({ devices: [{ sn: 'CFG-1', series: 'R40' }] });
    const config = withWifi({ ssid: 'Plant 7', password: 'longenough' });
    await broker.publish(downTopic(at('CFG-1'), 'config'), JSON.stringify({ version: 3, config }));

    await until(() => answersOf('CFG-1').length === 1, 'the report');
    expect(answersOf('CFG-1')[0]).toEqual({ version: 3, config, result: 'ok' });
    expect(fleet.agent('CFG-1')?.currentConfig()).toEqual({ version: 3, config });
    expect(fleet.counters).toMatchObject({ configsApplied: 1, configsRefused: 0 });
  });

  it('refuses a value outside its schema, naming the field, and keeps what it had', async () => {
    const fleet = await fleetOf({ devices: [{ sn: 'CFG-2', series: 'R40' }] });
    const good = mergePatch(R40, { heartbeatSec: 120 });
    await broker.publish(
      downTopic(at('CFG-2'), 'config'),
      JSON.stringify({ version: 1, config: good }),
    );
    await until(() => answersOf('CFG-2').length === 1, 'the first report');

    const bad = withWifi({ password: 'short' });
    await broker.publish(
      downTopic(at('CFG-2'), 'config'),
      JSON.stringify({ version: 2, config: bad }),
    );
    await until(() => answersOf('CFG-2').length === 2, 'the refusal');
    const refusal = answersOf('CFG-2')[1];
    expect(refusal).toEqual({
      version: 1,
      config: good,
      result: 'error',
      error: configProblem('R40', bad),
    });
    expect(refusal?.error).toMatch(/^wifi\.password: /);
    expect(fleet.agent('CFG-2')?.configVersion).toBe(1);
    expect(fleet.counters).toMatchObject({ configsApplied: 1, configsRefused: 1 });
  });

  it('a device with the rejectConfig fault refuses the fields it was told to, or everything', async () => {
    await fleetOf({
      devices: [
        { sn: 'CFG-3', series: 'R40', faults: { rejectConfig: ['wifi.ssid'] } },
        { sn: 'CFG-4', series: 'S27X', faults: { rejectConfig: true } },
      ],
    });
    const ssid = withWifi({ ssid: 'Elsewhere' });
    await broker.publish(
      downTopic(at('CFG-3'), 'config'),
      JSON.stringify({ version: 1, config: ssid }),
    );
    const heartbeat = mergePatch(R40, { heartbeatSec: 30 });
    await broker.publish(
      downTopic(at('CFG-3'), 'config'),
      JSON.stringify({ version: 2, config: heartbeat }),
    );
    const s27x = mergePatch(CONFIG_DEFAULTS.S27X, { smsNumbers: ['+8613800000000'] });
    await broker.publish(
      downTopic(at('CFG-4'), 'config'),
      JSON.stringify({ version: 1, config: s27x }),
    );

    await until(
      () => answersOf('CFG-3').length === 2 && answersOf('CFG-4').length === 1,
      'reports',
    );
    expect(answersOf('CFG-3')).toEqual([
      {
        version: 0,
        config: R40,
        result: 'error',
        error: 'wifi.ssid: not supported by this device',
      },
      { version: 2, config: heartbeat, result: 'ok' },
    ]);
    expect(answersOf('CFG-4')).toEqual([
      {
        version: 0,
        config: CONFIG_DEFAULTS.S27X,
        result: 'error',
        error: '(config): refused by device',
      },
    ]);
  });

  it('subscribes before it announces itself: what is sent in answer to its status arrives, after every reconnect', async () => {
    await broker.close();
    broker = await startTestBroker(TOKEN, { subscribeDelayMs: 200 });
    const config = mergePatch(R40, { heartbeatSec: 300 });
    let sent = 0;
    // Like the platform: pending configuration goes out the moment the online status arrives.
    broker.onPublish = (message) => {
      if (message.topic !== upTopic(at('CFG-5'), 'status')) return;
      const status = ZStatusPayload.parse(json(message.payload));
      if (!status.online) return;
      sent += 1;
      void broker.publish(downTopic(at('CFG-5'), 'config'), JSON.stringify({ version: 7, config }));
    };
    const fleet = await fleetOf({ devices: [{ sn: 'CFG-5', series: 'R40' }] });
    await until(() => reportsOf('CFG-5').length === 2, 'the report after connecting');
    // What it ran when it came online, then the configuration sent in answer to its status.
    expect(reportsOf('CFG-5')).toEqual([
      { version: 0, config: R40, result: 'ok' },
      { version: 7, config, result: 'ok' },
    ]);

    fleet.agent('CFG-5')?.drop(50);
    await until(() => reportsOf('CFG-5').length === 4, 'the report after reconnecting');
    expect(sent).toBe(2);
    expect(reportsOf('CFG-5').slice(2)).toEqual([
      { version: 7, config, result: 'ok' },
      { version: 7, config, result: 'ok' },
    ]);
  });

  it('reports what it runs when it comes online, and merges a patch into it', async () => {
    await fleetOf({ devices: [{ sn: 'CFG-6', series: 'R40' }] });
    await until(() => reportsOf('CFG-6').length === 1, 'the report at boot');
    expect(reportsOf('CFG-6')).toEqual([{ version: 0, config: R40, result: 'ok' }]);

    const patch = { wifi: { ssid: 'Plant 9' } };
    await broker.publish(downTopic(at('CFG-6'), 'config'), JSON.stringify({ version: 2, patch }));
    await until(() => answersOf('CFG-6').length === 1, 'the patch applied');
    const patched = withWifi({ ssid: 'Plant 9' });
    expect(answersOf('CFG-6')[0]).toEqual({ version: 2, config: patched, result: 'ok' });

    // A patch that would make its configuration invalid is refused; it keeps what it runs.
    const bad = { version: 3, patch: { wifi: { channel: 99 } } };
    await broker.publish(downTopic(at('CFG-6'), 'config'), JSON.stringify(bad));
    await until(() => answersOf('CFG-6').length === 2, 'the refusal');
    expect(answersOf('CFG-6')[1]).toEqual({
      version: 2,
      config: patched,
      result: 'error',
      error: expect.stringMatching(/^wifi\.channel: /),
    });
  });
});

describe('commands on a simulated device', () => {
  it('answers ping and get_config, and unknown methods with an error', async () => {
    await fleetOf({ devices: [{ sn: 'RPC-1', series: 'BL10X' }] });
    const rpc = (reqId: string, method: string) =>
      broker.publish(
        downTopic(at('RPC-1'), 'rpc', reqId),
        JSON.stringify({ method, params: {}, timeoutSec: 30 }),
      );
    await rpc('r1', 'ping');
    await rpc('r2', 'get_config');
    await rpc('r3', 'format_disk');
    await until(() => repliesOf('RPC-1', 'r3').length === 1, 'three replies');
    expect(repliesOf('RPC-1', 'r1')).toEqual([{ ok: true, result: 'pong' }]);
    expect(repliesOf('RPC-1', 'r2')).toEqual([
      { ok: true, result: { version: 0, config: CONFIG_DEFAULTS.BL10X } },
    ]);
    expect(repliesOf('RPC-1', 'r3')).toEqual([{ ok: false, error: 'unknown method' }]);
  });

  it('reboot answers first, goes offline, and comes back after the reboot delay', async () => {
    const fleet = await fleetOf({ devices: [{ sn: 'RPC-2', series: 'S27X' }], rebootDelayMs: 300 });
    const status = upTopic(at('RPC-2'), 'status');
    await broker.publish(
      downTopic(at('RPC-2'), 'rpc', 'boot-1'),
      JSON.stringify({ method: 'reboot', timeoutSec: 30 }),
    );
    await until(() => onTopic(status).length === 3, 'offline and online again');
    const reply = broker.published.findIndex(
      (m) => m.topic === upTopic(at('RPC-2'), 'rpc', 'boot-1'),
    );
    const offline = broker.published.findIndex(
      (m) => m.topic === status && m.payload.toString() === '{"online":false}',
    );
    expect(repliesOf('RPC-2', 'boot-1')).toEqual([{ ok: true, result: 'rebooting' }]);
    expect(reply).toBeLessThan(offline);
    // A clean restart: its own offline status and a DISCONNECT, not a lost connection.
    expect(broker.disconnects).toContain(at('RPC-2'));
    expect(onTopic(status).map((m) => ZStatusPayload.parse(json(m.payload)).online)).toEqual([
      true,
      false,
      true,
    ]);
    expect(broker.logins.filter((l) => l.clientId === at('RPC-2'))).toHaveLength(2);
    expect(fleet.counters).toMatchObject({ reboots: 1, lost: 0, connects: 2 });
  });

  it('a device told to ignore a method never answers it', async () => {
    await fleetOf({ devices: [{ sn: 'RPC-3', series: 'R40', faults: { ignoreRpc: ['ping'] } }] });
    await broker.publish(downTopic(at('RPC-3'), 'rpc', 'p1'), '{"method":"ping","timeoutSec":1}');
    await broker.publish(
      downTopic(at('RPC-3'), 'rpc', 'g1'),
      '{"method":"get_config","timeoutSec":1}',
    );
    await until(() => repliesOf('RPC-3', 'g1').length === 1, 'the get_config answer');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(repliesOf('RPC-3', 'p1')).toEqual([]);
  });
});
