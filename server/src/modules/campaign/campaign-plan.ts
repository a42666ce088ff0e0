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

/** Failed share of the finished devices reached the threshold (after at least `minFinished`). */
export function overThreshold(
  counts: Pick<TCampaignCounts, 'updated' | 'failed'>,
  thresholdPercent: number,
  minFinished: number,
): boolean {
  const finished = counts.updated + counts.failed;
  return finished >= minFinished && counts.failed * 100 >= thresholdPercent * finished;
}
