import { z } from 'zod';
import { ZId, ZPageQuery, ZTimestamp, pageOf } from './common.js';
import { DEVICE_TAGS_MAX, ZDeviceSeries, ZDeviceTag, ZIdBody } from './device.js';
import { ZFirmwareVersion } from './firmware.js';

/*
 * Campaigns: one change rolled out to many devices in waves. `ota` installs a firmware; `config`
 * applies a partial configuration (JSON Merge Patch) to each device's desired configuration.
 * Per device: queued → notified → downloading → downloaded → verified → updating → updated, or
 * failed (with a reason) or canceled. A configuration campaign goes queued → notified → updated.
 * An upgrade is `updated` only when the device reconnects reporting the new version.
 */

export const CAMPAIGN_KINDS = ['ota', 'config'] as const;
export const ZCampaignKind = z.enum(CAMPAIGN_KINDS);
export type TCampaignKind = z.infer<typeof ZCampaignKind>;

/**
 * scheduled: waits for its `startAt`. paused: by a user, or by the failure threshold
 * (`pausedReason`, `thresholdWave`). The end states tell how it went: `completed` (every device
 * updated), `completed-with-failures` (some failed, no wave over its threshold, or the operator
 * accepted it by resuming), `failed` (a wave crossed the threshold and was not resumed, or no
 * device was updated), `canceled`.
 */
export const CAMPAIGN_STATES = [
  'scheduled',
  'running',
  'paused',
  'completed',
  'completed-with-failures',
  'failed',
  'canceled',
] as const;
export const ZCampaignState = z.enum(CAMPAIGN_STATES);
export type TCampaignState = z.infer<typeof ZCampaignState>;

export const CAMPAIGN_DEVICE_STATES = [
  'queued',
  'notified',
  'downloading',
  'downloaded',
  'verified',
  'updating',
  'updated',
  'failed',
  'canceled',
] as const;
export const ZCampaignDeviceState = z.enum(CAMPAIGN_DEVICE_STATES);
export type TCampaignDeviceState = z.infer<typeof ZCampaignDeviceState>;
/** States in which a device counts against `maxConcurrent`. */
export const CAMPAIGN_ACTIVE_STATES: readonly TCampaignDeviceState[] = [
  'notified',
  'downloading',
  'downloaded',
  'verified',
  'updating',
];
export const CAMPAIGN_FINAL_STATES: readonly TCampaignDeviceState[] = [
  'updated',
  'failed',
  'canceled',
];

/** States a campaign ends in; `retry` may start it again. */
export const CAMPAIGN_END_STATES: readonly TCampaignState[] = [
  'completed',
  'completed-with-failures',
  'failed',
  'canceled',
];

/**
 * What holds the next wave back once the current one is final: the soak time (until
 * `gateUntil`) or the operator's approval (`POST /campaign/approve`).
 */
export const CAMPAIGN_GATES = ['soak', 'approval'] as const;
export const ZCampaignGate = z.enum(CAMPAIGN_GATES);
export type TCampaignGate = z.infer<typeof ZCampaignGate>;

/**
 * At a wave's deadline its devices still queued and offline either stop holding the wave back
 * (`continue`: they start when they return) or fail with `offline at wave deadline` (`fail`,
 * which counts against the wave's failure threshold).
 */
export const WAVE_DEADLINE_ACTIONS = ['continue', 'fail'] as const;
export const ZWaveDeadlineAction = z.enum(WAVE_DEADLINE_ACTIONS);
export type TWaveDeadlineAction = z.infer<typeof ZWaveDeadlineAction>;

/** A device's error when the wave deadline failed it (the console translates it). */
export const OFFLINE_AT_WAVE_DEADLINE = 'offline at wave deadline';

export const CAMPAIGN_TARGET_MAX_IDS = 10_000;

/**
 * Which devices: the listed ones, or a group, series and/or tags (devices with any of the tags,
 * as they are when the campaign is created), narrowed by current firmware version
 * (inclusive range) and to devices online when the campaign is created. Devices the user may not
 * see (another company, data rules) are refused, not skipped.
 */
export const ZCampaignTarget = z
  .object({
    deviceIds: z.array(ZId).min(1).max(CAMPAIGN_TARGET_MAX_IDS).optional(),
    groupId: ZId.optional(),
    series: ZDeviceSeries.optional(),
    tags: z
      .array(ZDeviceTag)
      .min(1)
      .max(DEVICE_TAGS_MAX)
      .optional()
      .describe('Devices with any of these tags'),
    versionFrom: ZFirmwareVersion.optional(),
    versionTo: ZFirmwareVersion.optional(),
    onlineOnly: z.boolean().default(false),
  })
  .strict()
  .refine((t) => t.deviceIds || t.groupId || t.series || t.tags, {
    message: 'name devices, a group, a series or tags',
    path: ['deviceIds'],
  });
export type TCampaignTarget = z.infer<typeof ZCampaignTarget>;

/** Local time of day `HH:mm`; a window whose end is before its start spans midnight. */
const ZTimeOfDay = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:mm');
export const ZCampaignWindow = z
  .object({
    start: ZTimeOfDay,
    end: ZTimeOfDay,
    utcOffsetMinutes: z.number().int().min(-720).max(840).describe('Offset of the times from UTC'),
  })
  .strict()
  .refine((w) => w.start !== w.end, { message: 'start and end must differ', path: ['end'] });
export type TCampaignWindow = z.infer<typeof ZCampaignWindow>;

export const ZCampaignCreate = z
  .object({
    name: z.string().trim().min(1).max(64),
    kind: ZCampaignKind,
    firmwareId: ZId.optional().describe('ota: the firmware to install'),
    series: ZDeviceSeries.optional().describe('config: the series whose schema the patch follows'),
    configPatch: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('config: JSON Merge Patch applied to each device’s desired configuration'),
    target: ZCampaignTarget,
    waves: z
      .array(z.number().min(0.01).max(100))
      .min(1)
      .max(10)
      .default([100])
      .refine((w) => w.every((p, i) => i === 0 || p > w[i - 1]!) && w[w.length - 1] === 100, {
        message: 'must rise and end at 100 (cumulative percentages)',
      })
      .describe('Cumulative share of the devices per wave, e.g. [1, 10, 100]'),
    maxConcurrent: z
      .number()
      .int()
      .min(1)
      .max(10_000)
      .default(100)
      .describe('Devices in progress at once; lowered to the size of the largest wave'),
    failureThresholdPercent: z
      .number()
      .min(1)
      .max(100)
      .default(20)
      .describe(
        'Pause when this share of a wave’s devices failed, counted against the whole wave as failures come in',
      ),
    soakMinutes: z
      .number()
      .int()
      .min(0)
      .max(10_080)
      .default(0)
      .describe('Wait after a wave is final before the next one starts'),
    approveEachWave: z
      .boolean()
      .default(false)
      .describe('Each wave after the first waits for POST /campaign/approve'),
    waveDeadlineMinutes: z
      .number()
      .int()
      .min(1)
      .max(43_200)
      .optional()
      .describe('After this long a wave’s offline devices stop holding it (see onWaveDeadline)'),
    onWaveDeadline: ZWaveDeadlineAction.default('continue'),
    startAt: z.iso
      .datetime({ offset: true })
      .optional()
      .describe('Start at this time (state `scheduled` until then); at once when absent or past'),
    window: ZCampaignWindow.optional().describe('Start devices only in this daily window'),
    jitterSec: z
      .number()
      .int()
      .min(0)
      .max(3600)
      .default(0)
      .describe('Random delay before each device is notified'),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.kind === 'ota' && !c.firmwareId)
      ctx.addIssue({ code: 'custom', path: ['firmwareId'], message: 'required for an upgrade' });
    if (c.kind === 'config') {
      if (!c.series)
        ctx.addIssue({ code: 'custom', path: ['series'], message: 'required for configuration' });
      if (!c.configPatch || Object.keys(c.configPatch).length === 0)
        ctx.addIssue({ code: 'custom', path: ['configPatch'], message: 'must change something' });
    }
  });
export type TCampaignCreate = z.infer<typeof ZCampaignCreate>;
export type TCampaignCreateInput = z.input<typeof ZCampaignCreate>;

export const ZCampaignCounts = z.object(
  Object.fromEntries(CAMPAIGN_DEVICE_STATES.map((s) => [s, z.number().int()])) as Record<
    TCampaignDeviceState,
    z.ZodNumber
  >,
);
export type TCampaignCounts = z.infer<typeof ZCampaignCounts>;

/** What the list and the live progress show. */
export const ZCampaignProgress = z.object({
  id: ZId,
  state: ZCampaignState,
  pausedReason: z.enum(['user', 'failure-threshold']).nullable(),
  currentWave: z.number().int().describe('Index into waves of the wave being rolled out'),
  gate: ZCampaignGate.nullable().describe('What holds the next wave back, the current one final'),
  gateUntil: ZTimestamp.nullable().describe('End of the soak time'),
  thresholdWave: z
    .number()
    .int()
    .nullable()
    .describe('Index of the wave whose failures crossed the threshold (paused or failed)'),
  waveDeadline: ZTimestamp.nullable().describe(
    'When the current wave’s offline devices stop holding it; null once passed or without one',
  ),
  total: z.number().int(),
  counts: ZCampaignCounts,
  /** Queued devices that wait for their device to come online. */
  waitingOffline: z.number().int(),
  endTime: ZTimestamp.nullable(),
});
export type TCampaignProgress = z.infer<typeof ZCampaignProgress>;

export const ZCampaign = ZCampaignProgress.extend({
  name: z.string(),
  kind: ZCampaignKind,
  firmwareId: ZId.nullable(),
  firmwareVersion: z.string().nullable(),
  series: ZDeviceSeries.nullable(),
  configPatch: z.record(z.string(), z.unknown()).nullable(),
  target: z.record(z.string(), z.unknown()).describe('The target as it was given'),
  waves: z.array(z.number()),
  maxConcurrent: z.number().int(),
  failureThresholdPercent: z.number(),
  soakMinutes: z.number().int(),
  approveEachWave: z.boolean(),
  waveDeadlineMinutes: z.number().int().nullable(),
  onWaveDeadline: ZWaveDeadlineAction,
  startAt: ZTimestamp.nullable(),
  window: ZCampaignWindow.nullable(),
  jitterSec: z.number().int(),
  createBy: z.string().nullable(),
  createTime: ZTimestamp,
});
export type TCampaign = z.infer<typeof ZCampaign>;

export const ZCampaignQuery = ZPageQuery.extend({
  kind: ZCampaignKind.optional(),
  state: ZCampaignState.optional(),
  name: z.string().max(64).optional(),
}).strict();
export type TCampaignQuery = z.infer<typeof ZCampaignQuery>;
export const ZCampaignPage = pageOf(ZCampaign);

export const ZCampaignDevice = z.object({
  deviceId: ZId,
  sn: z.string(),
  name: z.string().nullable(),
  wave: z.number().int(),
  state: ZCampaignDeviceState,
  progress: z.number().int().nullable().describe('Download percentage'),
  fromVersion: z.string().nullable(),
  error: z.string().nullable(),
  attempts: z.number().int(),
  updateTime: ZTimestamp,
});
export type TCampaignDevice = z.infer<typeof ZCampaignDevice>;

export const ZCampaignDeviceQuery = ZPageQuery.extend({
  id: ZId,
  state: ZCampaignDeviceState.optional(),
  sn: z.string().max(64).optional(),
}).strict();
export type TCampaignDeviceQuery = z.infer<typeof ZCampaignDeviceQuery>;
export const ZCampaignDevicePage = pageOf(ZCampaignDevice);

/** The devices a target names, before creating (the form shows the count). */
export const ZCampaignPreview = z.object({
  total: z.number().int(),
  online: z.number().int(),
  /** Devices the target names that the campaign would leave out, e.g. another series. */
  excluded: z.number().int(),
});
export type TCampaignPreview = z.infer<typeof ZCampaignPreview>;
export const ZCampaignPreviewBody = z
  .object({
    kind: ZCampaignKind,
    firmwareId: ZId.optional(),
    series: ZDeviceSeries.optional(),
    target: ZCampaignTarget,
  })
  .strict();

/**
 * pause / resume / cancel / retry (failed devices back to queued) / approve (the next wave, when
 * `gate` is `approval`) take the campaign id. Resuming a campaign the threshold paused accepts
 * that wave's failures: the threshold no longer judges it, and the next wave needs no approval.
 */
export const ZCampaignAction = ZIdBody;
