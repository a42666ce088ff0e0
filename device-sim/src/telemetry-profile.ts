import type { TTelemetryValues } from '@blrms/contracts';
import { faultyCount } from './faults.js';

/**
 * Telemetry values that follow a curve over time instead of the device model, so that a fleet
 * crosses alarm thresholds when and where the operator wants: a square wave between a normal and
 * an alarming value, a ramp, a sine, or a constant. The curve's value replaces the model's for its
 * key (or is added when the series does not send that key); events and the status are untouched.
 */

export const PROFILE_SHAPES = ['const', 'square', 'ramp', 'sine'] as const;
export type TProfileShape = (typeof PROFILE_SHAPES)[number];

/** Curves one profile may hold: a message carries at most 64 values, the models send up to 9. */
export const PROFILE_CURVES_MAX = 32;

/**
 * One key's curve. At time 0 of its period every shape is at `from`:
 * - `const`: always `from` (`to` equals it, `periodMs` is 0);
 * - `square`: `from` for the first half of the period, `to` for the second;
 * - `ramp`: from `from` to `to` linearly over the period, then back to `from` at once;
 * - `sine`: from `from` to `to` at half the period and back, smoothly.
 */
export interface ProfileCurve {
  key: string;
  shape: TProfileShape;
  from: number;
  to: number;
  periodMs: number;
  /** Decimals the value is rounded to: the most written in `from` and `to`. */
  decimals: number;
}

/**
 * Which devices of a fleet follow which curves, and from when. `devices`: a count, or a share
 * between 0 and 1 (rounded up), spread evenly over the fleet; absent, every device follows.
 */
export interface TelemetryProfile {
  curves: readonly ProfileCurve[];
  devices?: number;
  /**
   * `spread` (default): follower j of n starts at j/n of each period, so that a fleet does not
   * cross a threshold all at once; `aligned`: every follower at the same point.
   */
  phase?: 'spread' | 'aligned';
  /** Time 0 of every curve, in ms since the epoch (default: when the fleet was made). */
  startedAt?: number;
}

/** What one device follows: the curves and where it is on them. */
export interface DeviceProfile {
  readonly curves: readonly ProfileCurve[];
  /** Time 0 of the curves, ms since the epoch. */
  readonly startedAt: number;
  /** Its offset, as a share of each curve's period (0 ≤ phase < 1). */
  readonly phase: number;
}

/** The curve's value `elapsedMs` after its time 0 (negative times count back from it). */
export function valueAt(curve: ProfileCurve, elapsedMs: number): number {
  if (curve.shape === 'const' || curve.periodMs <= 0) return curve.from;
  const cycle = elapsedMs / curve.periodMs;
  const position = cycle - Math.floor(cycle);
  const span = curve.to - curve.from;
  let value: number;
  switch (curve.shape) {
    case 'square':
      return position < 0.5 ? curve.from : curve.to;
    case 'ramp':
      value = curve.from + span * position;
      break;
    case 'sine':
      value = curve.from + (span * (1 - Math.cos(2 * Math.PI * position))) / 2;
      break;
  }
  const scale = 10 ** curve.decimals;
  return Math.round(value * scale) / scale;
}

/** Overwrites (or adds) the followed keys in a report's fresh `values`, at wall-clock time `ts`. */
export function applyProfile(values: TTelemetryValues, profile: DeviceProfile, ts: number): void {
  const elapsed = ts - profile.startedAt;
  for (const curve of profile.curves)
    values[curve.key] = valueAt(curve, elapsed + profile.phase * curve.periodMs);
}

/**
 * The followers of a fleet of `total` devices, by index, with their phase: distinct devices spread
 * evenly (with 200 devices and 2 followers, the devices at index 50 and 150), the same on every run.
 */
export function assignProfile(
  total: number,
  profile: Pick<TelemetryProfile, 'devices' | 'phase'>,
): Map<number, number> {
  const count =
    profile.devices === undefined ? total : faultyCount('devices', profile.devices, total);
  if (count > total)
    throw new RangeError(`${count} devices asked to follow the profile, the fleet has ${total}`);
  const followers = new Map<number, number>();
  for (let j = 0; j < count; j++) {
    const index = Math.floor(((j + 0.5) * total) / count);
    followers.set(index, profile.phase === 'aligned' ? 0 : j / count);
  }
  return followers;
}

/** `ain1 square 10↔25 every 60 s`, for the simulator's start-up lines. */
export function describeCurve(curve: ProfileCurve): string {
  const seconds = `${curve.periodMs / 1000} s`;
  switch (curve.shape) {
    case 'const':
      return `${curve.key} = ${curve.from}`;
    case 'square':
      return `${curve.key} square ${curve.from}↔${curve.to} every ${seconds}`;
    case 'ramp':
      return `${curve.key} ramp ${curve.from}→${curve.to} over ${seconds}`;
    case 'sine':
      return `${curve.key} sine ${curve.from}↔${curve.to} every ${seconds}`;
  }
}
