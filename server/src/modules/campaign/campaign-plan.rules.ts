import {
  CAMPAIGN_ACTIVE_STATES,
  CAMPAIGN_DEVICE_STATES,
  type TCampaignCounts,
  type TCampaignDeviceState,
  type TCampaignWindow,
} from '@blrms/contracts';

/*
 * The pure rules of a rollout: which wave a device belongs to, whether the daily window is open,
 * and which report may move a device's state.
 */

/**
 * Wave of each of `count` devices (in their deterministic order) for cumulative percentages such
 * as [1, 10, 100]: device i is in the first wave whose share `ceil(count × p / 100)` exceeds i, so
 * a first wave of 1 % still holds one device of a small fleet.
 */
export function assignWaves(count: number, waves: readonly number[]): number[] {
  const ends = waves.map((p) => Math.min(count, Math.ceil((count * p) / 100)));
  const assigned: number[] = [];
  let wave = 0;
  for (let i = 0; i < count; i += 1) {
    while (wave < ends.length - 1 && i >= ends[wave]!) wave += 1;
    assigned.push(wave);
  }
  return assigned;
}

const MINUTES_PER_DAY = 24 * 60;

function minutesOf(time: string): number {
  const [h, m] = time.split(':').map(Number);
  return h! * 60 + m!;
}

/** Whether new devices may start at `now`; a window whose end is before its start spans midnight. */
export function windowOpen(window: TCampaignWindow | null, now: number): boolean {
  if (!window) return true;
  const local = Math.floor(now / 60_000) + window.utcOffsetMinutes;
  const minute = ((local % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY;
  const start = minutesOf(window.start);
  const end = minutesOf(window.end);
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}

/** States a device can still leave: queued, or on its way. */
export const OPEN_STATES: TCampaignDeviceState[] = ['queued', ...CAMPAIGN_ACTIVE_STATES];

export const isActive = (state: string) =>
  (CAMPAIGN_ACTIVE_STATES as readonly string[]).includes(state);

/** Order of the states an upgrade passes through; a report never moves a device back. */
const RANK: Partial<Record<TCampaignDeviceState, number>> = {
  queued: 0,
  notified: 1,
  downloading: 2,
  downloaded: 3,
  verified: 4,
  updating: 5,
};

export function rankOf(state: string): number {
  return RANK[state as TCampaignDeviceState] ?? Number.POSITIVE_INFINITY;
}

export function emptyCounts(): TCampaignCounts {
  return Object.fromEntries(CAMPAIGN_DEVICE_STATES.map((s) => [s, 0])) as TCampaignCounts;
}

/** A wave's devices: how many, how many failed or updated, how many still open. */
export interface WaveTally {
  size: number;
  failed: number;
  updated: number;
  open: number;
}

/** Tallies per wave (index = wave) from counts by state and wave. */
export function tallyWaves(
  rows: readonly { state: string; wave: number; n: number }[],
  waveCount: number,
): WaveTally[] {
  const tallies = Array.from({ length: waveCount }, () => ({
    size: 0,
    failed: 0,
    updated: 0,
    open: 0,
  }));
  for (const r of rows) {
    const tally = tallies[r.wave];
    if (!tally) continue;
    tally.size += r.n;
    if (r.state === 'failed') tally.failed += r.n;
    else if (r.state === 'updated') tally.updated += r.n;
    else if (r.state !== 'canceled') tally.open += r.n;
  }
  return tallies;
}

/**
 * The first wave after `acceptedWave` (whose failures an operator accepted) up to `uptoWave` whose
 * failed devices reached the threshold share of all its devices, finished or not: a burst of
 * failures in a wave still in flight is judged as it comes in. Null when none.
 */
export function waveOverThreshold(
  tallies: readonly WaveTally[],
  thresholdPercent: number,
  acceptedWave: number,
  uptoWave: number,
): number | null {
  for (let wave = acceptedWave + 1; wave <= uptoWave && wave < tallies.length; wave += 1) {
    const { failed, size } = tallies[wave]!;
    if (failed > 0 && failed * 100 >= thresholdPercent * size) return wave;
  }
  return null;
}

export type CampaignEnd = {
  state: 'completed' | 'completed-with-failures' | 'failed';
  thresholdWave: number | null;
};

/**
 * How a campaign whose devices are all final ended: failed when a wave not accepted crossed the
 * threshold or no device was updated, completed with failures when some failed, else completed.
 */
export function endOf(
  tallies: readonly WaveTally[],
  thresholdPercent: number,
  acceptedWave: number,
): CampaignEnd {
  const thresholdWave = waveOverThreshold(
    tallies,
    thresholdPercent,
    acceptedWave,
    tallies.length - 1,
  );
  const updated = tallies.reduce((sum, t) => sum + t.updated, 0);
  const failed = tallies.reduce((sum, t) => sum + t.failed, 0);
  if (thresholdWave !== null || updated === 0) return { state: 'failed', thresholdWave };
  return { state: failed > 0 ? 'completed-with-failures' : 'completed', thresholdWave: null };
}

/** The wave after `wave` that holds devices (an empty one has nothing to wait for), or the last. */
export function nextWave(tallies: readonly WaveTally[], wave: number): number {
  let next = wave + 1;
  while (next < tallies.length - 1 && tallies[next]!.size === 0) next += 1;
  return next;
}
