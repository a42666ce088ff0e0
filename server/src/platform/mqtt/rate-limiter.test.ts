import { describe, expect, it } from 'vitest';
import { ConnectRateLimiter } from './rate-limiter.js';

describe('ConnectRateLimiter', () => {
  it('admits a burst per address, then refills at the rate', () => {
    let now = 0;
    const limiter = new ConnectRateLimiter({ perSecond: 10, burst: 3 }, () => now);
    const take = (n: number, address = '10.0.0.1') =>
      Array.from({ length: n }, () => limiter.take(address)).filter(Boolean).length;
    expect(take(5)).toBe(3);
    expect(take(1, '10.0.0.2')).toBe(1);
    now += 100;
    expect(take(5)).toBe(1);
    now += 10_000;
    expect(take(5)).toBe(3);
  });

  it('forgets addresses whose bucket is full again', () => {
    let now = 0;
    const limiter = new ConnectRateLimiter({ perSecond: 1, burst: 2 }, () => now);
    limiter.take('a');
    limiter.take('a');
    limiter.take('b');
    now += 1500;
    limiter.prune();
    // `a` has refilled 1.5 of 2 tokens and is kept; `b` is full and forgotten (starts full anyway).
    expect(limiter.take('a')).toBe(true);
    expect(limiter.take('a')).toBe(false);
    expect(limiter.take('b')).toBe(true);
    expect(limiter.take('b')).toBe(true);
    expect(limiter.take('b')).toBe(false);
  });
});
