import {
  SESSION_LIFETIME_MS,
  WS_CLOSE_FORBIDDEN,
  WS_CLOSE_UNAUTHORIZED,
  WS_TOKEN_PROTOCOL,
  type TServerMessage,
} from '@blrms/contracts';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { departId } from '../../db/seed/seed.js';
import { ADMIN_PASSWORD, authHeaders, createTestApp, type TestContext } from '../../test/app.js';
import type { Bus } from '../bus/bus.js';
import { RedisBus } from '../bus/redis-bus.js';

/** A console socket that records what it receives and how it closed. */
class Probe {
  readonly messages: TServerMessage[] = [];
  readonly socket: WebSocket;
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly opened: Promise<void>;

  constructor(base: string, userId: string, token?: string) {
    this.socket = new WebSocket(
      `${base}/api/websocket/${userId}`,
      token ? [WS_TOKEN_PROTOCOL, token] : [],
    );
    this.socket.on('message', (data) => this.messages.push(JSON.parse(data.toString())));
    this.opened = new Promise((resolve, reject) => {
      this.socket.once('open', () => resolve());
      this.socket.once('error', reject);
    });
    this.closed = new Promise((resolve) =>
      this.socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  async next(type: TServerMessage['type'], timeoutMs = 2000): Promise<TServerMessage> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const found = this.messages.find((m) => m.type === type);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`no ${type} message within ${timeoutMs} ms`);
  }
}

describe('console websocket', () => {
  let t: TestContext;
  let base: string;
  let memberId: string;
  let member: string;
  let outsiderId: string;
  let outsider: string;
  let admin: string;
  const probes: Probe[] = [];
  const probe = (userId: string, token?: string) => {
    const p = new Probe(base, userId, token);
    probes.push(p);
    return p;
  };

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    base = `ws://127.0.0.1:${address.port}`;
    memberId = await t.createUser({
      username: 'member',
      password: 'Member-Pass-1',
      orgCodes: ['A01A01'],
    });
    outsiderId = await t.createUser({
      username: 'outsider',
      password: 'Outsider-Pass-1',
      orgCodes: ['A01A02'],
    });
    admin = await t.login('admin', ADMIN_PASSWORD);
    member = await t.login('member', 'Member-Pass-1');
    outsider = await t.login('outsider', 'Outsider-Pass-1');
  });
  afterAll(async () => {
    for (const p of probes) p.socket.terminate();
    await t.close();
  });

  async function publishToRnD(title: string): Promise<string> {
    const add = await t.app.inject({
      method: 'POST',
      url: '/api/sys/annountCement/add',
      headers: authHeaders(admin),
      payload: {
        titile: title,
        msgContent: '<p>x</p>',
        priority: 'H',
        msgType: 'depart',
        departIds: [departId('A01A01')],
      },
    });
    const id = add.json().result.id as string;
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/sys/annountCement/doReleaseData?id=${id}`,
      headers: authHeaders(admin),
    });
    expect(res.statusCode).toBe(200);
    return id;
  }

  it('tells the recipients of a publish, and nobody else', async () => {
    const mine = probe(memberId, member);
    const theirs = probe(outsiderId, outsider);
    await Promise.all([mine.opened, theirs.opened]);
    expect(mine.socket.protocol).toBe(WS_TOKEN_PROTOCOL);
    const id = await publishToRnD('Urgent');
    expect(await mine.next('user')).toEqual({
      type: 'user',
      msgId: id,
      msgTxt: 'Urgent',
      cmd: 'publish',
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(theirs.messages).toEqual([]);
  });

  it('answers a heartbeat', async () => {
    const p = probe(memberId, member);
    await p.opened;
    p.socket.send(JSON.stringify({ type: 'heartbeat' }));
    expect(await p.next('heartbeat')).toEqual({ type: 'heartbeat' });
  });

  it('closes a socket without a token, or with an unknown one, with 4401', async () => {
    expect((await probe(memberId).closed).code).toBe(WS_CLOSE_UNAUTHORIZED);
    expect((await probe(memberId, 'not-a-session').closed).code).toBe(WS_CLOSE_UNAUTHORIZED);
  });

  it("refuses a socket for another user's id with 4403, even with a valid token", async () => {
    const p = probe(memberId, outsider);
    expect((await p.closed).code).toBe(WS_CLOSE_FORBIDDEN);
    expect(p.messages).toEqual([]);
  });

  it('refuses other paths under /api/websocket', async () => {
    const p = new WebSocket(`${base}/api/websocket/../sys/user`, [WS_TOKEN_PROTOCOL, member]);
    await expect(
      new Promise((resolve, reject) => {
        p.once('open', resolve);
        p.once('error', reject);
      }),
    ).rejects.toThrow();
  });

  it('closes the sockets of a session that logs out', async () => {
    const token = await t.login('member', 'Member-Pass-1');
    const p = probe(memberId, token);
    await p.opened;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/sys/logout',
      headers: authHeaders(token),
    });
    expect(res.statusCode).toBe(200);
    expect((await p.closed).code).toBe(WS_CLOSE_UNAUTHORIZED);
  });

  it('refuses an expired session', async () => {
    const token = await t.login('outsider', 'Outsider-Pass-1');
    t.clock.advance(SESSION_LIFETIME_MS + 60_000);
    try {
      expect((await probe(outsiderId, token).closed).code).toBe(WS_CLOSE_UNAUTHORIZED);
    } finally {
      t.clock.advance(-(SESSION_LIFETIME_MS + 60_000));
    }
  });
});

// Runs where a Redis server is reachable: REDIS_URL=redis://127.0.0.1:6379 npx vitest run ...
describe.skipIf(!process.env.REDIS_URL)('console websocket across nodes (Redis)', () => {
  let t: TestContext;
  let otherNode: Bus;
  let socket: Probe | undefined;

  beforeAll(async () => {
    const log = pino({ level: 'silent' });
    const bus = await RedisBus.connect(process.env.REDIS_URL ?? '', log);
    otherNode = await RedisBus.connect(process.env.REDIS_URL ?? '', log);
    t = await createTestApp({ app: { bus } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    socket?.socket.terminate();
    await otherNode.close();
    await t.close();
  });

  it('delivers a publish made on another node to the sockets of this node', async () => {
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const userId = await t.createUser({ username: 'remote', password: 'Remote-Pass-1' });
    const token = await t.login('remote', 'Remote-Pass-1');
    socket = new Probe(`ws://127.0.0.1:${address.port}`, userId, token);
    await socket.opened;
    await otherNode.publish('notice.delivered', {
      companyId: 'c'.repeat(32),
      userIds: [userId],
      msgId: 'a'.repeat(32),
      msgTxt: 'From node B',
      cmd: 'publish',
    });
    expect(await socket.next('user')).toMatchObject({ msgTxt: 'From node B' });
  });
});
