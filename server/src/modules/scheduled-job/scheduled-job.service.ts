import {
  QUARTZ_JOBS_PER_COMPANY_MAX,
  QUARTZ_JOB_DEVICES_MAX,
  QUARTZ_JOB_HISTORY_MAX,
  QUARTZ_MISFIRE_GRACE_MS,
  ZCampaignCreate,
  ZCampaignJobParams,
  ZCampaignQuery,
  ZConfigJobParams,
  ZDeviceQuery,
  ZFleetReportParams,
  ZRebootParams,
  type TDevice,
  type TPlatformJob,
  type TQuartzCronPreview,
  type TQuartzJob,
  type TQuartzJobEdit,
  type TQuartzJobInput,
  type TQuartzJobListQuery,
  type TQuartzJobRun,
  type TQuartzJobType,
  type TQuartzRunCounts,
  type TQuartzRunOutcome,
} from '@blrms/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { requireAccess, requireAccessToAll } from '../../platform/auth/access.js';
import type { PermissionService } from '../../platform/auth/permissions.js';
import type { Scope } from '../../platform/auth/scope.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/db/ids.js';
import { AppError, forbidden, notFound } from '../../platform/http/app-error.js';
import type { Lang } from '../../platform/http/i18n.js';
import { message, type MessageKey } from '../../platform/http/messages.js';
import { iso, isoOrNull, pageResult, type Page } from '../../platform/http/paging.js';
import type { JobSpec, Scheduler } from '../../platform/scheduler/scheduler.js';
import type { CampaignService } from '../campaign/campaign.service.js';
import type { DeviceCommandService } from '../device-command/command.service.js';
import type { DeviceLogEntry, DeviceLogService } from '../device/device-log.service.js';
import type { DeviceService } from '../device/device.service.js';
import type { GroupService } from '../device/group.service.js';
import { localTime, misfired, nextRun, nextRuns } from './scheduled-job.rules.js';
import type {
  QuartzJobRow,
  QuartzRunRow,
  ScheduledJobRepository,
} from './scheduled-job.repository.js';

/**
 * The message center's one method this module uses (server/src/modules/message): declared here so
 * that this module depends on what it calls, not on the other module's files.
 */
export interface MessageCenter {
  sendTemplate(input: {
    companyId: string | null;
    templateCode: string;
    receivers: { userIds: string[] };
    vars: Record<string, string | number>;
    createBy?: string;
  }): Promise<void>;
}

/** The permission a user needs to schedule a job of the type, and the job to keep running. */
const TYPE_PERMISSIONS: Record<TQuartzJobType, string> = {
  'device.reboot': 'device:command',
  'device.config': 'device:config',
  'campaign.start': 'campaign:control',
  'fleet.report': 'device:list',
};

/** How often the leader looks for due jobs: a job runs at most this late. */
const DUE_INTERVAL_MS = 5000;
const DUE_BATCH = 50;
/**
 * A run holds its job this long: a node that dies mid-run frees the job then, and the occurrence
 * it was running is not run again (device operations run at most once per occurrence).
 */
const RUN_HOLD_MS = 10 * 60_000;
const PREVIEW_RUNS = 5;
const REPORT_FAILED_DAYS = 7;
const DEVICE_LOG_SUBJECT = 'scheduled-job.run';

/** A run's message as stored: a catalogue key with its parameters, shown in the reader's language. */
interface StoredMessage {
  key: MessageKey;
  params?: Record<string, string | number>;
}

interface RunResult {
  outcome: TQuartzRunOutcome;
  message: StoredMessage;
  counts: TQuartzRunCounts | null;
}

class RunRefused extends Error {
  constructor(readonly result: StoredMessage) {
    super(result.key);
  }
}

function storedOf(error: unknown): StoredMessage {
  if (error instanceof RunRefused) return error.result;
  if (error instanceof AppError) return { key: error.code, params: error.params };
  const text = error instanceof Error ? error.message : String(error);
  return { key: 'quartzRunError', params: { text: text.slice(0, 500) } };
}

function render(stored: string | null, lang: Lang): string | null {
  if (stored === null) return null;
  try {
    const { key, params } = JSON.parse(stored) as StoredMessage;
    return message(lang, key, params);
  } catch {
    return stored;
  }
}

function toJob(row: QuartzJobRow, now: number, lang: Lang): TQuartzJob {
  return {
    id: row.id,
    name: row.name,
    jobType: row.job_type as TQuartzJobType,
    cron: row.cron,
    timeZone: row.time_zone,
    params: JSON.parse(row.params_json) as Record<string, unknown>,
    description: row.description,
    status: row.status as TQuartzJob['status'],
    nextRunTime: isoOrNull(row.next_run_time),
    running: row.run_until >= now,
    lastRun:
      row.last_start === null || row.last_end === null
        ? null
        : {
            start: iso(row.last_start),
            end: iso(row.last_end),
            outcome: row.last_outcome as TQuartzRunOutcome,
            message: render(row.last_message, lang),
          },
    createBy: row.create_by,
    createTime: iso(row.create_time),
    updateTime: isoOrNull(row.update_time),
  };
}

/**
 * Scheduled jobs. Operator jobs belong to a company: one of a fixed list of types, run on their
 * cron schedule in their time zone by one node of the cluster (the `scheduled-job.due` cluster job
 * is the leader; each occurrence is taken with one conditional update, so two nodes, or a tick and
 * "run now", never run it twice). A job acts as the user who last saved it: with their permission
 * for its type, their data rules and their name in the device log, checked again at every run.
 * Platform jobs are the scheduler's own, for platform administrators only.
 */
export class ScheduledJobService {
  constructor(
    private readonly repository: ScheduledJobRepository,
    private readonly scheduler: Scheduler,
    private readonly services: {
      devices: DeviceService;
      groups: GroupService;
      commands: DeviceCommandService;
      campaigns: CampaignService;
      deviceLogs: DeviceLogService;
      messages: MessageCenter | undefined;
    },
    private readonly permissions: PermissionService,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  scheduledJobs(): JobSpec[] {
    return [
      {
        name: 'scheduled-job.due',
        everyMs: DUE_INTERVAL_MS,
        scope: 'cluster',
        run: async (signal) => {
          await this.runDue(signal);
        },
        onFailure: (err) => this.log.warn({ err }, 'scheduled jobs not run'),
      },
    ];
  }

  // ---------------------------------------------------------------- operator jobs

  async list(scope: Scope, query: TQuartzJobListQuery, lang: Lang): Promise<Page<TQuartzJob>> {
    const { records, total } = await this.repository.page(scope.companyId, query);
    const now = this.clock();
    return pageResult(
      records.map((r) => toJob(r, now, lang)),
      total,
      query,
    );
  }

  async get(scope: Scope, id: string, lang: Lang): Promise<TQuartzJob> {
    return toJob(await this.require(scope, id), this.clock(), lang);
  }

  async add(scope: Scope, input: TQuartzJobInput, lang: Lang): Promise<TQuartzJob> {
    await this.checkInput(scope, input);
    if ((await this.repository.count(scope.companyId)) >= QUARTZ_JOBS_PER_COMPANY_MAX) {
      throw new AppError('quartzJobLimit', 409, { max: QUARTZ_JOBS_PER_COMPANY_MAX });
    }
    const now = this.clock();
    const row: QuartzJobRow = {
      id: newId(),
      company_id: scope.companyId,
      name: input.name,
      job_type: input.jobType,
      cron: input.cron,
      time_zone: input.timeZone,
      params_json: JSON.stringify(input.params),
      description: input.description ?? null,
      status: 'normal',
      next_run_time: nextRuns(input.cron, input.timeZone, now, 1)[0]!,
      run_until: 0,
      last_start: null,
      last_end: null,
      last_outcome: null,
      last_message: null,
      create_by: scope.username,
      run_as_id: scope.userId,
      run_as: scope.username,
      create_time: now,
      update_by: null,
      update_time: null,
    };
    await this.repository.insert(row);
    return toJob(row, now, lang);
  }

  /** The type stays; the job then acts as the editor (who must hold the type's permission). */
  async edit(scope: Scope, input: TQuartzJobEdit, lang: Lang): Promise<TQuartzJob> {
    const row = await this.require(scope, input.id);
    if (row.job_type !== input.jobType) throw new AppError('quartzJobTypeFixed', 400);
    await this.checkInput(scope, input);
    const now = this.clock();
    await this.repository.update(scope.companyId, row.id, {
      name: input.name,
      cron: input.cron,
      time_zone: input.timeZone,
      params_json: JSON.stringify(input.params),
      description: input.description ?? null,
      next_run_time:
        row.status === 'normal' ? nextRuns(input.cron, input.timeZone, now, 1)[0]! : null,
      run_as_id: scope.userId,
      run_as: scope.username,
      update_by: scope.username,
      update_time: now,
    });
    return this.get(scope, row.id, lang);
  }

  async delete(scope: Scope, ids: string[]): Promise<void> {
    await requireAccessToAll(
      ids,
      (unique) => this.repository.existing(scope.companyId, unique),
      'quartzJobNotFound',
    );
    await this.repository.delete(scope.companyId, [...new Set(ids)]);
  }

  async pause(scope: Scope, id: string, lang: Lang): Promise<TQuartzJob> {
    const row = await this.require(scope, id);
    await this.repository.update(scope.companyId, row.id, {
      status: 'paused',
      next_run_time: null,
    });
    return this.get(scope, id, lang);
  }

  /** Resumes from now: occurrences that fell while paused are not run. */
  async resume(scope: Scope, id: string, lang: Lang): Promise<TQuartzJob> {
    const row = await this.require(scope, id);
    if (row.status !== 'normal') {
      await this.repository.update(scope.companyId, row.id, {
        status: 'normal',
        next_run_time: nextRun(row.cron, row.time_zone, this.clock()),
      });
    }
    return this.get(scope, id, lang);
  }

  /** Runs the job now, as its user, and answers with the run; 409 while a run holds it. */
  async execute(scope: Scope, id: string, lang: Lang): Promise<TQuartzJobRun> {
    const row = await this.require(scope, id);
    const now = this.clock();
    if (!(await this.repository.claimNow(scope.companyId, row.id, now, now + RUN_HOLD_MS))) {
      throw new AppError('quartzJobRunning', 409);
    }
    const run = await this.perform(row, { trigger: 'manual', scheduled: null, by: scope.username });
    return this.toRun(run, lang);
  }

  async logs(scope: Scope, id: string, lang: Lang): Promise<TQuartzJobRun[]> {
    const row = await this.require(scope, id);
    const runs = await this.repository.history(scope.companyId, row.id, QUARTZ_JOB_HISTORY_MAX);
    return runs.map((r) => this.toRun(r, lang));
  }

  /** The next five runs of a schedule in a zone; 400 naming `cron` when it cannot be read. */
  preview(cron: string, timeZone: string): TQuartzCronPreview {
    const runs = nextRuns(cron, timeZone, this.clock(), PREVIEW_RUNS);
    return { runs: runs.map(iso), local: runs.map((at) => localTime(at, timeZone)) };
  }

  // ---------------------------------------------------------------- platform jobs

  async platformList(scope: Scope): Promise<TPlatformJob[]> {
    await this.requirePlatformAdmin(scope);
    return (await this.scheduler.jobs()).map((j) => ({
      name: j.name,
      scope: j.scope,
      everyMs: j.everyMs,
      paused: j.paused,
      pausable: j.scope === 'cluster',
      leader: j.leader,
      runningSince: isoOrNull(j.runningSince),
      lastRun: j.lastRun && {
        start: iso(j.lastRun.start),
        end: iso(j.lastRun.end),
        durationMs: j.lastRun.end - j.lastRun.start,
        outcome: j.lastRun.outcome,
        error: j.lastRun.error,
        node: j.lastRun.node,
      },
      runs: j.runs,
      failures: j.failures,
    }));
  }

  async platformPause(scope: Scope, name: string, paused: boolean): Promise<void> {
    await this.requirePlatformJob(scope, name);
    const job = (await this.scheduler.jobs()).find((j) => j.name === name);
    if (job?.scope !== 'cluster') throw new AppError('platformJobNotPausable', 409);
    await this.scheduler.setPaused(name, paused);
  }

  /** Runs a platform job on this node (a cluster job only if this node gets its lease). */
  async platformExecute(scope: Scope, name: string) {
    await this.requirePlatformJob(scope, name);
    return { outcome: await this.scheduler.runNow(name) };
  }

  async platformLogs(scope: Scope, name: string) {
    await this.requirePlatformJob(scope, name);
    return (await this.scheduler.history(name)).map((r) => ({
      start: iso(r.start),
      end: iso(r.end),
      durationMs: r.end - r.start,
      outcome: r.outcome,
      error: r.error,
      node: r.node,
    }));
  }

  // ---------------------------------------------------------------- the due sweep

  /**
   * Runs every job whose occurrence has come (the leader, every 5 s). Each occurrence is taken by
   * moving the job's next run on, in one conditional update; one missed by more than the misfire
   * grace is recorded as skipped instead of run (see `misfired`). Returns how many were taken.
   */
  async runDue(signal?: AbortSignal): Promise<number> {
    let taken = 0;
    for (;;) {
      const now = this.clock();
      const rows = await this.repository.due(now, DUE_BATCH);
      for (const row of rows) {
        if (signal?.aborted) return taken;
        const due = row.next_run_time!;
        let next: number | null;
        try {
          next = nextRun(row.cron, row.time_zone, now);
        } catch {
          next = null;
        }
        if (
          !(await this.repository.claimDue(
            row.company_id,
            row.id,
            due,
            next,
            now,
            now + RUN_HOLD_MS,
          ))
        )
          continue;
        taken += 1;
        if (misfired(due, now)) {
          await this.record(row, { trigger: 'schedule', scheduled: due, by: null }, now, {
            outcome: 'skipped',
            message: {
              key: 'quartzRunMisfired',
              params: {
                due: `${localTime(due, row.time_zone)} (${row.time_zone})`,
                grace: QUARTZ_MISFIRE_GRACE_MS / 60_000,
              },
            },
            counts: null,
          });
        } else {
          await this.perform(row, { trigger: 'schedule', scheduled: due, by: null });
        }
      }
      if (rows.length < DUE_BATCH) return taken;
    }
  }

  // ---------------------------------------------------------------- internals

  private async require(scope: Scope, id: string): Promise<QuartzJobRow> {
    return requireAccess(this.repository.find(scope.companyId, id), 'quartzJobNotFound');
  }

  private async requirePlatformAdmin(scope: Scope): Promise<void> {
    if (!(await this.permissions.isPlatformAdmin(scope.userId))) {
      throw forbidden('platformJobAdminOnly');
    }
  }

  private async requirePlatformJob(scope: Scope, name: string): Promise<void> {
    await this.requirePlatformAdmin(scope);
    if (!this.scheduler.has(name)) throw notFound('platformJobNotFound');
  }

  /**
   * What a user may schedule: the type's permission, a readable schedule, and parameters naming
   * their own company's group, campaign or users (another company's answer as missing ones do).
   */
  private async checkInput(scope: Scope, input: TQuartzJobInput | TQuartzJobEdit): Promise<void> {
    const permission = TYPE_PERMISSIONS[input.jobType];
    if (!(await this.permissions.hasIn(scope, permission))) {
      throw new AppError('quartzJobTypeDenied', 403, { permission });
    }
    nextRuns(input.cron, input.timeZone, this.clock(), 1);
    const { groups, campaigns } = this.services;
    switch (input.jobType) {
      case 'device.reboot':
      case 'device.config':
        if (input.params.groupId) {
          await groups
            .requireInCompany(scope, input.params.groupId)
            .catch(rethrowAs('quartzJobGroupNotFound'));
        }
        return;
      case 'campaign.start':
        await campaigns
          .detail(scope, input.params.campaignId)
          .catch(rethrowAs('quartzJobCampaignNotFound'));
        return;
      case 'fleet.report': {
        const ids = [...new Set(input.params.userIds)];
        const members = await this.repository.members(scope.companyId, ids);
        if (members.length < ids.length) throw new AppError('quartzJobReceiverNotFound', 400);
        return;
      }
    }
  }

  /** One run of the job (already held), recorded in its history; never rejects. */
  private async perform(
    row: QuartzJobRow,
    trigger: { trigger: 'schedule' | 'manual'; scheduled: number | null; by: string | null },
  ) {
    const start = this.clock();
    let result: RunResult;
    try {
      result = await this.operate(row, trigger.trigger);
    } catch (error) {
      if (!(error instanceof RunRefused) && !(error instanceof AppError)) {
        this.log.warn({ err: error, job: row.id }, 'scheduled job run failed');
      }
      result = { outcome: 'failed', message: storedOf(error), counts: null };
    }
    return this.record(row, trigger, start, result);
  }

  private async record(
    row: QuartzJobRow,
    trigger: { trigger: 'schedule' | 'manual'; scheduled: number | null; by: string | null },
    start: number,
    result: RunResult,
  ) {
    const end = this.clock();
    const message = JSON.stringify(result.message);
    const run: QuartzRunRow = {
      id: newId(),
      job_id: row.id,
      company_id: row.company_id,
      trigger_kind: trigger.trigger,
      scheduled_time: trigger.scheduled,
      start_time: start,
      end_time: end,
      outcome: result.outcome,
      message,
      counts_json: result.counts ? JSON.stringify(result.counts) : null,
      run_by: trigger.by,
    };
    try {
      await this.repository.finishRun(
        run,
        { start, end, outcome: result.outcome, message },
        QUARTZ_JOB_HISTORY_MAX,
      );
    } catch (err) {
      this.log.warn({ err, job: row.id }, 'scheduled job run not recorded');
    }
    return run;
  }

  private toRun(r: QuartzRunRow, lang: Lang): TQuartzJobRun {
    return {
      id: r.id,
      trigger: r.trigger_kind as TQuartzJobRun['trigger'],
      scheduledTime: isoOrNull(r.scheduled_time),
      start: iso(r.start_time),
      end: iso(r.end_time),
      durationMs: r.end_time - r.start_time,
      outcome: r.outcome as TQuartzRunOutcome,
      message: render(r.message, lang),
      counts: r.counts_json ? (JSON.parse(r.counts_json) as TQuartzRunCounts) : null,
      runBy: r.run_by,
    };
  }

  /** The job's operation, as the user it acts as, whose permission is checked again now. */
  private async operate(row: QuartzJobRow, trigger: string): Promise<RunResult> {
    const type = row.job_type as TQuartzJobType;
    const scope: Scope = {
      userId: row.run_as_id,
      username: row.run_as,
      companyId: row.company_id,
      orgCode: null,
      sessionId: `quartz-job:${row.id}`,
    };
    const permission = TYPE_PERMISSIONS[type];
    if (!(await this.permissions.hasIn(scope, permission))) {
      throw new RunRefused({
        key: 'quartzRunPermissionLost',
        params: { user: row.run_as, permission },
      });
    }
    const params: unknown = JSON.parse(row.params_json);
    const context = { row, scope, trigger };
    switch (type) {
      case 'device.reboot':
        return this.reboot(context, ZRebootParams.parse(params));
      case 'device.config':
        return this.configure(context, ZConfigJobParams.parse(params));
      case 'campaign.start':
        return this.startCampaign(scope, ZCampaignJobParams.parse(params));
      case 'fleet.report':
        return this.report(row, scope, ZFleetReportParams.parse(params));
    }
  }

  /** The devices of a group and/or series the user may see, refusing more than one run may do. */
  private async targets(scope: Scope, filter: { groupId?: string; series?: string }) {
    const page = await this.services.devices.list(
      scope,
      ZDeviceQuery.parse({ ...filter, pageSize: QUARTZ_JOB_DEVICES_MAX, column: 'sn' }),
    );
    if (page.total > QUARTZ_JOB_DEVICES_MAX) {
      throw new RunRefused({
        key: 'quartzRunTooManyDevices',
        params: { count: page.total, max: QUARTZ_JOB_DEVICES_MAX },
      });
    }
    if (page.records.length === 0) throw new RunRefused({ key: 'quartzRunNoDevices' });
    return page.records;
  }

  /** Each device's entry in the device log, naming the job and the user it acts as. */
  private async logDevices(
    context: { row: QuartzJobRow; scope: Scope; trigger: string },
    entries: { device: TDevice; state: 'succeeded' | 'failed'; detail: Record<string, unknown> }[],
  ): Promise<void> {
    const { row, scope, trigger } = context;
    const logs: DeviceLogEntry[] = entries.map(({ device, state, detail }) => ({
      companyId: scope.companyId,
      deviceId: device.id,
      sn: device.sn,
      requestUrl: `/sys/quartzJob/${row.id}`,
      sourceUser: scope.username,
      targetUser: device.ownerName,
      subject: DEVICE_LOG_SUBJECT,
      content: { job: row.name, jobId: row.id, jobType: row.job_type, trigger, ...detail },
      sourceIp: null,
      state,
    }));
    await this.services.deviceLogs.writeMany(logs);
  }

  private async reboot(
    context: { row: QuartzJobRow; scope: Scope; trigger: string },
    params: { groupId?: string | undefined; series?: string | undefined; timeoutSec: number },
  ): Promise<RunResult> {
    const devices = await this.targets(context.scope, {
      ...(params.groupId ? { groupId: params.groupId } : {}),
      ...(params.series ? { series: params.series } : {}),
    });
    const counts: TQuartzRunCounts = { targeted: devices.length, sent: 0, failed: 0, skipped: 0 };
    const entries: Parameters<ScheduledJobService['logDevices']>[1] = [];
    for (const device of devices) {
      if (device.status !== 'online') {
        counts.skipped += 1;
        entries.push({ device, state: 'failed', detail: { result: 'offline' } });
        continue;
      }
      try {
        const command = await this.services.commands.send(
          context.scope,
          { deviceId: device.id, method: 'reboot', timeoutSec: params.timeoutSec },
          { requestUrl: `/sys/quartzJob/${context.row.id}`, ip: '' },
        );
        counts.sent += 1;
        entries.push({
          device,
          state: 'succeeded',
          detail: { result: 'sent', command: command.id },
        });
      } catch (error) {
        // Went offline since the list was read, or refused: the others still go.
        const offline = error instanceof AppError && error.code === 'deviceOffline';
        if (offline) counts.skipped += 1;
        else counts.failed += 1;
        const detail = offline
          ? { result: 'offline' }
          : { result: 'failed', error: storedOf(error).key };
        entries.push({ device, state: 'failed', detail });
      }
    }
    await this.logDevices(context, entries);
    const outcome: TQuartzRunOutcome =
      counts.sent === counts.targeted ? 'ok' : counts.sent > 0 ? 'partial' : 'failed';
    return { outcome, message: { key: 'quartzRunDevicesDone', params: counts }, counts };
  }

  /**
   * A configuration change to a group goes out as a configuration campaign (the bulk configuration
   * path): online devices get it now, offline ones when they connect, each with its own outcome.
   */
  private async configure(
    context: { row: QuartzJobRow; scope: Scope; trigger: string },
    params: { groupId: string; series: string; configPatch: Record<string, unknown> },
  ): Promise<RunResult> {
    const { row, scope } = context;
    const devices = await this.targets(scope, { groupId: params.groupId, series: params.series });
    const name = `${row.name} ${localTime(this.clock(), row.time_zone)}`.slice(0, 64);
    const campaign = await this.services.campaigns.add(
      scope,
      ZCampaignCreate.parse({
        name,
        kind: 'config',
        series: params.series,
        configPatch: params.configPatch,
        target: { groupId: params.groupId, series: params.series },
      }),
    );
    await this.logDevices(
      context,
      devices.map((device) => ({
        device,
        state: 'succeeded',
        detail: { result: 'campaign', campaign: campaign.id, online: device.status === 'online' },
      })),
    );
    const online = devices.filter((d) => d.status === 'online').length;
    return {
      outcome: 'ok',
      message: {
        key: 'quartzRunConfigStarted',
        params: { campaign: campaign.name, targeted: campaign.total },
      },
      counts: {
        targeted: campaign.total,
        sent: online,
        failed: 0,
        skipped: devices.length - online,
      },
    };
  }

  /** A prepared campaign: paused, it is resumed; waiting for approval, its next wave approved. */
  private async startCampaign(scope: Scope, params: { campaignId: string }): Promise<RunResult> {
    const { campaigns } = this.services;
    const campaign = await campaigns
      .detail(scope, params.campaignId)
      .catch(rethrowAs('quartzJobCampaignNotFound'));
    if (campaign.state === 'paused') {
      await campaigns.resume(scope, campaign.id);
      const done: StoredMessage = {
        key: 'quartzRunCampaignResumed',
        params: { campaign: campaign.name },
      };
      return { outcome: 'ok', message: done, counts: null };
    }
    if (campaign.state === 'running' && campaign.gate === 'approval') {
      await campaigns.approve(scope, campaign.id);
      const done: StoredMessage = {
        key: 'quartzRunCampaignApproved',
        params: { campaign: campaign.name },
      };
      return { outcome: 'ok', message: done, counts: null };
    }
    throw new RunRefused({
      key: 'quartzRunCampaignNotReady',
      params: { campaign: campaign.name, state: campaign.state },
    });
  }

  /**
   * The fleet report: counts, the devices offline longest and the upgrade campaigns of the last
   * week with failed devices, as the user the job acts as sees them, sent through the message
   * center's `fleet_report` template (which holds the texts in both languages) to the receivers
   * still in the company.
   */
  private async report(
    row: QuartzJobRow,
    scope: Scope,
    params: { userIds: string[]; offlineTop: number },
  ): Promise<RunResult> {
    const { messages, devices, campaigns } = this.services;
    if (!messages) throw new RunRefused({ key: 'quartzRunNoMessageCenter' });
    const receivers = await this.repository.members(scope.companyId, [...new Set(params.userIds)]);
    if (receivers.length === 0) throw new RunRefused({ key: 'quartzJobReceiverNotFound' });
    const now = this.clock();
    const summary = await devices.summary(scope, 'en-US');
    const offline = await devices.list(
      scope,
      ZDeviceQuery.parse({
        status: 'offline',
        column: 'lastSeenAt',
        order: 'asc',
        pageSize: params.offlineTop,
      }),
    );
    const recent = await campaigns.list(
      scope,
      ZCampaignQuery.parse({ kind: 'ota', pageSize: 100, order: 'desc' }),
    );
    const since = now - REPORT_FAILED_DAYS * 86_400_000;
    const failedCampaigns = recent.records.filter(
      (c) => Date.parse(c.createTime) >= since && c.counts.failed > 0,
    );
    const zone = row.time_zone;
    await messages.sendTemplate({
      companyId: scope.companyId,
      templateCode: 'fleet_report',
      receivers: { userIds: receivers },
      vars: {
        date: localTime(now, zone).slice(0, 10),
        reportTime: `${localTime(now, zone)} (${zone})`,
        total: summary.total,
        online: summary.online,
        offline: summary.offline,
        seen24h: summary.seen24h,
        offlineLongest: offline.records.map((d) => `${d.sn} (${offlineFor(d, now)})`).join(', '),
        failedUpgrades: failedCampaigns.reduce((n, c) => n + c.counts.failed, 0),
        failedCampaigns: failedCampaigns.map((c) => `${c.name} (${c.counts.failed})`).join(', '),
      },
      createBy: scope.username,
    });
    return {
      outcome: 'ok',
      message: { key: 'quartzRunReportSent', params: { receivers: receivers.length } },
      counts: null,
    };
  }
}

/** How long a device has been offline, in days or hours (language-neutral units). */
function offlineFor(device: TDevice, now: number): string {
  if (!device.lastSeenAt) return '-';
  const hours = Math.floor((now - Date.parse(device.lastSeenAt)) / 3_600_000);
  return hours >= 24 ? `${Math.floor(hours / 24)} d` : `${hours} h`;
}

/** A 404 of another module about a parameter becomes this module's message naming the field. */
function rethrowAs(key: MessageKey) {
  return (error: unknown): never => {
    if (error instanceof AppError && error.httpStatus === 404) throw new AppError(key, 400);
    throw error;
  };
}
