import {
  CAMPAIGN_END_STATES,
  CONFIG_DEFAULTS,
  DEVICE_SERIES,
  compareVersions,
  configProblem,
  maskSecrets,
  mergePatch,
  type TCampaign,
  type TCampaignCreate,
  type TCampaignDevice,
  type TCampaignDeviceQuery,
  type TCampaignDeviceState,
  type TCampaignKind,
  type TCampaignPreview,
  type TCampaignProgress,
  type TCampaignQuery,
  type TCampaignTarget,
  type TCampaignWindow,
  type TDeviceConfigObject,
  type TDeviceSeries,
  type TWaveDeadlineAction,
} from '@blrms/contracts';
import type { DataRuleService } from '../../platform/auth/data-rules.js';
import type { PermissionService } from '../../platform/auth/permissions.js';
import type { Scope } from '../../platform/auth/scope.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { newId } from '../../platform/db/ids.js';
import type {
  CampaignDeviceTable,
  CampaignTable,
  FirmwareTable,
} from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import type { DeviceService } from '../device/device.service.js';
import { iso, pageResult, type Page } from '../../platform/http/paging.js';
import { DEVICE_RULES } from '../device/stats-columns.rules.js';
import { assignWaves } from './campaign-plan.rules.js';
import type { CampaignEngine, FirmwareSource } from './campaign-engine.service.js';
import type { CampaignChange, CampaignRepository, TargetDevice } from './campaign.repository.js';

/** Ids or SNs named in an error message: enough to find them, not a wall of text. */
const NAMED_MAX = 5;

function named(items: string[]): string {
  const shown = items.slice(0, NAMED_MAX).join(', ');
  return items.length > NAMED_MAX ? `${shown}, … (+${items.length - NAMED_MAX})` : shown;
}

interface TargetInput {
  kind: TCampaignKind;
  firmwareId?: string;
  series?: TDeviceSeries;
  target: TCampaignTarget;
}

interface Resolved {
  firmware: FirmwareTable | undefined;
  series: TDeviceSeries;
  devices: TargetDevice[];
  excluded: number;
}

export class CampaignService {
  constructor(
    private readonly repository: CampaignRepository,
    private readonly engine: CampaignEngine,
    private readonly firmware: FirmwareSource,
    private readonly devices: DeviceService,
    private readonly dataRules: DataRuleService,
    private readonly permissions: PermissionService,
    private readonly clock: Clock,
  ) {}

  /** Finished campaigns let go of a firmware being deleted, inside the deletion's transaction. */
  async releaseFirmware(
    deletion: { companyId: string; firmwareId: string },
    trx: Db,
  ): Promise<void> {
    await this.repository.releaseFirmware(deletion.companyId, deletion.firmwareId, trx);
  }

  async preview(scope: Scope, input: TargetInput): Promise<TCampaignPreview> {
    const { devices, excluded } = await this.resolve(scope, input);
    return {
      total: devices.length,
      online: devices.filter((d) => d.status === 'online').length,
      excluded,
    };
  }

  async add(scope: Scope, input: TCampaignCreate): Promise<TCampaign> {
    if (input.kind === 'config') {
      if (!(await this.permissions.hasIn(scope, 'device:config'))) {
        throw new AppError('campaignConfigDenied', 403);
      }
    }
    const { firmware, series, devices, excluded } = await this.resolve(scope, input);
    if (input.kind === 'config') this.checkPatch(series, input.configPatch ?? {});
    if (devices.length === 0) throw new AppError('campaignNoDevices', 400, { excluded });

    const now = this.clock();
    const id = newId();
    // Waves follow SN order, so that a campaign over the same devices always splits the same way.
    const ordered = [...devices].sort((a, b) => (a.sn < b.sn ? -1 : a.sn > b.sn ? 1 : 0));
    const waves = assignWaves(ordered.length, input.waves);
    const startAt = input.startAt === undefined ? null : Date.parse(input.startAt);
    const scheduled = startAt !== null && startAt > now;
    const rows = ordered.map((d, i): CampaignDeviceTable => ({
      campaign_id: id,
      device_id: d.id,
      company_id: scope.companyId,
      sn: d.sn,
      wave: waves[i]!,
      state: 'queued',
      progress: null,
      from_version: d.version,
      error: null,
      attempts: 1,
      job_id: newId(),
      not_before: null,
      deadline: null,
      log_id: null,
      update_time: now,
    }));
    await this.repository.insert(
      {
        id,
        company_id: scope.companyId,
        name: input.name,
        kind: input.kind,
        firmware_id: firmware?.id ?? null,
        firmware_version: firmware?.version ?? null,
        series,
        config_patch_json: input.kind === 'config' ? JSON.stringify(input.configPatch) : null,
        target_json: JSON.stringify(input.target),
        waves_json: JSON.stringify(input.waves),
        // More at once than a wave holds would only mean the whole wave at once.
        max_concurrent: Math.min(input.maxConcurrent, largestWave(waves)),
        failure_threshold: input.failureThresholdPercent,
        window_json: input.window ? JSON.stringify(input.window) : null,
        jitter_sec: input.jitterSec,
        soak_minutes: input.soakMinutes,
        approve_each_wave: input.approveEachWave ? 1 : 0,
        wave_deadline_minutes: input.waveDeadlineMinutes ?? null,
        wave_deadline_action: input.onWaveDeadline,
        start_at: startAt,
        state: scheduled ? 'scheduled' : 'running',
        paused_reason: null,
        current_wave: 0,
        wave_start_time: scheduled ? null : now,
        gate: null,
        gate_until: null,
        // The first wave starts with the campaign: creating it approves it.
        approved_wave: 0,
        accepted_wave: -1,
        released_wave: -1,
        threshold_wave: null,
        total: rows.length,
        create_by: scope.username,
        create_time: now,
        end_time: null,
      },
      rows,
    );
    await this.engine.publishNow(id);
    this.engine.soon();
    return this.detail(scope, id);
  }

  async list(scope: Scope, query: TCampaignQuery): Promise<Page<TCampaign>> {
    const { records, total } = await this.repository.page(scope.companyId, query);
    const progress = await this.engine.progressOf(records);
    return pageResult(
      records.map((r) => toCampaign(r, progress.get(r.id)!)),
      total,
      query,
    );
  }

  async detail(scope: Scope, id: string): Promise<TCampaign> {
    const row = await this.require(scope, id);
    const progress = await this.engine.progressOf([row]);
    return toCampaign(row, progress.get(id)!);
  }

  /** The campaign's devices the caller may see (data rules apply), with their names. */
  async devicePage(scope: Scope, query: TCampaignDeviceQuery): Promise<Page<TCampaignDevice>> {
    await this.require(scope, query.id);
    const rules = await this.dataRules.filterFor(scope, DEVICE_RULES);
    const { records, total } = await this.repository.devicePage(
      scope.companyId,
      query.id,
      { state: query.state, sn: query.sn },
      rules,
      query,
    );
    return pageResult(
      records.map((r) => ({
        deviceId: r.device_id,
        sn: r.sn,
        name: r.name,
        wave: r.wave,
        state: r.state as TCampaignDeviceState,
        progress: r.progress,
        fromVersion: r.from_version,
        error: r.error,
        attempts: r.attempts,
        updateTime: iso(r.update_time),
      })),
      total,
      query,
    );
  }

  async pause(scope: Scope, id: string): Promise<TCampaign> {
    await this.control(scope, id, ['running'], 'pause', {
      state: 'paused',
      paused_reason: 'user',
    });
    return this.detail(scope, id);
  }

  /**
   * Resumes a paused campaign. After the failure threshold paused it, resuming accepts the failures
   * of the waves begun: the threshold no longer judges them, and the next wave (once the current
   * one is final and soaked) needs no approval, the operator having just given it.
   */
  async resume(scope: Scope, id: string): Promise<TCampaign> {
    const campaign = await this.require(scope, id);
    const accepting = campaign.state === 'paused' && campaign.paused_reason === 'failure-threshold';
    const resumed = accepting
      ? await this.repository.setStateInCompany(
          scope.companyId,
          id,
          ['paused'],
          {
            state: 'running',
            paused_reason: null,
            threshold_wave: null,
            accepted_wave: campaign.current_wave,
            approved_wave: campaign.current_wave + 1,
          },
          { wave: campaign.current_wave },
        )
      : await this.repository.setStateInCompany(scope.companyId, id, ['paused'], {
          state: 'running',
          paused_reason: null,
        });
    if (!resumed) throw conflict(campaign, 'resume');
    await this.engine.publishNow(id);
    this.engine.soon();
    return this.detail(scope, id);
  }

  /** Lets the next wave start once the campaign waits for an approval. */
  async approve(scope: Scope, id: string): Promise<TCampaign> {
    const campaign = await this.require(scope, id);
    const next = campaign.current_wave + 1;
    const approved = await this.repository.setStateInCompany(
      scope.companyId,
      id,
      ['running'],
      { approved_wave: next },
      { wave: campaign.current_wave, gate: 'approval', approvedBelow: next },
    );
    if (!approved) throw new AppError('campaignNotAwaitingApproval', 409);
    await this.engine.publishNow(id);
    this.engine.soon();
    return this.detail(scope, id);
  }

  /** Devices not finished are canceled; those already running are told nothing more. */
  async cancel(scope: Scope, id: string): Promise<TCampaign> {
    const now = this.clock();
    await this.control(scope, id, ['scheduled', 'running', 'paused'], 'cancel', {
      state: 'canceled',
      paused_reason: null,
      end_time: now,
    });
    await this.repository.cancelDevices(scope.companyId, id, now);
    await this.engine.publishNow(id);
    return this.detail(scope, id);
  }

  /**
   * Failed devices go back to the queue with a new job id; an ended campaign runs again (a wave
   * the threshold failed is judged afresh on the retried devices).
   */
  async retry(scope: Scope, id: string): Promise<{ count: number }> {
    const campaign = await this.require(scope, id);
    if (campaign.state === 'canceled' || campaign.state === 'scheduled') {
      throw new AppError('campaignStateConflict', 409, { state: campaign.state });
    }
    const now = this.clock();
    const count = await this.repository.requeueFailed(scope.companyId, id, now, newId);
    if (count > 0) {
      const ended = CAMPAIGN_END_STATES.filter((s) => s !== 'canceled');
      // The retried devices get the wave deadline afresh, from now.
      await this.repository.setStateInCompany(scope.companyId, id, ended, {
        state: 'running',
        threshold_wave: null,
        wave_start_time: now,
        end_time: null,
      });
      await this.engine.publishNow(id);
      this.engine.soon();
    }
    return { count };
  }

  private async control(
    scope: Scope,
    id: string,
    from: string[],
    action: 'pause' | 'cancel',
    values: CampaignChange,
  ): Promise<void> {
    const campaign = await this.require(scope, id);
    const changed = await this.repository.setStateInCompany(scope.companyId, id, from, values);
    if (!changed) throw conflict(campaign, action);
    if (action !== 'cancel') await this.engine.publishNow(id);
  }

  private async require(scope: Scope, id: string): Promise<CampaignTable> {
    const row = await this.repository.findInCompany(scope.companyId, id);
    if (!row) throw new AppError('campaignNotFound', 404);
    return row;
  }

  /**
   * The devices a target names. Named devices of another company (404) or hidden from the caller
   * by data rules (403) refuse the whole request, as do named devices of another series than the
   * firmware's or the configuration's (400); a group or series target is narrowed to that series
   * and to devices not already at the firmware's version (`excluded`).
   */
  private async resolve(scope: Scope, input: TargetInput): Promise<Resolved> {
    const { target } = input;
    let firmware: FirmwareTable | undefined;
    let series: TDeviceSeries;
    if (input.kind === 'ota') {
      if (!input.firmwareId) throw new AppError('campaignFirmwareRequired', 400);
      firmware = await this.firmware.find(scope.companyId, input.firmwareId);
      if (!firmware) throw new AppError('campaignFirmwareNotFound', 404);
      series = firmware.series as TDeviceSeries;
    } else {
      if (!input.series) throw new AppError('campaignSeriesRequired', 400);
      series = input.series;
    }
    if (
      target.versionFrom &&
      target.versionTo &&
      compareVersions(target.versionFrom, target.versionTo) > 0
    ) {
      throw new AppError('campaignVersionRange', 400);
    }
    if (target.series && target.series !== series) {
      throw new AppError('campaignTargetSeries', 400, { series });
    }
    if (target.groupId && !(await this.repository.groupExists(scope.companyId, target.groupId))) {
      throw new AppError('campaignGroupNotFound', 404);
    }
    const ids = target.deviceIds ? [...new Set(target.deviceIds)] : undefined;
    if (ids) {
      const inCompany = await this.repository.companyDeviceIds(scope.companyId, ids);
      const missing = ids.filter((i) => !inCompany.has(i));
      if (missing.length > 0) {
        throw new AppError('campaignDevicesNotFound', 404, {
          count: missing.length,
          ids: named(missing),
        });
      }
      const visible = new Set(await this.devices.visibleIds(scope, ids));
      const hidden = ids.filter((i) => !visible.has(i));
      if (hidden.length > 0) {
        throw new AppError('campaignDevicesHidden', 403, {
          count: hidden.length,
          ids: named(hidden),
        });
      }
    }
    const rules = await this.dataRules.filterFor(scope, DEVICE_RULES);
    const matched = await this.repository.targetDevices(
      scope.companyId,
      {
        ids,
        groupId: target.groupId,
        series: target.series,
        tags: target.tags,
        onlineOnly: target.onlineOnly,
      },
      rules,
    );
    if (ids) {
      const otherSeries = matched.filter((d) => d.series !== series);
      if (otherSeries.length > 0) {
        throw new AppError('campaignDevicesSeries', 400, {
          count: otherSeries.length,
          sns: named(otherSeries.map((d) => d.sn).sort()),
          series,
        });
      }
    }
    const inRange = matched.filter((d) => versionInRange(d.version, target));
    const devices = inRange.filter(
      (d) =>
        d.series === series &&
        !(firmware && d.version !== null && compareVersions(d.version, firmware.version) === 0),
    );
    return { firmware, series, devices, excluded: inRange.length - devices.length };
  }

  /** The patch must leave a valid configuration: checked on the series' defaults. */
  private checkPatch(series: TDeviceSeries, patch: Record<string, unknown>): void {
    const problem = configProblem(series, mergePatch(CONFIG_DEFAULTS[series], patch));
    if (problem) throw new AppError('campaignConfigInvalid', 400, { problem });
  }
}

function conflict(campaign: CampaignTable, action: string): AppError {
  return new AppError('campaignStateConflict', 409, { state: campaign.state, action });
}

/** Devices in the largest wave of a campaign (`waves` holds each device's wave). */
function largestWave(waves: readonly number[]): number {
  const sizes = new Map<number, number>();
  for (const wave of waves) sizes.set(wave, (sizes.get(wave) ?? 0) + 1);
  return Math.max(1, ...sizes.values());
}

function versionInRange(version: string | null, target: TCampaignTarget): boolean {
  if (!target.versionFrom && !target.versionTo) return true;
  if (version === null) return false;
  if (target.versionFrom && compareVersions(version, target.versionFrom) < 0) return false;
  if (target.versionTo && compareVersions(version, target.versionTo) > 0) return false;
  return true;
}

/**
 * A bulk change as anyone sees it: secrets it sets are masked, for the series it targets (every
 * series' secrets when it targets devices of several).
 */
function maskedPatch(
  series: TDeviceSeries | null,
  patch: TDeviceConfigObject,
): Record<string, unknown> {
  const all: readonly TDeviceSeries[] = series ? [series] : DEVICE_SERIES;
  return all.reduce<TDeviceConfigObject>((masked, s) => maskSecrets(s, masked), patch);
}

function toCampaign(row: CampaignTable, progress: TCampaignProgress): TCampaign {
  return {
    ...progress,
    name: row.name,
    kind: row.kind as TCampaignKind,
    firmwareId: row.firmware_id,
    firmwareVersion: row.firmware_version,
    series: row.series as TDeviceSeries | null,
    configPatch: row.config_patch_json
      ? maskedPatch(row.series as TDeviceSeries | null, JSON.parse(row.config_patch_json))
      : null,
    target: JSON.parse(row.target_json) as Record<string, unknown>,
    waves: JSON.parse(row.waves_json) as number[],
    maxConcurrent: row.max_concurrent,
    failureThresholdPercent: row.failure_threshold,
    soakMinutes: row.soak_minutes,
    approveEachWave: row.approve_each_wave === 1,
    waveDeadlineMinutes: row.wave_deadline_minutes,
    onWaveDeadline: row.wave_deadline_action as TWaveDeadlineAction,
    startAt: row.start_at === null ? null : iso(row.start_at),
    window: row.window_json ? (JSON.parse(row.window_json) as TCampaignWindow) : null,
    jitterSec: row.jitter_sec,
    createBy: row.create_by,
    createTime: iso(row.create_time),
  };
}
