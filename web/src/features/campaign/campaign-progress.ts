import type {
  TCampaign,
  TCampaignCounts,
  TCampaignDeviceState,
  TCampaignProgress,
} from '@blrms/contracts';
import {
  CAMPAIGN_ACTIVE_STATES,
  CAMPAIGN_DEVICE_STATES,
  OFFLINE_AT_WAVE_DEADLINE,
} from '@blrms/contracts';
import type { TFunction } from 'i18next';

/** The share of a campaign's devices that has reached a final state, 0 to 100, rounded down. */
export function finishedPercent(progress: Pick<TCampaignProgress, 'total' | 'counts'>): number {
  if (progress.total <= 0) return 0;
  const { updated, failed, canceled } = progress.counts;
  // Rounded down, so that 100 % means every device is done and never "almost".
  return Math.floor(((updated + failed + canceled) * 100) / progress.total);
}

export function activeCount(counts: TCampaignCounts): number {
  return CAMPAIGN_ACTIVE_STATES.reduce((sum, state) => sum + counts[state], 0);
}

/** The parts a campaign's bar is drawn from, in the order they are drawn (left to right). */
export const PROGRESS_PARTS = ['updated', 'failed', 'canceled', 'active', 'queued'] as const;
export type ProgressPart = (typeof PROGRESS_PARTS)[number];

export type ProgressSegment = { part: ProgressPart; count: number; percent: number };

/**
 * The segments of a campaign's bar: updated, failed, canceled, in progress (every active state)
 * and queued, each with its share of the total. Empty parts are left out.
 */
export function progressSegments(
  progress: Pick<TCampaignProgress, 'total' | 'counts'>,
): ProgressSegment[] {
  const { counts, total } = progress;
  const byPart: Record<ProgressPart, number> = {
    updated: counts.updated,
    failed: counts.failed,
    canceled: counts.canceled,
    active: activeCount(counts),
    queued: counts.queued,
  };
  if (total <= 0) return [];
  return PROGRESS_PARTS.filter((part) => byPart[part] > 0).map((part) => ({
    part,
    count: byPart[part],
    percent: Math.min(100, (byPart[part] * 100) / total),
  }));
}

/** A device state's share of the total for its own bar, 0 to 100 with one decimal. */
export function statePercent(count: number, total: number): number {
  return total > 0 ? Math.round((count * 1000) / total) / 10 : 0;
}

/** The device states in the order the detail page lists them. */
export const DEVICE_STATES: readonly TCampaignDeviceState[] = CAMPAIGN_DEVICE_STATES;

const PROGRESS_FIELDS = [
  'state',
  'pausedReason',
  'currentWave',
  'gate',
  'gateUntil',
  'thresholdWave',
  'waveDeadline',
  'total',
  'waitingOffline',
  'endTime',
] as const satisfies readonly (keyof TCampaignProgress)[];

/**
 * A campaign with the fields of a live progress message. Returns the same object when nothing
 * changed, so that React and TanStack Query see no change either.
 */
export function withProgress<T extends TCampaign>(campaign: T, progress: TCampaignProgress): T {
  if (campaign.id !== progress.id) return campaign;
  const fieldsSame = PROGRESS_FIELDS.every((field) => campaign[field] === progress[field]);
  const countsSame = CAMPAIGN_DEVICE_STATES.every(
    (state) => campaign.counts[state] === progress.counts[state],
  );
  if (fieldsSame && countsSame) return campaign;
  return {
    ...campaign,
    state: progress.state,
    pausedReason: progress.pausedReason,
    currentWave: progress.currentWave,
    gate: progress.gate,
    gateUntil: progress.gateUntil,
    thresholdWave: progress.thresholdWave,
    waveDeadline: progress.waveDeadline,
    total: progress.total,
    counts: countsSame ? campaign.counts : progress.counts,
    waitingOffline: progress.waitingOffline,
    endTime: progress.endTime,
  };
}

/** A page of campaigns with live progress applied; the same page when nothing on it changed. */
export function pageWithProgress<P extends { records: TCampaign[] }>(
  page: P,
  batch: readonly TCampaignProgress[],
): P {
  let records = page.records;
  for (const progress of batch) {
    const index = records.findIndex((c) => c.id === progress.id);
    if (index < 0) continue;
    const next = withProgress(records[index]!, progress);
    if (next !== records[index]) {
      records = records === page.records ? [...records] : records;
      records[index] = next;
    }
  }
  return records === page.records ? page : { ...page, records };
}

/** Which per-device states a device passes through: a configuration skips the download. */
export function statesOfKind(kind: TCampaign['kind']): readonly TCampaignDeviceState[] {
  return kind === 'config'
    ? DEVICE_STATES.filter((s) =>
        ['queued', 'notified', 'updated', 'failed', 'canceled'].includes(s),
      )
    : DEVICE_STATES;
}

/** Reasons the engine gives a failed device, by the key of their translation. */
const ENGINE_ERRORS: Partial<
  Record<
    string,
    | 'offlineAtWaveDeadline'
    | 'sha256Mismatch'
    | 'versionMismatch'
    | 'firmwareNotFound'
    | 'refusedByDevice'
  >
> = {
  [OFFLINE_AT_WAVE_DEADLINE]: 'offlineAtWaveDeadline',
  'sha256 mismatch': 'sha256Mismatch',
  'version mismatch': 'versionMismatch',
  'firmware not found': 'firmwareNotFound',
  'refused by the device': 'refusedByDevice',
};

/**
 * A device's failure reason in the user's language when the engine gave it (`timeout in <step>`
 * names the step); a device's own words are shown as they came.
 */
export function deviceErrorText(t: TFunction, error: string): string {
  const key = ENGINE_ERRORS[error];
  if (key) return t(`campaign.errors.${key}`);
  // The engine writes these with the step they happened in; anything else is the device's words.
  const atStep = /^(timeout|failed) in (\w+)$/.exec(error);
  const step = CAMPAIGN_DEVICE_STATES.find((state) => state === atStep?.[2]);
  if (atStep && step) {
    return t(atStep[1] === 'timeout' ? 'campaign.errors.timeoutIn' : 'campaign.errors.failedIn', {
      step: t(`campaign.deviceStates.${step}`),
    });
  }
  return error;
}
