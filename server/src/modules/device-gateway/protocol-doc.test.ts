import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deviceAddress } from '@blrms/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_PASSWORD, createTestApp, type TestContext } from '../../test/app.js';
import { client, type Client } from '../../test/devices.js';
import { expectDevice } from '../../test/mqtt-devices.js';

/**
 * The mosquitto-clients examples of docs/device-protocol.md, run as a firmware engineer would run
 * them: the shell blocks of "Trying it with mosquitto-clients" as written, with the token's code
 * and key (and the test broker's port) filled in.
 */
const DOC = fileURLToPath(new URL('../../../../docs/device-protocol.md', import.meta.url));
const SECTION = '## Trying it with mosquitto-clients';

function exampleBlocks(): string[] {
  const text = readFileSync(DOC, 'utf8');
  const start = text.indexOf(SECTION);
  const end = text.indexOf('\n## ', start + SECTION.length);
  const section = text.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
}

describe('the protocol doc’s mosquitto-clients examples', () => {
  let t: TestContext;
  let admin: Client;
  const running: ChildProcessWithoutNullStreams[] = [];
  const blocks = exampleBlocks();

  beforeAll(async () => {
    t = await createTestApp({ app: { mqtt: { port: 0 } } });
    admin = client(t, await t.login('admin', ADMIN_PASSWORD));
  });
  afterAll(async () => {
    for (const child of running) if (child.exitCode === null) child.kill('SIGTERM');
    await t.close();
  });

  /** Runs a block after the variables block, as one shell would. */
  function run(variables: string, block: string): ChildProcessWithoutNullStreams {
    const child = spawn('bash', ['-euc', `${variables}\n${block}`]);
    running.push(child);
    return child;
  }

  const exited = (child: ChildProcessWithoutNullStreams) =>
    new Promise<number | null>((resolve) => {
      if (child.exitCode !== null) resolve(child.exitCode);
      else child.once('exit', (code) => resolve(code));
    });

  it('has the four blocks the test runs: variables, device, watcher, telemetry and alarm', () => {
    expect(blocks).toHaveLength(4);
    expect(blocks[0]).toContain("CODE='<token code>' KEY='<token key>'");
    expect(blocks[0]).toContain('PORT=1883');
  });

  it('connects, shows the device, lets a watcher see a command, stores telemetry and the alarm', async () => {
    const token = await admin.ok('POST', '/device/token/add', {
      name: 'Protocol doc',
      autoRegister: true,
    });
    const variables = (blocks[0] ?? '')
      .replace("'<token code>'", `'${token.code}'`)
      .replace("'<token key>'", `'${token.tokenKey}'`)
      .replace('PORT=1883', `PORT=${t.app.deviceGateway.port}`);
    const [, deviceBlock = '', watchBlock = '', uplinkBlock = ''] = blocks;
    const address = deviceAddress(token.code, 'DEMO-001');

    const device = run(variables, deviceBlock);
    device.stdin.write(
      '{"online":true,"series":"S27X","model":"S275","fw":"2.0.1","signal":-67}\n',
    );
    const shown = await expectDevice(
      admin,
      'DEMO-001',
      { status: 'online', series: 'S27X', model: 'S275', version: '2.0.1', tagCode: address },
      5000,
    );

    const watcher = run(variables, watchBlock);
    let watched = '';
    watcher.stdout.on('data', (chunk: Buffer) => (watched += chunk.toString()));

    // The watcher subscribes on its own schedule: ping until it has seen one.
    await vi.waitFor(
      async () => {
        await admin.ok('POST', '/device/command', {
          deviceId: shown.id,
          method: 'ping',
          timeoutSec: 5,
        });
        expect(watched).toMatch(
          new RegExp(`^blrms/v1/${address}/down/rpc/[0-9a-f]{32} \\{"method":"ping"`, 'm'),
        );
      },
      { timeout: 5000, interval: 500 },
    );

    device.stdin.end();
    expect(await exited(device)).toBe(0);
    await expectDevice(admin, 'DEMO-001', {
      status: 'offline',
      disconnectReason: 'client-disconnect',
    });

    const uplinks = run(variables, uplinkBlock);
    expect(await exited(uplinks)).toBe(0);
    await t.app.deviceData.flush();
    const latest = await admin.ok('GET', `/device/telemetry/latest?deviceId=${shown.id}`);
    expect(latest.values).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: 'signal', value: -67 }),
        expect.objectContaining({ key: 'ain1', value: 12.5 }),
      ]),
    );
    await vi.waitFor(async () => {
      const events = await admin.ok('GET', `/device/event/list?deviceId=${shown.id}`);
      expect(events.records).toContainEqual(
        expect.objectContaining({ level: 'alarm', code: 'di1', message: 'Cabinet door open' }),
      );
    });
    // Still watching: the watcher was never taken over by the device's connections.
    expect(watcher.exitCode).toBeNull();
  });
});
