import { describe, expect, it } from 'vitest';
import {
  assignWaves,
  endOf,
  nextWave,
  rankOf,
  tallyWaves,
  waveOverThreshold,
  windowOpen,
} from './campaign-plan.rules.js';

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

  it('judges the threshold per wave against all its devices, in flight too, after the accepted', () => {
    // Wave 0: 1 device, updated. Wave 1: 10 devices, 2 failed, 8 still on their way.
    const tallies = tallyWaves(
      [
        { state: 'updated', wave: 0, n: 1 },
        { state: 'failed', wave: 1, n: 2 },
        { state: 'downloading', wave: 1, n: 5 },
        { state: 'queued', wave: 1, n: 3 },
      ],
      3,
    );
    expect(tallies[1]).toEqual({ size: 10, failed: 2, updated: 0, open: 8 });
    expect(waveOverThreshold(tallies, 20, -1, 1)).toBe(1);
    expect(waveOverThreshold(tallies, 25, -1, 1)).toBeNull();
    // The operator accepted wave 1's failures by resuming.
    expect(waveOverThreshold(tallies, 20, 1, 1)).toBeNull();
  });

  it('ends failed over the threshold or with nothing updated, else with or without failures', () => {
    const end = (rows: { state: string; wave: number; n: number }[], accepted = -1) =>
      endOf(tallyWaves(rows, 2), 20, accepted);
    expect(
      end([
        { state: 'updated', wave: 0, n: 1 },
        { state: 'updated', wave: 1, n: 9 },
      ]),
    ).toEqual({ state: 'completed', thresholdWave: null });
    const oneOfTenFailed = [
      { state: 'updated', wave: 0, n: 1 },
      { state: 'updated', wave: 1, n: 8 },
      { state: 'failed', wave: 1, n: 1 },
    ];
    expect(end(oneOfTenFailed)).toEqual({ state: 'completed-with-failures', thresholdWave: null });
    const halfFailed = [
      { state: 'updated', wave: 0, n: 1 },
      { state: 'updated', wave: 1, n: 4 },
      { state: 'failed', wave: 1, n: 4 },
    ];
    expect(end(halfFailed)).toEqual({ state: 'failed', thresholdWave: 1 });
    expect(end(halfFailed, 1)).toEqual({ state: 'completed-with-failures', thresholdWave: null });
    expect(end([{ state: 'failed', wave: 0, n: 1 }], 0)).toEqual({
      state: 'failed',
      thresholdWave: null,
    });
  });

  it('skips empty waves to the next one that holds devices, or the last', () => {
    const tallies = tallyWaves([{ state: 'queued', wave: 3, n: 2 }], 5);
    expect(nextWave(tallies, 0)).toBe(3);
    expect(nextWave(tallyWaves([], 3), 0)).toBe(2);
  });

  it('orders the steps of an upgrade; final states come after all of them', () => {
    expect(rankOf('notified')).toBeLessThan(rankOf('downloading'));
    expect(rankOf('verified')).toBeLessThan(rankOf('updating'));
    expect(rankOf('updated')).toBeGreaterThan(rankOf('updating'));
  });
});
