import { z } from 'zod';
import { ZId, ZPageQuery, ZTimeZone, ZTimestamp, pageOf } from './common.js';
import { ZDeviceSeries } from './device.js';
import { configPatchProblem } from './device-config.js';

/*
 * Scheduled jobs (`/sys/quartzJob/*`). Two kinds share the screen:
 * - operator jobs, made by a company's users: one of a fixed list of types (never a class name or
 *   code), a cron schedule in an IANA time zone, and parameters checked per type;
 * - platform jobs, the server's own periodic work (`platform/scheduler`), listed for platform
 *   administrators only: they are platform-wide.
 */

/**
 * `device.reboot`: reboot the online devices of a group and/or series. `device.config`: apply a
 * configuration change (JSON Merge Patch) to a group's devices of one series, as a configuration
 * campaign. `campaign.start`: let a prepared (paused) upgrade campaign go on, or approve its next
 * wave. `fleet.report`: mail a fleet summary to chosen users through the message center.
 */
export const QUARTZ_JOB_TYPES = [
  'device.reboot',
  'device.config',
  'campaign.start',
  'fleet.report',
] as const;
export const ZQuartzJobType = z.enum(QUARTZ_JOB_TYPES);
export type TQuartzJobType = z.infer<typeof ZQuartzJobType>;

export const QUARTZ_JOB_STATUSES = ['normal', 'paused'] as const;
export const ZQuartzJobStatus = z.enum(QUARTZ_JOB_STATUSES);
export type TQuartzJobStatus = z.infer<typeof ZQuartzJobStatus>;

/** `skipped`: the occurrence was missed (server down) by more than the misfire grace. */
export const QUARTZ_RUN_OUTCOMES = ['ok', 'partial', 'failed', 'skipped'] as const;
export const ZQuartzRunOutcome = z.enum(QUARTZ_RUN_OUTCOMES);
export type TQuartzRunOutcome = z.infer<typeof ZQuartzRunOutcome>;

/** Jobs a company may keep. */
export const QUARTZ_JOBS_PER_COMPANY_MAX = 100;
/** Devices one reboot run may address (the size of a device list page and of batch deletes). */
export const QUARTZ_JOB_DEVICES_MAX = 1000;
/** Receivers of one fleet report. */
export const QUARTZ_REPORT_RECEIVERS_MAX = 50;
/** Runs kept in each operator job's history. */
export const QUARTZ_JOB_HISTORY_MAX = 100;
/** An occurrence missed by more than this (server down at that time) is skipped, not run late. */
export const QUARTZ_MISFIRE_GRACE_MS = 5 * 60_000;

/**
 * Five fields (minute hour day month weekday) or six with a leading seconds field (Quartz style;
 * `?` reads as `*`). The seconds field must be one number, so that a job never fires more often
 * than once a minute; the server parses the rest and refuses what it cannot read.
 */
export const ZCron = z
  .string()
  .trim()
  .min(9)
  .max(120)
  .refine((c) => [5, 6].includes(c.split(/\s+/).length), 'must have 5 or 6 fields')
  .refine((c) => {
    const fields = c.split(/\s+/);
    return fields.length === 5 || /^([0-5]?\d)$/.test(fields[0]!);
  }, 'the seconds field must be one number (at most one run a minute)');

export const ZRebootParams = z
  .object({
    groupId: ZId.optional().describe('Devices of this group'),
    series: ZDeviceSeries.optional().describe('Devices of this series (with a group: of both)'),
    timeoutSec: z.number().int().min(5).max(300).default(60),
  })
  .strict()
  .refine((p) => p.groupId !== undefined || p.series !== undefined, {
    message: 'choose a group or a series',
    path: ['groupId'],
  });

export const ZConfigJobParams = z
  .object({
    groupId: ZId.describe('Devices of this group'),
    series: ZDeviceSeries.describe('The series whose configuration schema the change follows'),
    configPatch: z
      .record(z.string(), z.unknown())
      .describe('JSON Merge Patch applied to each device’s desired configuration'),
  })
  .strict()
  .superRefine((p, ctx) => {
    if (Object.keys(p.configPatch).length === 0) {
      ctx.addIssue({ code: 'custom', path: ['configPatch'], message: 'must change something' });
      return;
    }
    const problem = configPatchProblem(p.series, p.configPatch);
    if (problem) {
      // `wifi.ssid: rule` names the field inside the patch.
      const at = problem.indexOf(': ');
      const inner = at > 0 ? problem.slice(0, at).split('.') : [];
      const rule = at > 0 ? problem.slice(at + 2) : problem;
      ctx.addIssue({ code: 'custom', path: ['configPatch', ...inner], message: rule });
    }
  });

export const ZCampaignJobParams = z
  .object({ campaignId: ZId.describe('A paused campaign, or one waiting for approval') })
  .strict();

export const ZFleetReportParams = z
  .object({
    userIds: z.array(ZId).min(1).max(QUARTZ_REPORT_RECEIVERS_MAX).describe('Receivers'),
    offlineTop: z.number().int().min(1).max(50).default(10).describe('Devices offline longest'),
  })
  .strict();

const common = {
  name: z.string().trim().min(1).max(64),
  cron: ZCron,
  timeZone: ZTimeZone,
  description: z.string().trim().max(255).optional(),
};

/** One schema per job type, each with its parameters; `extra` adds the edit's id. */
function byType<E extends z.ZodRawShape>(extra: E) {
  return [
    z
      .object({ ...common, ...extra, jobType: z.literal('device.reboot'), params: ZRebootParams })
      .strict(),
    z
      .object({
        ...common,
        ...extra,
        jobType: z.literal('device.config'),
        params: ZConfigJobParams,
      })
      .strict(),
    z
      .object({
        ...common,
        ...extra,
        jobType: z.literal('campaign.start'),
        params: ZCampaignJobParams,
      })
      .strict(),
    z
      .object({
        ...common,
        ...extra,
        jobType: z.literal('fleet.report'),
        params: ZFleetReportParams,
      })
      .strict(),
  ] as const;
}

export const ZQuartzJobInput = z.discriminatedUnion('jobType', byType({}));
export type TQuartzJobInput = z.infer<typeof ZQuartzJobInput>;
export type TQuartzJobFormInput = z.input<typeof ZQuartzJobInput>;
export const ZQuartzJobEdit = z.discriminatedUnion('jobType', byType({ id: ZId }));
export type TQuartzJobEdit = z.infer<typeof ZQuartzJobEdit>;

export const ZQuartzLastRun = z.object({
  start: ZTimestamp,
  end: ZTimestamp,
  outcome: ZQuartzRunOutcome,
  message: z.string().nullable(),
});

export const ZQuartzJob = z.object({
  id: ZId,
  name: z.string(),
  jobType: ZQuartzJobType,
  cron: z.string(),
  timeZone: z.string(),
  params: z.record(z.string(), z.unknown()),
  description: z.string().nullable(),
  status: ZQuartzJobStatus,
  nextRunTime: ZTimestamp.nullable().describe('Null while paused'),
  running: z.boolean(),
  lastRun: ZQuartzLastRun.nullable(),
  createBy: z.string(),
  createTime: ZTimestamp,
  updateTime: ZTimestamp.nullable(),
});
export type TQuartzJob = z.infer<typeof ZQuartzJob>;
export const ZQuartzJobPage = pageOf(ZQuartzJob);
export type TQuartzJobPage = z.infer<typeof ZQuartzJobPage>;

export const ZQuartzJobListQuery = ZPageQuery.extend({
  name: z.string().trim().max(64).optional(),
  jobType: ZQuartzJobType.optional(),
  status: ZQuartzJobStatus.optional(),
}).strict();
export type TQuartzJobListQuery = z.infer<typeof ZQuartzJobListQuery>;

/** Counts of what a run did to devices; absent for runs that address no device. */
export const ZQuartzRunCounts = z.object({
  targeted: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int().describe('Offline, or left to the device’s next connection'),
});
export type TQuartzRunCounts = z.infer<typeof ZQuartzRunCounts>;

export const ZQuartzJobRun = z.object({
  id: ZId,
  trigger: z.enum(['schedule', 'manual']),
  scheduledTime: ZTimestamp.nullable().describe('The occurrence the run was for'),
  start: ZTimestamp,
  end: ZTimestamp,
  durationMs: z.number().int(),
  outcome: ZQuartzRunOutcome,
  message: z.string().nullable(),
  counts: ZQuartzRunCounts.nullable(),
  runBy: z.string().nullable().describe('Who pressed “run now”; null for scheduled runs'),
});
export type TQuartzJobRun = z.infer<typeof ZQuartzJobRun>;

export const ZQuartzCronPreviewQuery = z
  .object({ cron: ZCron, timeZone: ZTimeZone, _t: z.string().optional() })
  .strict();
export const ZQuartzCronPreview = z.object({
  runs: z.array(ZTimestamp).describe('The next five runs'),
  local: z.array(z.string()).describe('The same, as local times of the zone (YYYY-MM-DD HH:mm)'),
});
export type TQuartzCronPreview = z.infer<typeof ZQuartzCronPreview>;

// ---------------------------------------------------------------- platform jobs

export const ZPlatformJobRun = z.object({
  start: ZTimestamp,
  end: ZTimestamp,
  durationMs: z.number().int(),
  outcome: z.enum(['ok', 'failed']),
  error: z.string().nullable(),
  node: z.string(),
});
export type TPlatformJobRun = z.infer<typeof ZPlatformJobRun>;

export const ZPlatformJob = z.object({
  name: z.string(),
  scope: z.enum(['cluster', 'node']).describe('cluster: one leader at a time; node: every node'),
  everyMs: z.number().int(),
  paused: z.boolean(),
  pausable: z
    .boolean()
    .describe('Only cluster jobs: node jobs hold this node’s buffers and sockets'),
  leader: z.string().nullable(),
  runningSince: ZTimestamp.nullable(),
  lastRun: ZPlatformJobRun.nullable(),
  runs: z.number().int(),
  failures: z.number().int(),
});
export type TPlatformJob = z.infer<typeof ZPlatformJob>;

export const ZPlatformJobName = z
  .string()
  .regex(/^[a-z0-9-]+\.[a-z0-9.-]+$/, 'must be a job name such as device-command.timeout-sweep')
  .max(100);
export const ZPlatformJobQuery = z
  .object({ name: ZPlatformJobName, _t: z.string().optional() })
  .strict();

export const ZPlatformRunResult = z.object({
  outcome: z.enum(['ok', 'failed', 'not-leader']),
});
