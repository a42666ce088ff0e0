import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Bus } from './bus.js';
import { MemoryBus } from './memory-bus.js';
import { RedisBus } from './redis-bus.js';

describe('MemoryBus', () => {
  it('delivers to subscribers until they unsubscribe', async () => {
    const bus = new MemoryBus();
    const seen: unknown[] = [];
    const off = bus.subscribe('auth.user-changed', (p) => seen.push(p));
    await bus.publish('auth.user-changed', { userId: 'a' });
    off();
    await bus.publish('auth.user-changed', { userId: 'b' });
    expect(seen).toEqual([{ userId: 'a' }]);
  });
});

// Runs where a Redis server is reachable: REDIS_URL=redis://127.0.0.1:6379 npx vitest run ...
describe.skipIf(!process.env.REDIS_URL)('RedisBus', () => {
  const nodes: Bus[] = [];
  beforeAll(async () => {
    const log = pino({ level: 'silent' });
    for (let i = 0; i < 2; i++)
      nodes.push(await RedisBus.connect(process.env.REDIS_URL ?? '', log));
  });
  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.close()));
  });

  it('delivers an event published on one node to every node, the publisher included', async () => {
    const [a, b] = nodes as [Bus, Bus];
    const onA = vi.fn();
    const onB = vi.fn();
    a.subscribe('auth.sessions-revoked', onA);
    b.subscribe('auth.sessions-revoked', onB);
    await a.publish('auth.sessions-revoked', { userId: 'u1' });
    await vi.waitFor(() => {
      expect(onA).toHaveBeenCalledWith({ userId: 'u1' });
      expect(onB).toHaveBeenCalledWith({ userId: 'u1' });
    });
  });
});
