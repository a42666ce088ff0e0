import { describe, expect, it } from 'vitest';
import { assignWaves, overThreshold, rankOf, windowOpen } from './campaign-plan.js';

const at = (hhmm: string) => Date.parse(`2026-11-21T${hhmm}:00Z`);

describe('campaign plan', () => {
  it('splits devices over cumulative waves, a first wave of 1 % holding at least one', () => {
    const count = (waves: number[], n: number) =>
      assignWaves(n, waves).reduce<number[]>((sizes, w) => {
        sizes[w] = (sizes[w] ?? 0) + 1;
        return sizes;
      }, []);
    expect(count([1, 10, 100], 10_000)).toEqual([100, 900, 9000]);
    expect(count([1, 10, 100], 200)).toEqual([2, 18, 180]);
    expect(count([1, 10, 100], 5)).toEqual([1, undefined, 4]);
    expect(count([100], 3)).toEqual([3]);
    expect(assignWaves(4, [50, 100])).toEqual([0, 0, 1, 1]);
  });

  it('opens the window between its times, in its own time zone, across midnight too', () => {
    const day = { start: '09:00', end: '17:00', utcOffsetMinutes: 0 };
    expect(windowOpen(day, at('08:59'))).toBe(false);
    expect(windowOpen(day, at('09:00'))).toBe(true);
    expect(windowOpen(day, at('16:59'))).toBe(true);
    expect(windowOpen(day, at('17:00'))).toBe(false);
    // 22:00–06:00 in UTC+8 is 14:00–22:00 UTC.
    const night = { start: '22:00', end: '06:00', utcOffsetMinutes: 480 };
    expect(windowOpen(night, at('13:59'))).toBe(false);
    expect(windowOpen(night, at('14:00'))).toBe(true);
    expect(windowOpen(night, at('21:59'))).toBe(true);
    expect(windowOpen(night, at('22:00'))).toBe(false);
    expect(windowOpen(null, at('03:00'))).toBe(true);
  });

  it('reaches the failure threshold only after enough finished devices', () => {
    expect(overThreshold({ updated: 0, failed: 4 }, 20, 5)).toBe(false);
    expect(overThreshold({ updated: 4, failed: 1 }, 20, 5)).toBe(true);
    expect(overThreshold({ updated: 5, failed: 1 }, 20, 5)).toBe(false);
  });

  it('orders the steps of an upgrade; final states come after all of them', () => {
    expect(rankOf('notified')).toBeLessThan(rankOf('downloading'));
    expect(rankOf('verified')).toBeLessThan(rankOf('updating'));
    expect(rankOf('updated')).toBeGreaterThan(rankOf('updating'));
  });
});
