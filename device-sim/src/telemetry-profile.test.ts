import { describe, expect, it } from 'vitest';
import {
  applyProfile,
  assignProfile,
  describeCurve,
  valueAt,
  type ProfileCurve,
} from './telemetry-profile.js';

const curve = (shape: ProfileCurve['shape'], from: number, to: number, periodMs: number) =>
  ({ key: 'x', shape, from, to, periodMs, decimals: 0 }) satisfies ProfileCurve;

describe('telemetry profile curves', () => {
  it('a square wave is at its first value for the first half of each period, then the second', () => {
    const square = curve('square', 10, 25, 60_000);
    expect([0, 29_999, 30_000, 59_999, 60_000, 90_000].map((t) => valueAt(square, t))).toEqual([
      10, 10, 25, 25, 10, 25,
    ]);
    expect(valueAt(square, -1)).toBe(25);
  });

  it('a ramp runs from the first value to the second over the period, then starts again', () => {
    const ramp = curve('ramp', -80, -115, 120_000);
    expect([0, 24_000, 96_000, 119_000, 120_000].map((t) => valueAt(ramp, t))).toEqual([
      -80, -87, -108, -115, -80,
    ]);
  });

  it('a sine goes from the first value to the second at half the period and back', () => {
    const sine = { ...curve('sine', 20, 80, 300_000), decimals: 1 };
    expect(valueAt(sine, 0)).toBe(20);
    expect(valueAt(sine, 75_000)).toBe(50);
    expect(valueAt(sine, 150_000)).toBe(80);
    expect(valueAt(sine, 225_000)).toBe(50);
    expect(valueAt(sine, 50_000)).toBe(35);
  });

  it('keeps the decimals written, and a constant is always its value', () => {
    expect(valueAt({ ...curve('ramp', 0, 1, 3000), decimals: 2 }, 1000)).toBe(0.33);
    expect(valueAt(curve('ramp', 0, 1, 3000), 1000)).toBe(0);
    expect(valueAt({ ...curve('const', 25.5, 25.5, 0), decimals: 1 }, 123_456)).toBe(25.5);
  });

  it('overwrites the followed keys of a report and adds those the model does not send', () => {
    const values: Record<string, number> = { signal: -70, ain1: 12.34 };
    applyProfile(
      values,
      {
        curves: [
          { ...curve('square', 10, 25, 60_000), key: 'ain1' },
          { ...curve('const', 55, 55, 0), key: 'temp' },
        ],
        startedAt: 1_000_000,
        phase: 0.5,
      },
      1_000_000,
    );
    expect(values).toEqual({ signal: -70, ain1: 25, temp: 55 });
  });

  it('picks followers spread evenly over the fleet, with spread or aligned phases', () => {
    expect([...assignProfile(200, { devices: 2 })]).toEqual([
      [50, 0],
      [150, 0.5],
    ]);
    expect([...assignProfile(10, { devices: 0.2, phase: 'aligned' })]).toEqual([
      [2, 0],
      [7, 0],
    ]);
    expect(assignProfile(4, {}).size).toBe(4);
    expect(() => assignProfile(3, { devices: 4 })).toThrow(/the fleet has 3/);
  });

  it('describes a curve for the start-up lines', () => {
    expect(describeCurve({ ...curve('square', 10, 25, 60_000), key: 'ain1' })).toBe(
      'ain1 square 10↔25 every 60 s',
    );
    expect(describeCurve({ ...curve('const', 3, 3, 0), key: 'ain1' })).toBe('ain1 = 3');
  });
});
