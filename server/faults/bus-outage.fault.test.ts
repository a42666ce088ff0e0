import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TServerMessage } from '@blrms/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnsweringDevice } from './support/answering-device.js';
import { ConsoleSocket } from './support/console-socket.js';
import { sleep, until } from './support/ports.js';
import { PostgresInstance } from './support/postgres.js';
import { stopAllOwned } from './support/process.js';
import { RedisInstance } from './support/redis.js';
import { ServerProcess, type Reply } from './support/server.js';

const OUTAGE_MS = Number(process.env.FAULT_OUTAGE_MS ?? 30000);
/** A request during the outage answers within this (the "about a second"). */
const ANSWER_MS = 1500;
/** What was acknowledged during the outage has reached the device and consoles within this. */
const RECOVERY_MS = 10_000;
/** Requests during the outage give up after this, so that a hang fails the test, not its timeout. */
const during = { timeoutMs: 5000 };

afterAll(stopAllOwned);

/** A success, or a clean failure: an answer (503 with a message), never a hang or a 500. */
function clean(reply: Reply): boolean {
  return reply.ms <= ANSWER_MS && (reply.success || (reply.status === 503 && !!reply.message));
}

describe('Redis (the bus between nodes) stopped or frozen', () => {
  let pg: PostgresInstance;
  let redis: RedisInstance;
  let dataDir: string;
  let nodeA: ServerProcess;
  let nodeB: ServerProcess;
  let adminId: string;
  let token: { code: string; key: string };
  const devices: AnsweringDevice[] = [];
  const consoles: ConsoleSocket[] = [];

  beforeAll(async () => {
    pg = await PostgresInstance.create();
    redis = await RedisInstance.create();
    dataDir = mkdtempSync(join(tmpdir(), 'blrms-fault-bus-'));
    const env = { DATABASE_URL: pg.url, REDIS_URL: redis.url };
    nodeA = await ServerProcess.start({ env, broker: true, dataDir });
    nodeB = await ServerProcess.start({ env, broker: true, dataDir });
    await nodeA.login();
    const login = await nodeB.call<{ userInfo: { id: string } }>('POST', '/sys/login', {
      username: 'admin',
      password: nodeB.adminPassword,
    });
    adminId = login.result.userInfo.id;
    await nodeB.login();
    const added = await nodeA.call<{ code: string; tokenKey: string }>(
      'POST',
      '/device/token/add',
      { name: 'bus outage' },
    );
    expect(added.success).toBe(true);
    token = { code: added.result.code, key: added.result.tokenKey };
  });

  afterAll(async () => {
    for (const socket of consoles) socket.close();
    await Promise.all(devices.map((d) => d.close().catch(() => undefined)));
    await Promise.all([nodeA?.remove(), nodeB?.remove()]);
    await Promise.all([pg?.remove(), redis?.remove()]);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function deviceId(sn: string, status: 'online' | 'offline'): Promise<string> {
    let id = '';
    await until(
      async () => {
        const page = await nodeA.call<{ records: { id: string; status: string }[] }>(
          'GET',
          '/device/device/list',
          { sn },
        );
        const found = page.result?.records[0];
        id = found?.id ?? '';
        return found?.status === status;
      },
      `${sn} ${status}`,
      10_000,
    );
    return id;
  }

  /** A second session of admin, signed in on node A and used once on each node (cached there). */
  async function extraSession(): Promise<string> {
    const login = await nodeA.call<{ token: string }>(
      'POST',
      '/sys/login',
      { username: 'admin', password: nodeA.adminPassword },
      { token: '' },
    );
    for (const node of [nodeA, nodeB]) {
      const used = await node.call('GET', '/sys/user/list', {}, { token: login.result.token });
      expect(used.status).toBe(200);
    }
    return login.result.token;
  }

  const refused = async (node: ServerProcess, session: string) =>
    (await node.call('GET', '/sys/user/list', {}, { token: session })).status === 401;

  async function outage(kind: 'stopped' | 'frozen') {
    const run = `${kind}-${Date.now().toString(36)}`;
    const device = await AnsweringDevice.connect(nodeA.mqttUrl, token, `BUS-${run}`);
    const leaving = await AnsweringDevice.connect(nodeA.mqttUrl, token, `LEAVE-${run}`);
    devices.push(device, leaving);
    const id = await deviceId(`BUS-${run}`, 'online');
    const leavingId = await deviceId(`LEAVE-${run}`, 'online');
    const sessions = { a: await extraSession(), b: await extraSession() };
    // A console on each node, watching the fleet and the device.
    const socketOn = async (node: ServerProcess) => {
      const socket = await ConsoleSocket.open(node.url, adminId, await node.login());
      consoles.push(socket);
      await socket.subscribe('devices');
      await socket.subscribe(`device:${id}`);
      return socket;
    };
    const consoleA = await socketOn(nodeA);
    const consoleB = await socketOn(nodeB);
    const before = { a: consoleA.messages.length, b: consoleB.messages.length };
    const warnings = (node: ServerProcess) => node.log.split('Redis unreachable').length - 1;
    const warnedBefore = { a: warnings(nodeA), b: warnings(nodeB) };

    if (kind === 'stopped') await redis.stop();
    else redis.freeze();
    const outageStarted = Date.now();
    const replies: { what: string; reply: Reply }[] = [];
    const acknowledged = { configVersions: [] as number[], commandIds: [] as string[] };
    const released: { node: 'a' | 'b'; id: string }[] = [];
    try {
      // Node B last: its configuration is the one the device must end up with, and only the
      // node holding the device (A) can send it, once the bus is back.
      for (const [name, node] of [
        ['a', nodeA],
        ['b', nodeB],
      ] as const) {
        const state = await node.call<{ desired: { version: number } | null }>(
          'GET',
          '/device/config',
          { deviceId: id },
          during,
        );
        const config = await node.call<{ desired: { version: number } }>(
          'PUT',
          '/device/config',
          {
            deviceId: id,
            baseVersion: state.result?.desired?.version ?? 0,
            config: { heartbeatSec: 60 + replies.length },
          },
          during,
        );
        replies.push({ what: `configuration on ${name}`, reply: config });
        if (config.success) acknowledged.configVersions.push(config.result.desired.version);

        const command = await node.call<{ id: string }>(
          'POST',
          '/device/command',
          {
            deviceId: id,
            method: 'ping',
            timeoutSec: 600,
          },
          during,
        );
        replies.push({ what: `command on ${name}`, reply: command });
        if (command.success) acknowledged.commandIds.push(command.result.id);

        const draft = await node.call<{ id: string }>(
          'POST',
          '/sys/annountCement/add',
          {
            titile: `During the outage (${run}, ${name})`,
            msgContent: '<p>bus outage</p>',
            priority: 'M',
            msgType: 'all',
          },
          during,
        );
        expect(draft.success).toBe(true);
        const release = await node.call(
          'GET',
          '/sys/annountCement/doReleaseData',
          {
            id: draft.result.id,
          },
          during,
        );
        replies.push({ what: `announcement release on ${name}`, reply: release });
        if (release.success) released.push({ node: name, id: draft.result.id });

        const logout = await node.call(
          'POST',
          '/sys/logout',
          {},
          {
            ...during,
            token: sessions[name],
          },
        );
        replies.push({ what: `logout on ${name}`, reply: logout });
      }
      // A status change during the outage: a device on node A goes away.
      leaving.drop();
      await sleep(Math.max(0, OUTAGE_MS - (Date.now() - outageStarted)));
    } finally {
      if (kind === 'stopped') await redis.start();
      else redis.thaw();
    }
    const restoredAt = Date.now();

    const report = replies.map(({ what, reply }) => `${what}: ${reply.status} in ${reply.ms} ms`);
    for (const { what, reply } of replies) {
      expect(clean(reply), `${what}: ${reply.status} ${reply.message} in ${reply.ms} ms`).toBe(
        true,
      );
    }

    // Acknowledged = delivered: the device gets the configuration and the commands it was
    // promised, whichever node accepted them.
    const latest = Math.max(0, ...acknowledged.configVersions);
    const undelivered = () =>
      (latest > 0 && !device.configVersions.some((v) => v >= latest) ? 1 : 0) +
      acknowledged.commandIds.filter((c) => !device.commandIds.includes(c)).length;
    await until(() => undelivered() === 0, 'delivery of what was acknowledged', RECOVERY_MS).catch(
      () => undefined,
    );
    const deliveredAfterMs = Date.now() - restoredAt;
    expect(
      undelivered(),
      `acknowledged and not delivered (${JSON.stringify({
        acknowledged,
        received: { configVersions: device.configVersions, commandIds: device.commandIds },
      })})`,
    ).toBe(0);

    // The sessions logged out during the outage are refused on both nodes.
    await until(
      async () =>
        (await refused(nodeA, sessions.a)) &&
        (await refused(nodeB, sessions.a)) &&
        (await refused(nodeA, sessions.b)) &&
        (await refused(nodeB, sessions.b)),
      'logged-out sessions refused on both nodes',
      RECOVERY_MS,
    );

    // A console on the other node heard of each announcement, or was told to resynchronise.
    const heard = (socket: ConsoleSocket, from: number, test: (m: TServerMessage) => boolean) =>
      socket.since(from).some((m) => m.type === 'resync' || test(m));
    for (const { node, id: msgId } of released) {
      const other = node === 'a' ? consoleB : consoleA;
      const from = node === 'a' ? before.b : before.a;
      await until(
        () => heard(other, from, (m) => m.type === 'topic' && m.msgId === msgId),
        `announcement ${msgId} (released on ${node}) on the other node's console`,
        RECOVERY_MS,
      );
    }

    // The device that went away during the outage: node B's console hears of it or resyncs,
    // and what it then loads shows it offline.
    await until(
      () =>
        heard(
          consoleB,
          before.b,
          (m) =>
            m.type === 'device-status' &&
            m.devices.some((d) => d.id === leavingId && d.status === 'offline'),
        ),
      'the status change reaching node B’s console',
      RECOVERY_MS,
    );
    const shown = await nodeB.call<{ status: string }>('GET', '/device/device/queryById', {
      id: leavingId,
    });
    expect(shown.result.status).toBe('offline');
    // The outage is logged once per node, not once per request that published meanwhile.
    expect(warnings(nodeA) - warnedBefore.a).toBe(1);
    expect(warnings(nodeB) - warnedBefore.b).toBe(1);
    console.info(
      `bus ${kind} for ${OUTAGE_MS} ms (delivered ${deliveredAfterMs} ms after its return):\n  ` +
        report.join('\n  '),
    );
  }

  it('answers within a second while Redis is stopped, and delivers what it accepted', async () => {
    await outage('stopped');
  });

  it('answers within a second while Redis is frozen, and delivers what it accepted', async () => {
    await outage('frozen');
  });
});
