import { afterEach, describe, expect, it } from 'vitest';
import { TimerWheel } from './timer-wheel.js';

const wheels: TimerWheel[] = [];
afterEach(() => wheels.splice(0).forEach((wheel) => wheel.stop()));

function started(tickMs: number, slots: number) {
  const wheel = new TimerWheel(tickMs, slots);
  wheels.push(wheel);
  wheel.start();
  return wheel;
}

describe('timer wheel', () => {
  it('runs callbacks in due order, not before their time, and skips cancelled ones', async () => {
    const wheel = started(5, 64);
    const start = performance.now();
    const ran: [string, number][] = [];
    wheel.schedule(60, () => ran.push(['late', performance.now() - start]));
    wheel.schedule(20, () => ran.push(['early', performance.now() - start]));
    wheel.schedule(40, () => ran.push(['cancelled', 0])).cancel();
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(ran.map(([name]) => name)).toEqual(['early', 'late']);
    expect(ran[0]?.[1]).toBeGreaterThanOrEqual(19);
    expect(ran[1]?.[1]).toBeGreaterThanOrEqual(59);
  });

  it('waits whole turns of the ring for delays longer than one turn', async () => {
    // 4 slots of 5 ms: one turn is 20 ms, so 70 ms is three turns and a half.
    const wheel = started(5, 4);
    const start = performance.now();
    let at = 0;
    wheel.schedule(70, () => (at = performance.now() - start));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(at).toBeGreaterThanOrEqual(69);
    expect(at).toBeLessThan(140);
  });

  it('does not run a repeating callback back to back after the event loop was blocked', async () => {
    const wheel = started(10, 64);
    const runs: number[] = [];
    const repeat = () => {
      runs.push(performance.now());
      wheel.schedule(20, repeat);
    };
    wheel.schedule(20, repeat);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const blockedUntil = performance.now() + 300;
    while (performance.now() < blockedUntil) {
      // a busy event loop, as under a connect storm
    }
    const before = runs.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    // 300 ms late: one run for the missed period, then every 20 ms again (about 5 in 100 ms),
    // not the 15 periods it missed all at once.
    expect(runs.length - before).toBeLessThanOrEqual(7);
  });
});
