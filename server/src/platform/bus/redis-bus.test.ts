import net from 'node:net';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Bus, BusTopics } from './bus.js';
import { MemoryBus } from './memory-bus.js';
import { RedisBus, type RedisBusOptions } from './redis-bus.js';

const log = pino({ level: 'silent' });
/** Short enough for a test to see a lost link and its return within a second or two. */
const FAST: RedisBusOptions = { checkIntervalMs: 100, commandTimeoutMs: 300 };

/**
 * A TCP proxy in front of Redis that a test can cut (connections closed, new ones refused, as a
 * stopped Redis does) or freeze (connections accepted and kept, nothing answered, as a hung one).
 */
class RedisLink {
  private readonly sockets = new Set<net.Socket>();
  private mode: 'open' | 'cut' | 'frozen' = 'open';

  private constructor(
    private readonly server: net.Server,
    private readonly target: URL,
  ) {
    server.on('connection', (client) => this.accept(client));
  }

  static async open(redisUrl: string): Promise<RedisLink> {
    const link = new RedisLink(net.createServer(), new URL(redisUrl));
    await new Promise<void>((resolve) => link.server.listen(0, '127.0.0.1', resolve));
    return link;
  }

  get url(): string {
    const { port } = this.server.address() as net.AddressInfo;
    return `redis://127.0.0.1:${port}`;
  }

  cut(): void {
    this.mode = 'cut';
    for (const socket of this.sockets) socket.destroy();
  }

  freeze(): void {
    this.mode = 'frozen';
    for (const socket of this.sockets) socket.pause();
  }

  restore(): void {
    this.mode = 'open';
    for (const socket of this.sockets) socket.resume();
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket): void {
    if (this.mode === 'cut') {
      client.destroy();
      return;
    }
    const upstream = net.connect(Number(this.target.port || 6379), this.target.hostname);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => {
        this.sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
      socket.on('error', () => socket.destroy());
      if (this.mode === 'frozen') socket.pause();
    }
    client.pipe(upstream);
    upstream.pipe(client);
  }
}

/** A port nothing listens on. */
async function deadPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('MemoryBus', () => {
  it('delivers to subscribers until they unsubscribe', async () => {
    const bus = new MemoryBus();
    const seen: unknown[] = [];
    const off = bus.subscribe('auth.user-changed', (p) => seen.push(p));
    await bus.publish('auth.user-changed', { userId: 'a' });
    off();
    await bus.publish('auth.user-changed', { userId: 'b' });
    expect(seen).toEqual([{ userId: 'a' }]);
    expect(bus.connected).toBe(true);
  });
});

describe('RedisBus without Redis', () => {
  it('starts, publishes at once to this node alone, and never waits for Redis', async () => {
    const bus = await RedisBus.connect(`redis://127.0.0.1:${await deadPort()}`, log, FAST);
    try {
      expect(bus.connected).toBe(false);
      const seen = vi.fn();
      bus.subscribe('auth.user-changed', seen);
      const started = Date.now();
      await bus.publish('auth.user-changed', { userId: 'u1' });
      expect(Date.now() - started).toBeLessThan(50);
      expect(seen).toHaveBeenCalledWith({ userId: 'u1' });
    } finally {
      await bus.close();
    }
  });
});

// Runs where a Redis server is reachable: REDIS_URL=redis://127.0.0.1:6379 npx vitest run ...
describe.skipIf(!process.env.REDIS_URL)('RedisBus', () => {
  const buses: Bus[] = [];
  let link: RedisLink;

  beforeAll(async () => {
    link = await RedisLink.open(process.env.REDIS_URL ?? '');
  });
  afterEach(async () => {
    link.restore();
    await Promise.all(buses.splice(0).map((b) => b.close()));
  });
  afterAll(async () => {
    await link.close();
  });

  /** Two nodes: `a` reaches Redis through the link the test controls, `b` directly. */
  async function nodes() {
    const a = await RedisBus.connect(link.url, log, FAST);
    const b = await RedisBus.connect(process.env.REDIS_URL ?? '', log, FAST);
    buses.push(a, b);
    const seen = { a: vi.fn(), b: vi.fn() };
    const resumed = vi.fn<(p: BusTopics['bus.resumed']) => void>();
    a.subscribe('auth.sessions-revoked', seen.a);
    b.subscribe('auth.sessions-revoked', seen.b);
    a.subscribe('bus.resumed', resumed);
    return { a, b, seen, resumed };
  }

  it('delivers an event published on one node to every node, the publisher once', async () => {
    const { a, b, seen, resumed } = await nodes();
    expect(a.connected && b.connected).toBe(true);
    await a.publish('auth.sessions-revoked', { userId: 'u1' });
    await vi.waitFor(() => expect(seen.b).toHaveBeenCalledWith({ userId: 'u1' }));
    await b.publish('auth.sessions-revoked', { userId: 'u2' });
    await vi.waitFor(() => expect(seen.a).toHaveBeenCalledWith({ userId: 'u2' }));
    // Counted by user id: other test runs may share this Redis.
    const times = (fn: typeof seen.a, userId: string) =>
      fn.mock.calls.filter(([p]) => (p as { userId?: string }).userId === userId).length;
    expect([times(seen.a, 'u1'), times(seen.b, 'u1')]).toEqual([1, 1]);
    expect([times(seen.a, 'u2'), times(seen.b, 'u2')]).toEqual([1, 1]);
    // A link that worked from the start has nothing to resume.
    expect(resumed).not.toHaveBeenCalled();
  });

  it('starts while Redis is unreachable and announces the link once it comes', async () => {
    link.cut();
    const a = await RedisBus.connect(link.url, log, FAST);
    buses.push(a);
    const resumed = vi.fn();
    a.subscribe('bus.resumed', resumed);
    expect(a.connected).toBe(false);
    link.restore();
    await vi.waitFor(() => expect(resumed).toHaveBeenCalledTimes(1), { timeout: 5000 });
    expect(a.connected).toBe(true);
  });

  for (const fault of ['cut', 'frozen'] as const) {
    it(`publishes at once while the link is ${fault}, and announces its return`, async () => {
      const { a, b, seen, resumed } = await nodes();
      if (fault === 'cut') link.cut();
      else link.freeze();
      await vi.waitFor(() => expect(a.connected).toBe(false), { timeout: 3000 });

      const started = Date.now();
      await a.publish('auth.sessions-revoked', { userId: 'during' });
      expect(Date.now() - started).toBeLessThan(50);
      expect(seen.a).toHaveBeenCalledWith({ userId: 'during' });
      // Not queued for later either: what the gap lost is derived again after `bus.resumed`.
      link.restore();
      await vi.waitFor(() => expect(resumed).toHaveBeenCalledTimes(1), { timeout: 5000 });
      expect(resumed.mock.calls[0]?.[0].gapMs).toBeGreaterThan(0);
      expect(a.connected).toBe(true);

      await a.publish('auth.sessions-revoked', { userId: 'after' });
      await vi.waitFor(() => expect(seen.b).toHaveBeenCalledWith({ userId: 'after' }));
      await b.publish('auth.sessions-revoked', { userId: 'back' });
      await vi.waitFor(() => expect(seen.a).toHaveBeenCalledWith({ userId: 'back' }));
      expect(seen.b).not.toHaveBeenCalledWith({ userId: 'during' });
    });
  }
});
