import { z } from 'zod';
import { ZId, ZPageQuery, ZTimeZone, ZTimestamp, pageOf } from './common.js';
import { ZDeviceSeries } from './device.js';
import { TELEMETRY_KEY } from './device-protocol.js';
import { ZMessageChannel } from './message-center.js';

/*
 * Alarms (`/alarm/*`): rules a company writes on what its devices report, and the alarms they
 * raise. One alarm is open per rule and device at a time: a repeat raises its count and last time.
 * Lifecycle: active → acknowledged (who, when, comment) → cleared (by the condition, or by hand
 * with a comment). Cleared is final; the next crossing opens a new alarm.
 */

export const ALARM_SEVERITIES = ['critical', 'major', 'minor', 'warning'] as const;
export const ZAlarmSeverity = z.enum(ALARM_SEVERITIES);
export type TAlarmSeverity = z.infer<typeof ZAlarmSeverity>;

export const ALARM_STATES = ['active', 'acknowledged', 'cleared'] as const;
export const ZAlarmState = z.enum(ALARM_STATES);
export type TAlarmState = z.infer<typeof ZAlarmState>;

/** What a rule watches. */
export const ALARM_CONDITION_TYPES = [
  'telemetry',
  'event',
  'offline',
  'config-failed',
  'upgrade-failed',
] as const;
export const ZAlarmConditionType = z.enum(ALARM_CONDITION_TYPES);
export type TAlarmConditionType = z.infer<typeof ZAlarmConditionType>;

/**
 * How a cleared alarm was cleared: `condition` (the value returned, the device came back, the
 * recovery event came, the next push or upgrade succeeded), `manual` (a user, with a comment),
 * `rule-changed` (its rule was edited, disabled or deleted), `device-deleted`.
 */
export const ALARM_CLEAR_REASONS = [
  'condition',
  'manual',
  'rule-changed',
  'device-deleted',
] as const;
export const ZAlarmClearReason = z.enum(ALARM_CLEAR_REASONS);
export type TAlarmClearReason = z.infer<typeof ZAlarmClearReason>;

/** Rules a company may keep. */
export const ALARM_RULES_PER_COMPANY_MAX = 500;
/** Receivers named on a rule, of each kind (users, roles, departments). */
export const ALARM_TARGETS_MAX = 50;
/** Longest duration a telemetry condition may ask for: one day. */
export const ALARM_DURATION_MAX_SEC = 86_400;
/** Offline conditions: from 1 minute to 7 days. */
export const ALARM_OFFLINE_MAX_MINUTES = 10_080;
/** Reminders while an alarm stays active and unacknowledged: every 5 minutes to every day. */
export const ALARM_REMINDER_MIN_MINUTES = 5;
export const ALARM_REMINDER_MAX_MINUTES = 1440;
/** Alarms one bulk acknowledge or clear may name. */
export const ALARM_BULK_MAX = 500;
/** Rows one export writes at most. */
export const ALARM_EXPORT_MAX = 50_000;

const ZTelemetryKey = z
  .string()
  .regex(TELEMETRY_KEY, 'must be a letter then up to 31 letters, digits or _');
const ZDuration = z
  .number()
  .int()
  .min(0)
  .max(ALARM_DURATION_MAX_SEC)
  .describe('Seconds the condition must hold before the alarm is raised; 0 raises at once');

/**
 * `above`: value > threshold; `below`: value < threshold; `outside`: value < low or value > high.
 * The alarm clears when a later value no longer meets the condition.
 */
export const ZTelemetryCondition = z
  .object({
    type: z.literal('telemetry'),
    key: ZTelemetryKey.describe('Telemetry value name, e.g. signal or ain1'),
    operator: z.enum(['above', 'below', 'outside']),
    threshold: z.number().finite().optional().describe('For above and below'),
    low: z.number().finite().optional().describe('For outside'),
    high: z.number().finite().optional().describe('For outside'),
    durationSec: ZDuration.default(0),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.operator === 'outside') {
      if (c.low === undefined)
        ctx.addIssue({ code: 'custom', path: ['low'], message: 'is required for outside' });
      if (c.high === undefined)
        ctx.addIssue({ code: 'custom', path: ['high'], message: 'is required for outside' });
      if (c.low !== undefined && c.high !== undefined && c.low >= c.high)
        ctx.addIssue({ code: 'custom', path: ['high'], message: 'must be greater than low' });
    } else if (c.threshold === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['threshold'],
        message: 'is required for above and below',
      });
    }
  });

/**
 * A device event with this code at `level` (`alarm` by default) raises; the same code at level
 * `recovery` clears.
 */
export const ZEventCondition = z
  .object({
    type: z.literal('event'),
    code: z.string().trim().min(1).max(64).describe('Event code, e.g. di1'),
    level: z.enum(['warn', 'alarm']).default('alarm'),
  })
  .strict();

/**
 * Offline for longer than `minutes`; a restart the platform expects (a reboot or an upgrade it
 * sent) does not count until its window ends. Clears when the device is online again.
 */
export const ZOfflineCondition = z
  .object({
    type: z.literal('offline'),
    minutes: z.number().int().min(1).max(ALARM_OFFLINE_MAX_MINUTES),
  })
  .strict();

/** A configuration push ended failed; clears when a later push is applied. */
export const ZConfigFailedCondition = z.object({ type: z.literal('config-failed') }).strict();
/** A firmware upgrade ended failed; clears when a later upgrade succeeds. */
export const ZUpgradeFailedCondition = z.object({ type: z.literal('upgrade-failed') }).strict();

export const ZAlarmCondition = z.discriminatedUnion('type', [
  ZTelemetryCondition,
  ZEventCondition,
  ZOfflineCondition,
  ZConfigFailedCondition,
  ZUpgradeFailedCondition,
]);
export type TAlarmCondition = z.infer<typeof ZAlarmCondition>;
export type TAlarmConditionInput = z.input<typeof ZAlarmCondition>;

/** Which devices a rule watches. */
export const ZAlarmScope = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('all') }).strict(),
  z.object({ kind: z.literal('series'), series: ZDeviceSeries }).strict(),
  z.object({ kind: z.literal('group'), groupId: ZId }).strict(),
  z.object({ kind: z.literal('device'), deviceId: ZId }).strict(),
]);
export type TAlarmScope = z.infer<typeof ZAlarmScope>;

const ZClock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time such as 22:00');

/**
 * No notification goes out between `start` and `end` (local time of `timeZone`; `start` after
 * `end` spans midnight). Alarms are still raised; what was held is sent when the quiet hours end,
 * for alarms still active and unacknowledged.
 */
export const ZQuietHours = z
  .object({ start: ZClock, end: ZClock, timeZone: ZTimeZone })
  .strict()
  .refine((q) => q.start !== q.end, { message: 'must differ from start', path: ['end'] });
export type TQuietHours = z.infer<typeof ZQuietHours>;

/** Who is told, and through which channels of the message center. */
export const ZAlarmNotify = z
  .object({
    channels: z.array(ZMessageChannel).max(4).default([]).describe('Empty: nobody is told'),
    userIds: z.array(ZId).max(ALARM_TARGETS_MAX).default([]),
    roleIds: z.array(ZId).max(ALARM_TARGETS_MAX).default([]),
    departIds: z.array(ZId).max(ALARM_TARGETS_MAX).default([]),
    onClear: z.boolean().default(true).describe('Also tell when the alarm clears'),
  })
  .strict();
export type TAlarmNotify = z.infer<typeof ZAlarmNotify>;

/**
 * The alarm's text, in both languages. Variables: {{device}} (name), {{sn}}, {{rule}},
 * {{severity}}, {{value}}, {{key}}, {{threshold}}, {{low}}, {{high}}, {{duration}}, {{code}},
 * {{minutes}}, {{reason}}. Empty: the platform's text for the condition type.
 */
export const ZAlarmMessageTexts = z
  .object({
    zh: z.string().trim().max(500).default(''),
    en: z.string().trim().max(500).default(''),
  })
  .strict();

const ruleFields = {
  name: z.string().trim().min(1).max(64),
  enabled: z.boolean().default(true),
  severity: ZAlarmSeverity,
  scope: ZAlarmScope,
  condition: ZAlarmCondition,
  message: ZAlarmMessageTexts.default({ zh: '', en: '' }),
  quietHours: ZQuietHours.nullable().default(null),
  reminderMinutes: z
    .number()
    .int()
    .min(ALARM_REMINDER_MIN_MINUTES)
    .max(ALARM_REMINDER_MAX_MINUTES)
    .nullable()
    .default(null)
    .describe('Notify again every so many minutes while active and unacknowledged; null: once'),
  notify: ZAlarmNotify.default({
    channels: [],
    userIds: [],
    roleIds: [],
    departIds: [],
    onClear: true,
  }),
  description: z.string().trim().max(255).optional(),
};

export const ZAlarmRuleInput = z.object(ruleFields).strict();
export type TAlarmRuleInput = z.infer<typeof ZAlarmRuleInput>;
export type TAlarmRuleFormInput = z.input<typeof ZAlarmRuleInput>;
export const ZAlarmRuleEdit = z.object({ ...ruleFields, id: ZId }).strict();
export type TAlarmRuleEdit = z.infer<typeof ZAlarmRuleEdit>;

export const ZAlarmRule = z.object({
  id: ZId,
  name: z.string(),
  enabled: z.boolean(),
  severity: ZAlarmSeverity,
  scope: ZAlarmScope,
  scopeLabel: z.string().nullable().describe('The group’s or device’s name, for lists'),
  condition: ZAlarmCondition,
  message: z.object({ zh: z.string(), en: z.string() }),
  quietHours: ZQuietHours.nullable(),
  reminderMinutes: z.number().int().nullable(),
  notify: ZAlarmNotify,
  description: z.string().nullable(),
  openAlarms: z.number().int().describe('Alarms of this rule not cleared'),
  createBy: z.string(),
  createTime: ZTimestamp,
  updateTime: ZTimestamp.nullable(),
});
export type TAlarmRule = z.infer<typeof ZAlarmRule>;
export const ZAlarmRulePage = pageOf(ZAlarmRule);
export type TAlarmRulePage = z.infer<typeof ZAlarmRulePage>;

export const ZAlarmRuleQuery = ZPageQuery.extend({
  name: z.string().trim().max(64).optional(),
  severity: ZAlarmSeverity.optional(),
  conditionType: ZAlarmConditionType.optional(),
  enabled: z.enum(['true', 'false']).optional(),
}).strict();
export type TAlarmRuleQuery = z.infer<typeof ZAlarmRuleQuery>;

export const ZAlarmRuleEnable = z.object({ id: ZId, enabled: z.boolean() }).strict();

export const ZAlarm = z.object({
  id: ZId,
  ruleId: ZId.nullable().describe('Null once the rule was deleted'),
  ruleName: z.string(),
  conditionType: ZAlarmConditionType,
  severity: ZAlarmSeverity,
  state: ZAlarmState,
  deviceId: ZId,
  sn: z.string(),
  deviceName: z.string(),
  groupId: ZId.nullable(),
  message: z.string().describe('In the language of the request'),
  value: z.number().nullable().describe('The telemetry value that raised it (the latest repeat)'),
  count: z.number().int().describe('Times the condition was met while this alarm was open'),
  firstTime: ZTimestamp,
  lastTime: ZTimestamp,
  ackBy: z.string().nullable(),
  ackTime: ZTimestamp.nullable(),
  ackComment: z.string().nullable(),
  clearBy: z.string().nullable().describe('Null when the condition cleared it'),
  clearTime: ZTimestamp.nullable(),
  clearComment: z.string().nullable(),
  clearReason: ZAlarmClearReason.nullable(),
});
export type TAlarm = z.infer<typeof ZAlarm>;
export const ZAlarmPage = pageOf(ZAlarm);
export type TAlarmPage = z.infer<typeof ZAlarmPage>;

/** A comma-separated list in a query string (`severity=critical,major`). */
const ZCommaList = <T extends string>(values: readonly [T, ...T[]]) =>
  z
    .string()
    .max(200)
    .transform((s) => s.split(',').filter((p) => p !== ''))
    .pipe(z.array(z.enum(values)));

export const ZAlarmQuery = ZPageQuery.extend({
  severity: ZCommaList(ALARM_SEVERITIES).optional().describe('Comma-separated severities'),
  state: ZCommaList(ALARM_STATES).optional().describe('Comma-separated states; default all'),
  ruleId: ZId.optional(),
  deviceId: ZId.optional(),
  groupId: ZId.optional(),
  sn: z.string().trim().max(64).optional().describe('Serial number or device name, contains'),
  timeFrom: z.iso.datetime({ offset: true }).optional().describe('Last time at or after'),
  timeTo: z.iso.datetime({ offset: true }).optional().describe('Last time before'),
}).strict();
export type TAlarmQuery = z.infer<typeof ZAlarmQuery>;
export type TAlarmQueryInput = z.input<typeof ZAlarmQuery>;

export const ZAlarmExportQuery = ZAlarmQuery.omit({ pageNo: true, pageSize: true })
  .extend({ format: z.enum(['xlsx', 'csv']).default('xlsx'), timeZone: ZTimeZone.optional() })
  .strict();

const ZComment = z.string().trim().max(500);
export const ZAlarmAcknowledge = z
  .object({ ids: z.array(ZId).min(1).max(ALARM_BULK_MAX), comment: ZComment.default('') })
  .strict();
export type TAlarmAcknowledge = z.infer<typeof ZAlarmAcknowledge>;
export const ZAlarmClear = z
  .object({ ids: z.array(ZId).min(1).max(ALARM_BULK_MAX), comment: ZComment.min(1) })
  .strict();
export type TAlarmClear = z.infer<typeof ZAlarmClear>;

/** What a bulk action did: alarms already past that state, or not found, are counted apart. */
export const ZAlarmBulkResult = z.object({
  changed: z.number().int(),
  skipped: z.number().int().describe('Already acknowledged or cleared'),
  notFound: z.number().int(),
});
export type TAlarmBulkResult = z.infer<typeof ZAlarmBulkResult>;

const ZSeverityCounts = z.object({
  critical: z.number().int(),
  major: z.number().int(),
  minor: z.number().int(),
  warning: z.number().int(),
});

/** Open alarms by severity (active and acknowledged), and the unacknowledged ones. */
export const ZAlarmCounts = z.object({
  open: ZSeverityCounts,
  unacknowledged: ZSeverityCounts,
});
export type TAlarmCounts = z.infer<typeof ZAlarmCounts>;
