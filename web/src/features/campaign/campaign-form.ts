import type {
  TCampaignCreateInput,
  TCampaignWindow,
  TDeviceSeries,
  TWaveDeadlineAction,
} from '@blrms/contracts';

type TCampaignTargetInput = TCampaignCreateInput['target'];

/** Ready-made wave plans (cumulative percentages): all at once, a tenth first, a canary first. */
export const WAVE_PRESETS = {
  all: [100],
  tenth: [10, 100],
  canary: [1, 10, 100],
} as const satisfies Record<string, readonly number[]>;
export type WavePreset = keyof typeof WAVE_PRESETS | 'custom';
export const WAVE_PRESET_KEYS = Object.keys(WAVE_PRESETS) as (keyof typeof WAVE_PRESETS)[];

/** The contract's limits of a wave plan. */
export const WAVES_MAX = 10;
const WAVE_MIN_PERCENT = 0.01;

export type WavesProblem = 'empty' | 'number' | 'range' | 'rising' | 'end' | 'count';

/**
 * Reads a custom wave plan typed as cumulative percentages, e.g. `5, 25, 100` (commas, spaces,
 * arrows or `%` between them). The rules are the contract's: at most 10 waves, each above the
 * last, the last 100.
 */
export function parseWaves(text: string): { waves: number[] } | { problem: WavesProblem } {
  const parts = text
    .split(/[\s,，;；→>%]+/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) return { problem: 'empty' };
  const waves = parts.map(Number);
  if (waves.some((w) => !Number.isFinite(w))) return { problem: 'number' };
  if (waves.some((w) => w < WAVE_MIN_PERCENT || w > 100)) return { problem: 'range' };
  if (waves.length > WAVES_MAX) return { problem: 'count' };
  if (waves.some((w, i) => i > 0 && w <= waves[i - 1]!)) return { problem: 'rising' };
  if (waves[waves.length - 1] !== 100) return { problem: 'end' };
  return { waves };
}

/** The preset a plan is, or `custom`. */
export function presetOf(waves: readonly number[]): WavePreset {
  return (
    WAVE_PRESET_KEYS.find((key) => {
      const preset: readonly number[] = WAVE_PRESETS[key];
      return preset.length === waves.length && preset.every((p, i) => p === waves[i]);
    }) ?? 'custom'
  );
}

/** A wave plan as people write it: `1% → 10% → 100%`. */
export function formatWaves(waves: readonly number[]): string {
  return waves.map((w) => `${w}%`).join(' → ');
}

/** `UTC+08:00`, `UTC-03:30`, `UTC` for an offset from UTC in minutes. */
export function formatUtcOffset(minutes: number): string {
  if (minutes === 0) return 'UTC';
  const sign = minutes > 0 ? '+' : '-';
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `UTC${sign}${hh}:${mm}`;
}

/** The browser's offset from UTC now, in minutes east (the sign the contract uses). */
export function browserUtcOffsetMinutes(date = new Date()): number {
  // getTimezoneOffset() counts minutes west of UTC; `|| 0` turns -0 into 0.
  return -date.getTimezoneOffset() || 0;
}

/**
 * A daily window from the two times of day picked (`HH:mm`) in the browser's time zone. The
 * server needs the offset to know when the window is open.
 */
export function windowOf(start: string, end: string, date = new Date()): TCampaignWindow {
  return { start, end, utcOffsetMinutes: browserUtcOffsetMinutes(date) };
}

/** `02:00–05:00 (UTC+08:00)`; a window ending before it starts runs over midnight. */
export function formatWindow(window: TCampaignWindow): string {
  return `${window.start}–${window.end} (${formatUtcOffset(window.utcOffsetMinutes)})`;
}

/** Whether a window runs over midnight (its end comes before its start). */
export function spansMidnight(window: Pick<TCampaignWindow, 'start' | 'end'>): boolean {
  return window.end < window.start;
}

/**
 * How a campaign rolls out, as both campaign forms (upgrade, bulk configuration) hold it: the
 * concurrency, the failure threshold and the gates between waves. `startAt` is an ISO time.
 */
export type RolloutValues = {
  maxConcurrent: number;
  failureThresholdPercent: number;
  soakMinutes: number;
  approveEachWave?: boolean;
  waveDeadlineOn?: boolean;
  waveDeadlineMinutes?: number;
  onWaveDeadline: TWaveDeadlineAction;
  startLater?: boolean;
  startAt?: string;
};

export const INITIAL_ROLLOUT: RolloutValues = {
  maxConcurrent: 100,
  failureThresholdPercent: 20,
  soakMinutes: 0,
  approveEachWave: false,
  waveDeadlineOn: false,
  waveDeadlineMinutes: 60,
  onWaveDeadline: 'continue',
  startLater: false,
};

/** The rollout fields of POST add; options switched off are left out (the server's defaults). */
export function rolloutBodyOf(
  values: RolloutValues,
): Pick<
  TCampaignCreateInput,
  | 'maxConcurrent'
  | 'failureThresholdPercent'
  | 'soakMinutes'
  | 'approveEachWave'
  | 'waveDeadlineMinutes'
  | 'onWaveDeadline'
  | 'startAt'
> {
  const deadline = values.waveDeadlineOn && values.waveDeadlineMinutes !== undefined;
  return {
    maxConcurrent: values.maxConcurrent,
    failureThresholdPercent: values.failureThresholdPercent,
    soakMinutes: values.soakMinutes,
    approveEachWave: values.approveEachWave ?? false,
    waveDeadlineMinutes: deadline ? values.waveDeadlineMinutes : undefined,
    onWaveDeadline: deadline ? values.onWaveDeadline : undefined,
    startAt: values.startLater && values.startAt ? values.startAt : undefined,
  };
}

/** Fields of the rollout that the server names the same way. */
export const ROLLOUT_FIELDS = [
  'maxConcurrent',
  'failureThresholdPercent',
  'soakMinutes',
  'waveDeadlineMinutes',
  'onWaveDeadline',
  'startAt',
] as const satisfies readonly (keyof RolloutValues)[];

/** What the new-upgrade form holds (times of day as `HH:mm`). */
export type TargetKind = 'devices' | 'group' | 'tags' | 'series';
export type UpgradeFormValues = RolloutValues & {
  name: string;
  firmwareId?: string;
  targetKind: TargetKind;
  deviceIds?: string[];
  groupId?: string;
  /** Devices with any of these tags. */
  tags?: string[];
  versionFrom?: string;
  versionTo?: string;
  onlineOnly?: boolean;
  wavePreset: WavePreset;
  customWaves?: string;
  windowOn?: boolean;
  window?: { start: string; end: string };
  jitterSec: number;
};

/**
 * The target the form describes, or null while it names nothing yet. A series target is the
 * firmware's series; devices and groups are sent as chosen, and the server leaves out (and the
 * preview counts as excluded) the devices of another series.
 */
export function targetOf(
  values: Pick<
    UpgradeFormValues,
    'targetKind' | 'deviceIds' | 'groupId' | 'tags' | 'versionFrom' | 'versionTo' | 'onlineOnly'
  >,
  series: TDeviceSeries | undefined,
): TCampaignTargetInput | null {
  const range = {
    versionFrom: values.versionFrom?.trim() || undefined,
    versionTo: values.versionTo?.trim() || undefined,
    onlineOnly: values.onlineOnly ?? false,
  };
  switch (values.targetKind) {
    case 'devices':
      return values.deviceIds?.length ? { deviceIds: values.deviceIds, ...range } : null;
    case 'group':
      return values.groupId ? { groupId: values.groupId, ...range } : null;
    case 'tags':
      return values.tags?.length ? { tags: values.tags, ...range } : null;
    case 'series':
      return series ? { series, ...range } : null;
  }
}

/** The wave plan of the form, or null while a custom plan does not read. */
export function wavesOf(values: Pick<UpgradeFormValues, 'wavePreset' | 'customWaves'>) {
  if (values.wavePreset !== 'custom') return [...WAVE_PRESETS[values.wavePreset]];
  const parsed = parseWaves(values.customWaves ?? '');
  return 'waves' in parsed ? parsed.waves : null;
}

/** The body of POST add for a firmware upgrade; null while the form is incomplete. */
export function upgradeBodyOf(
  values: UpgradeFormValues,
  series: TDeviceSeries | undefined,
  date = new Date(),
): TCampaignCreateInput | null {
  const target = targetOf(values, series);
  const waves = wavesOf(values);
  if (!values.firmwareId || !target || !waves) return null;
  return {
    name: values.name.trim(),
    kind: 'ota',
    firmwareId: values.firmwareId,
    target,
    waves,
    ...rolloutBodyOf(values),
    window:
      values.windowOn && values.window
        ? windowOf(values.window.start, values.window.end, date)
        : undefined,
    jitterSec: values.jitterSec,
  };
}

const SAME_NAME_FIELDS = [
  'name',
  'firmwareId',
  'jitterSec',
  ...ROLLOUT_FIELDS,
] as const satisfies readonly (keyof UpgradeFormValues)[];
const TARGET_FIELDS = [
  'deviceIds',
  'groupId',
  'tags',
  'versionFrom',
  'versionTo',
  'onlineOnly',
] as const satisfies readonly (keyof UpgradeFormValues)[];

/**
 * The form field a server validation path names: `target.versionFrom` is the version field,
 * `waves` the plan (the custom text when custom), `window.end` the window; null for a path the
 * form has no field for.
 */
export function upgradeFieldOf(
  path: readonly string[],
  preset: WavePreset,
): keyof UpgradeFormValues | null {
  const [head, sub] = path;
  const same = SAME_NAME_FIELDS.find((field) => field === head);
  if (same) return same;
  if (head === 'target') return TARGET_FIELDS.find((field) => field === sub) ?? 'targetKind';
  if (head === 'waves') return preset === 'custom' ? 'customWaves' : 'wavePreset';
  if (head === 'window') return 'window';
  return null;
}
