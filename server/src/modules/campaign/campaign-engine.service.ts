import {
  OFFLINE_AT_WAVE_DEADLINE,
  deviceAddress,
  downTopic,
  type TCampaignDeviceState,
  type TCampaignProgress,
  type TCampaignWindow,
  type TOtaDownPayload,
  type TOtaReportPayload,
} from '@blrms/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../../platform/bus/bus.js';
import type { Clock } from '../../platform/clock.js';
import type { CampaignTable, FirmwareTable } from '../../platform/db/schema.js';
import type { JobSpec } from '../../platform/scheduler/scheduler.js';
import type { ConfigOutcome, DeviceConfigService } from '../device-config/config.service.js';
import type { GatewayService } from '../device-gateway/gateway.service.js';
import type { DeviceOnlineStatus, DeviceRef } from '../device-gateway/uplink-sink.service.js';
import type { DeviceLogService } from '../device/device-log.service.js';
import { iso } from '../../platform/http/paging.js';
import type { FirmwareService } from '../firmware/firmware.service.js';
import type { MessageService } from '../message/message.service.js';
import {
  OPEN_STATES,
  emptyCounts,
  endOf,
  isActive,
  nextWave,
  rankOf,
  tallyWaves,
  waveOverThreshold,
  windowOpen,
  type WaveTally,
} from './campaign-plan.rules.js';
import type { CampaignRepository, ClaimedDevice, OpenDeviceRow } from './campaign.repository.js';
import { BatchedLookup, DEVICES_COMING_ONLINE } from '../../platform/batched-lookup.js';
import { KeyedQueue } from '../../platform/keyed-queue.js';

/*
 * The rollout engine. Every node runs it: a tick (about once a second) starts scheduled campaigns
 * on time, fails devices whose step outlived its deadline, applies wave deadlines, moves running
 * campaigns from wave to wave through their gates, starts queued devices as capacity, window and
 * jitter allow, ends campaigns whose devices are all final, and publishes progress.
 *
 * A wave starts when every device of the waves before is final (devices offline past the wave
 * deadline released or failed), no wave not accepted crossed the failure threshold, the soak
 * time after the wave ended has passed and, when the campaign asks for it, an operator approved
 * it. The threshold is judged per wave against all its devices as failures come in, so a burst
 * pauses the campaign before the next wave is sent.
 *
 * Device reports (`up/ota`), reconnects (`up/status`) and configuration outcomes move single
 * devices. Every move is a conditional update (from the state it was seen in, on the same job),
 * so two nodes acting on the same device cannot both act; a campaign changes only from the
 * state, wave and gate it was seen at, so two nodes cannot both open a wave; starting devices
 * holds the campaign's row for the transaction, so two nodes cannot both fill the same capacity.
 */

/** What campaigns use of the firmware library, of configurations and of the gateway. */
export type FirmwareSource = Pick<FirmwareService, 'find' | 'signedUrl'>;
type ConfigApplier = Pick<DeviceConfigService, 'applyPatch' | 'onOutcome'>;
type Downlinks = Pick<GatewayService, 'send' | 'expectRestart' | 'node'>;

type ActiveState = Exclude<TCampaignDeviceState, 'queued' | 'updated' | 'failed' | 'canceled'>;

export interface CampaignEngineOptions {
  /** How often the engine looks at every unfinished campaign. */
  tickMs: number;
  /** How long a device may stay in a step before it fails with `timeout in <step>`. */
  stepTimeoutMs: Record<ActiveState, number>;
  /** Lifetime of the download URL sent to a device (re-sent fresh on every reconnect). */
  urlTtlSec: number;
  /** Progress of one campaign is published at most this often (state changes at once). */
  progressIntervalMs: number;
}

const MINUTE = 60_000;

export const DEFAULT_ENGINE_OPTIONS: CampaignEngineOptions = {
  tickMs: 1000,
  stepTimeoutMs: {
    notified: 10 * MINUTE,
    // Refreshed by every progress report: a stalled download fails, a slow one does not.
    downloading: 10 * MINUTE,
    downloaded: 10 * MINUTE,
    verified: 10 * MINUTE,
    // Installing, rebooting and reconnecting.
    updating: 15 * MINUTE,
  },
  urlTtlSec: 6 * 60 * 60,
  progressIntervalMs: 1000,
};

/**
 * Download progress is written at most this often per device: every write of a report is a
 * commit (a WAL sync on PostgreSQL), and 500 devices downloading at once report every 5 %.
 */
const PROGRESS_WRITE_MS = 2000;
/** After a device frees a slot the engine fills it this soon, not at the next tick. */
const REFILL_DELAY_MS = 50;

/** A row of a device coming online, with what the engine needs of its campaign. */
type OnlineRow = Awaited<ReturnType<CampaignRepository['openRowsOfDevices']>>[number];

/** How a device's firmware upgrade in a campaign ended (for the alarm engine). */
export interface UpgradeOutcome {
  companyId: string;
  deviceId: string;
  campaignId: string;
  ok: boolean;
  error: string | null;
}

export class CampaignEngine {
  private readonly options: CampaignEngineOptions;
  private readonly upgradeListeners: ((outcome: UpgradeOutcome) => void)[] = [];
  /** Passes run one after the other; `pending` is set while one waits to run. */
  private passes: Promise<void> = Promise.resolve();
  private pending = false;
  private refill: NodeJS.Timeout | undefined;
  private readonly dirty = new Set<string>();
  private readonly publishedAt = new Map<string, number>();
  /** A firmware's version, size and sha256 never change once uploaded. */
  private readonly firmwareCache = new Map<string, FirmwareTable>();
  /**
   * When this node last wrote a job's download progress: the reports in between are dropped
   * before they cost a database read (a device reports every 5 %, hundreds download at once).
   */
  private readonly progressWrittenAt = new Map<string, number>();
  /** Each device's messages, handled in the order they arrived (see `inOrder`). */
  private readonly deviceQueue = new KeyedQueue();
  /**
   * The open rows of devices coming online, read for many at once: every connect asks, and in a
   * storm of thousands one statement per device was a measurable share of the server.
   */
  private readonly openRows = new BatchedLookup<string, OnlineRow[]>(async (deviceIds) => {
    const byDevice = new Map<string, OnlineRow[]>();
    for (const row of await this.deps.repository.openRowsOfDevices(deviceIds)) {
      const rows = byDevice.get(row.device_id);
      if (rows) rows.push(row);
      else byDevice.set(row.device_id, [row]);
    }
    return byDevice;
  }, DEVICES_COMING_ONLINE);

  constructor(
    private readonly deps: {
      repository: CampaignRepository;
      firmware: FirmwareSource;
      configs: ConfigApplier;
      downlinks: Downlinks;
      deviceLogs: DeviceLogService;
      /** The message center: the creator hears when a campaign ends. */
      messages: Pick<MessageService, 'sendTemplate'>;
      bus: Bus;
      clock: Clock;
      log: FastifyBaseLogger;
    },
    options: Partial<CampaignEngineOptions> = {},
  ) {
    this.options = {
      ...DEFAULT_ENGINE_OPTIONS,
      ...options,
      stepTimeoutMs: { ...DEFAULT_ENGINE_OPTIONS.stepTimeoutMs, ...options.stepTimeoutMs },
    };
    deps.configs.onOutcome((outcome) => this.watch(this.configOutcome(outcome)));
  }

  /** Called when a device's firmware upgrade ends, updated or failed; a listener must not throw. */
  onUpgradeOutcome(listener: (outcome: UpgradeOutcome) => void): void {
    this.upgradeListeners.push(listener);
  }

  /** Tells the listeners how a device's step of an OTA campaign ended (not configuration ones). */
  private async upgradeEnded(
    campaignId: string,
    deviceId: string,
    error: string | null,
  ): Promise<void> {
    if (this.upgradeListeners.length === 0) return;
    const campaign = await this.deps.repository.find(campaignId);
    if (campaign?.kind !== 'ota') return;
    const outcome = {
      companyId: campaign.company_id,
      deviceId,
      campaignId,
      ok: error === null,
      error,
    };
    for (const listener of this.upgradeListeners) {
      try {
        listener(outcome);
      } catch (err) {
        this.deps.log.error({ err, outcome }, 'upgrade outcome listener failed');
      }
    }
  }

  /**
   * The tick, on every node: besides the campaigns' moves (each safe with any number of nodes),
   * a pass publishes the progress of the device reports this node received.
   */
  scheduledJobs(): JobSpec[] {
    return [
      {
        name: 'campaign.tick',
        everyMs: this.options.tickMs,
        scope: 'node',
        run: () => (this.pending ? Promise.resolve() : this.tick()),
        onFailure: (error) => this.logFailure(error),
      },
    ];
  }

  async close(): Promise<void> {
    clearTimeout(this.refill);
    await this.passes;
  }

  /** One pass over every unfinished campaign; resolves when it (and any pass before it) ran. */
  tick(): Promise<void> {
    this.pending = true;
    const run = this.passes.then(async () => {
      this.pending = false;
      await this.pass();
    });
    // A failed pass is the caller's to hear of; the next one runs all the same.
    this.passes = run.catch(() => undefined);
    return run;
  }

  /** Runs a pass soon: a device freed a slot, a campaign was created, resumed or retried. */
  soon(): void {
    if (this.refill) return;
    this.refill = setTimeout(() => {
      this.refill = undefined;
      if (!this.pending) this.watch(this.tick());
    }, REFILL_DELAY_MS);
    this.refill.unref();
  }

  private watch(work: Promise<unknown>): void {
    work.catch((error: unknown) => this.logFailure(error));
  }

  private logFailure(error: unknown): void {
    this.deps.log.error({ err: error }, 'campaign engine failed');
  }

  private async pass(): Promise<void> {
    const { repository, clock } = this.deps;
    for (const campaign of await repository.unfinished()) {
      const now = clock();
      await this.expire(campaign, now);
      await this.rollOut(campaign, now);
    }
    await this.flushProgress();
    // What is older than the write interval no longer drops anything.
    const stale = clock() - PROGRESS_WRITE_MS;
    for (const [jobId, at] of this.progressWrittenAt) {
      if (at < stale) this.progressWrittenAt.delete(jobId);
    }
  }

  // ---------------------------------------------------------------- the tick's work

  private async expire(campaign: CampaignTable, now: number): Promise<void> {
    const { repository, deviceLogs } = this.deps;
    let failed = false;
    for (const row of await repository.expired(campaign.id, now)) {
      const error = `timeout in ${row.state}`;
      const moved = await repository.move(
        campaign.id,
        row.device_id,
        [row.state],
        { state: 'failed', error, deadline: null, update_time: now },
        row.job_id ?? undefined,
      );
      if (!moved) continue;
      failed = true;
      if (row.log_id) await deviceLogs.setState(row.log_id, 'timeout', { error });
      await this.upgradeEnded(campaign.id, row.device_id, error);
    }
    if (failed) {
      this.dirty.add(campaign.id);
      await this.checkThreshold(campaign.id);
    }
  }

  /**
   * Starts a scheduled campaign whose time came; ends a campaign with every device final (a
   * paused one too: nothing is left to hold back); else, when it runs, applies the wave deadline,
   * moves through the gates to the next waves and starts devices.
   */
  private async rollOut(seen: CampaignTable, now: number): Promise<void> {
    const { repository } = this.deps;
    let campaign = seen;
    if (campaign.state === 'scheduled') {
      if (campaign.start_at !== null && campaign.start_at > now) return;
      const started = await repository.setState(campaign.id, ['scheduled'], {
        state: 'running',
        wave_start_time: now,
      });
      if (!started) return;
      campaign = { ...campaign, state: 'running', wave_start_time: now };
      await this.publishNow(campaign.id);
    }
    const waveCount = (JSON.parse(campaign.waves_json) as number[]).length;
    let tallies = await this.talliesOf(campaign.id, waveCount);
    if (tallies.every((t) => t.open === 0)) {
      await this.end(campaign, tallies, now);
      return;
    }
    if (campaign.state !== 'running') return;
    const deadline = await this.passWaveDeadline(campaign, now);
    if (deadline.failed > 0 && (await this.checkThreshold(campaign.id))) return;
    if (deadline.passed) {
      campaign = (await repository.find(campaign.id)) ?? campaign;
      tallies = await this.talliesOf(campaign.id, waveCount);
    }
    await this.openWaves(campaign, tallies, now);
    await this.fill(campaign.id);
  }

  private async end(campaign: CampaignTable, tallies: WaveTally[], now: number): Promise<void> {
    const { state, thresholdWave } = endOf(
      tallies,
      campaign.failure_threshold,
      campaign.accepted_wave,
    );
    const ended = await this.deps.repository.setState(campaign.id, ['running', 'paused'], {
      state,
      paused_reason: null,
      threshold_wave: thresholdWave,
      gate: null,
      gate_until: null,
      end_time: now,
    });
    if (!ended) return;
    await this.publishNow(campaign.id);
    await this.notifyEnd(campaign, state, tallies);
  }

  /**
   * Tells the campaign's creator how it ended, through the message center (the node whose
   * conditional update ended it is the only one to get here). A failure to notify is logged and
   * never undoes the end.
   */
  private async notifyEnd(campaign: CampaignTable, state: string, tallies: WaveTally[]) {
    if (!campaign.create_by) return;
    const sum = (key: 'updated' | 'failed' | 'size') => tallies.reduce((n, t) => n + t[key], 0);
    try {
      await this.deps.messages.sendTemplate({
        companyId: campaign.company_id,
        templateCode: state === 'failed' ? 'campaign_failed' : 'campaign_finished',
        receivers: { userIds: [], usernames: [campaign.create_by] },
        vars: {
          campaign: campaign.name,
          updated: sum('updated'),
          failed: sum('failed'),
          total: sum('size'),
        },
        priority: state === 'failed' ? 'H' : 'L',
        link: { openPage: `/device/campaign/${campaign.id}`, busId: campaign.id },
      });
    } catch (error) {
      this.deps.log.error({ err: error, campaignId: campaign.id }, 'campaign end not notified');
    }
  }

  /**
   * At the current wave's deadline its devices still queued and offline fail
   * (`offline at wave deadline`) or stop holding the wave back, as the campaign says. Says
   * whether the deadline passed now (the campaign changed) and how many devices it failed.
   */
  private async passWaveDeadline(
    campaign: CampaignTable,
    now: number,
  ): Promise<{ passed: boolean; failed: number }> {
    const deadline = waveDeadlineOf(campaign);
    if (deadline === null || now < deadline) return { passed: false, failed: 0 };
    const { repository } = this.deps;
    const wave = campaign.current_wave;
    let failed = 0;
    if (campaign.wave_deadline_action === 'fail') {
      failed = await repository.failOffline(
        campaign.id,
        campaign.released_wave + 1,
        wave,
        OFFLINE_AT_WAVE_DEADLINE,
        now,
      );
    }
    if (await repository.release(campaign.id, wave)) this.dirty.add(campaign.id);
    if (failed > 0) this.dirty.add(campaign.id);
    return { passed: true, failed };
  }

  /**
   * Moves a running campaign on from its current wave while that wave is final: through the soak
   * time, then the approval, to the next wave that holds devices. A gate set while the wave was
   * final is lifted when it no longer is (its failed devices were retried).
   */
  private async openWaves(seen: CampaignTable, seenTallies: WaveTally[], now: number) {
    let campaign = seen;
    let tallies = seenTallies;
    const last = tallies.length - 1;
    while (campaign.current_wave < last) {
      const wave = campaign.current_wave;
      const held = await this.holding(campaign, tallies);
      if (held > 0) {
        if (campaign.gate !== null) {
          await this.change(campaign, { gate: null, gate_until: null });
        }
        return;
      }
      if (waveOverThreshold(tallies, campaign.failure_threshold, campaign.accepted_wave, wave)) {
        await this.checkThreshold(campaign.id);
        return;
      }
      if (campaign.soak_minutes > 0) {
        if (campaign.gate_until === null) {
          await this.change(campaign, {
            gate: 'soak',
            gate_until: now + campaign.soak_minutes * MINUTE,
          });
          return;
        }
        if (now < campaign.gate_until) return;
      }
      if (campaign.approve_each_wave && campaign.approved_wave <= wave) {
        if (campaign.gate !== 'approval') await this.change(campaign, { gate: 'approval' });
        return;
      }
      const next = nextWave(tallies, wave);
      const values = { current_wave: next, gate: null, gate_until: null, wave_start_time: now };
      if (!(await this.change(campaign, values))) return;
      campaign = { ...campaign, ...values };
      // Devices of the new wave may already be final (they got the version some other way).
      tallies = await this.talliesOf(campaign.id, tallies.length);
    }
  }

  /**
   * Changes a running campaign as seen (its wave and gate), publishing it; false when another
   * node or an operator changed it first.
   */
  private async change(
    campaign: CampaignTable,
    values: Parameters<CampaignRepository['setState']>[2],
  ): Promise<boolean> {
    const changed = await this.deps.repository.setState(campaign.id, ['running'], values, {
      wave: campaign.current_wave,
      gate: campaign.gate,
    });
    if (changed) await this.publishNow(campaign.id);
    return changed;
  }

  /**
   * Devices of the waves begun that hold the next wave back: every one not final, but for those
   * queued offline in waves whose deadline released them.
   */
  private async holding(campaign: CampaignTable, tallies: WaveTally[]): Promise<number> {
    const wave = campaign.current_wave;
    const open = tallies.slice(0, wave + 1).reduce((sum, t) => sum + t.open, 0);
    const released = Math.min(campaign.released_wave, wave);
    if (open === 0 || released < 0) return open;
    return open - (await this.deps.repository.queued(campaign.id, released, 'offline'));
  }

  private async talliesOf(campaignId: string, waveCount: number): Promise<WaveTally[]> {
    const rows = (await this.deps.repository.counts([campaignId])).get(campaignId) ?? [];
    return tallyWaves(rows, waveCount);
  }

  /**
   * Starts queued devices of the waves begun while capacity (`maxConcurrent`), the window and
   * their jitter allow; `deviceId` narrows it to one device that has just come online.
   */
  private async fill(campaignId: string, deviceId?: string): Promise<void> {
    const { repository, clock } = this.deps;
    const now = clock();
    const started = await repository.withCampaignLocked(
      campaignId,
      async (trx, campaign, active) => {
        if (campaign.state !== 'running') return undefined;
        if (!windowOpen(parseWindow(campaign.window_json), now)) return undefined;
        const capacity = campaign.max_concurrent - active;
        if (capacity <= 0) return undefined;
        const rows = await repository.candidates(
          trx,
          campaignId,
          campaign.current_wave,
          now,
          capacity,
          deviceId ? { deviceId } : { node: this.deps.downlinks.node },
        );
        const jitterMs = campaign.jitter_sec * 1000;
        // A device's jitter starts when its turn comes; it starts at the first pass after it.
        const delayed = jitterMs > 0 ? rows.filter((r) => r.not_before === null) : [];
        await repository.delay(
          trx,
          campaignId,
          delayed.map((r) => ({
            deviceId: r.device_id,
            notBefore: now + 1 + Math.floor(Math.random() * jitterMs),
          })),
        );
        const ready = rows.filter((r) => jitterMs === 0 || r.not_before !== null);
        const devices = await repository.claim(
          trx,
          campaignId,
          ready.map((r) => r.device_id),
          now,
          now + this.options.stepTimeoutMs.notified,
        );
        return { campaign, devices };
      },
    );
    if (!started || started.devices.length === 0) return;
    this.dirty.add(campaignId);
    if (started.campaign.kind === 'ota') await this.notifyOta(started.campaign, started.devices);
    else await this.applyConfig(started.campaign, started.devices);
  }

  private async notifyOta(campaign: CampaignTable, devices: ClaimedDevice[]): Promise<void> {
    const { repository, deviceLogs, downlinks } = this.deps;
    const firmware = await this.firmwareOf(campaign.company_id, campaign.firmware_id);
    if (!firmware) {
      for (const d of devices)
        await this.fail(campaign.id, d.device_id, 'notified', 'firmware not found');
      return;
    }
    const payload = this.otaPayload(firmware);
    const logIds = await deviceLogs.writeMany(
      devices.map((d) => ({
        companyId: campaign.company_id,
        deviceId: d.device_id,
        sn: d.sn,
        requestUrl: downTopic(deviceAddress(d.token_code, d.sn), 'ota', d.job_id),
        sourceUser: campaign.create_by,
        targetUser: d.owner_name,
        subject: 'ota.notify',
        content: {
          campaignId: campaign.id,
          campaign: campaign.name,
          jobId: d.job_id,
          version: firmware.version,
          size: firmware.size,
          sha256: firmware.sha256,
        },
        sourceIp: null,
        state: 'sent' as const,
      })),
    );
    await repository.setLogIds(
      campaign.id,
      devices.map((d, i) => ({ deviceId: d.device_id, logId: logIds[i]! })),
    );
    await Promise.all(
      devices.map((d) =>
        downlinks
          .send(deviceAddress(d.token_code, d.sn), 'ota', d.job_id, payload)
          .catch((error: unknown) => {
            // The device stays notified: it gets the job again when it reconnects, or times out.
            this.deps.log.warn({ err: error, sn: d.sn }, 'upgrade not sent');
          }),
      ),
    );
  }

  private async applyConfig(campaign: CampaignTable, devices: ClaimedDevice[]): Promise<void> {
    const patch = JSON.parse(campaign.config_patch_json ?? '{}') as Record<string, unknown>;
    for (const d of devices) {
      const result = await this.deps.configs.applyPatch(
        { id: d.device_id, companyId: campaign.company_id, sn: d.sn, series: d.series },
        patch,
        campaign.create_by,
        campaign.id,
      );
      if ('error' in result) await this.fail(campaign.id, d.device_id, 'notified', result.error);
    }
  }

  private otaPayload(firmware: FirmwareTable): TOtaDownPayload {
    return {
      version: firmware.version,
      url: this.deps.firmware.signedUrl(firmware.id, this.options.urlTtlSec).url,
      size: firmware.size,
      sha256: firmware.sha256,
    };
  }

  private async firmwareOf(companyId: string, id: string | null) {
    if (!id) return undefined;
    let firmware = this.firmwareCache.get(id);
    if (!firmware) {
      firmware = await this.deps.firmware.find(companyId, id);
      if (firmware) this.firmwareCache.set(id, firmware);
    }
    return firmware;
  }

  // ---------------------------------------------------------------- what devices say

  /**
   * Handles one device's messages in the order they arrived: the gateway hands them over without
   * waiting, and a reconnect handled before the `updating` report that preceded it would miss it.
   */
  private inOrder(deviceId: string, work: () => Promise<void>): Promise<void> {
    return this.deviceQueue.run(deviceId, work);
  }

  /** `up/ota/{jobId}`: moves the job's device forward (never back); stale jobs are ignored. */
  otaReported = (
    device: DeviceRef,
    jobId: string,
    payload: TOtaReportPayload,
    receivedAt: number,
  ): Promise<void> =>
    this.inOrder(device.id, () => this.report(device, jobId, payload, receivedAt));

  private async report(
    device: DeviceRef,
    jobId: string,
    payload: TOtaReportPayload,
    receivedAt: number,
  ): Promise<void> {
    const { repository, deviceLogs } = this.deps;
    const written = this.progressWrittenAt.get(jobId);
    if (payload.state === 'downloading' && receivedAt - (written ?? 0) < PROGRESS_WRITE_MS) return;
    this.progressWrittenAt.delete(jobId);
    const row = await repository.byJob(jobId);
    if (!row || row.device_id !== device.id || !isActive(row.state)) return;
    const firmware = await this.firmwareOf(row.company_id, row.firmware_id);
    const badSha = payload.sha256 !== undefined && firmware && payload.sha256 !== firmware.sha256;
    if (payload.state === 'failed' || badSha) {
      const error = badSha ? 'sha256 mismatch' : (payload.error ?? `failed in ${row.state}`);
      await this.fail(row.campaign_id, row.device_id, row.state, error, row.job_id, row.log_id);
      return;
    }
    const to = payload.state;
    const rank = rankOf(to);
    const current = rankOf(row.state);
    const progress = to === 'downloading' ? Math.floor(payload.progress ?? 0) : 100;
    if (rank < current) return;
    if (rank === current) {
      // The same step again: only download progress moves, and is written sparingly (it also
      // pushes the step's deadline on, so a download reporting progress does not time out).
      if (to !== 'downloading') return;
      const due =
        progress > (row.progress ?? 0) && receivedAt - row.update_time >= PROGRESS_WRITE_MS;
      if (!due) return;
      const moved = await repository.move(
        row.campaign_id,
        row.device_id,
        ['downloading'],
        { progress, deadline: receivedAt + this.timeoutOf(to), update_time: receivedAt },
        jobId,
        progress,
      );
      if (moved) {
        this.dirty.add(row.campaign_id);
        this.progressWrittenAt.set(jobId, receivedAt);
      }
      return;
    }
    const moved = await repository.move(
      row.campaign_id,
      row.device_id,
      [row.state],
      { state: to, progress, deadline: receivedAt + this.timeoutOf(to), update_time: receivedAt },
      jobId,
    );
    if (!moved) return;
    this.dirty.add(row.campaign_id);
    if (to === 'downloading') this.progressWrittenAt.set(jobId, receivedAt);
    if (to === 'updating') await this.deps.downlinks.expectRestart(device.id, 'upgrade');
    if (row.state === 'notified' && row.log_id) await deviceLogs.setState(row.log_id, 'acked');
  }

  /**
   * A live online status. An upgrade is done when the device comes back with the new version
   * (`updated`), failed when it comes back from installing with another (`version mismatch`);
   * a device still downloading gets its job again (with a fresh URL); a queued device whose turn
   * came while it was away starts now, as the window and capacity allow.
   */
  deviceOnline = (device: DeviceRef, status: DeviceOnlineStatus, receivedAt: number) =>
    this.inOrder(device.id, () => this.online(device, status, receivedAt));

  private async online(
    device: DeviceRef,
    status: DeviceOnlineStatus,
    receivedAt: number,
  ): Promise<void> {
    const rows = (await this.openRows.get(device.id)) ?? [];
    for (const row of rows) {
      if (row.kind === 'ota') {
        const firmware = await this.firmwareOf(row.company_id, row.firmware_id);
        if (firmware && status.fw !== undefined) {
          // Queued too: a device that got the version some other way needs nothing more.
          if (status.fw === firmware.version) {
            await this.succeed(row, receivedAt);
            continue;
          }
          if (row.state === 'updating') {
            await this.fail(
              row.campaign_id,
              row.device_id,
              row.state,
              'version mismatch',
              row.job_id,
              row.log_id,
            );
            continue;
          }
        }
        if (firmware && isActive(row.state)) {
          await this.resend(row, device.address, firmware, receivedAt);
          continue;
        }
      }
      if (row.state !== 'queued' || row.campaign_state !== 'running') continue;
      // The configuration service sends to devices its presence says are online, and that may
      // not be written yet: a configuration starts at the next pass, when it is.
      if (row.kind === 'config') this.soon();
      else await this.fill(row.campaign_id, device.id);
    }
  }

  private async resend(
    row: OpenDeviceRow,
    address: string,
    firmware: FirmwareTable,
    now: number,
  ): Promise<void> {
    if (!row.job_id) return;
    const moved = await this.deps.repository.move(
      row.campaign_id,
      row.device_id,
      [row.state],
      { deadline: now + this.timeoutOf(row.state as ActiveState), update_time: now },
      row.job_id,
    );
    if (moved)
      await this.deps.downlinks.send(address, 'ota', row.job_id, this.otaPayload(firmware));
  }

  /** A configuration campaign's device applied the version it was given, or refused it. */
  private async configOutcome(outcome: ConfigOutcome): Promise<void> {
    if (!outcome.campaignId) return;
    const { repository, clock } = this.deps;
    if (!outcome.ok) {
      await this.fail(
        outcome.campaignId,
        outcome.deviceId,
        'notified',
        outcome.error ?? 'refused by the device',
      );
      return;
    }
    const moved = await repository.move(outcome.campaignId, outcome.deviceId, ['notified'], {
      state: 'updated',
      error: null,
      deadline: null,
      update_time: clock(),
    });
    if (moved) {
      this.dirty.add(outcome.campaignId);
      this.soon();
    }
  }

  /** From whatever step the job was seen in: the device runs the version, whatever it missed. */
  private async succeed(row: OpenDeviceRow, now: number): Promise<void> {
    const moved = await this.deps.repository.move(
      row.campaign_id,
      row.device_id,
      OPEN_STATES,
      { state: 'updated', progress: 100, error: null, deadline: null, update_time: now },
      row.job_id ?? undefined,
    );
    if (!moved) return;
    if (row.log_id) await this.deps.deviceLogs.setState(row.log_id, 'succeeded');
    await this.upgradeEnded(row.campaign_id, row.device_id, null);
    this.dirty.add(row.campaign_id);
    this.soon();
  }

  private async fail(
    campaignId: string,
    deviceId: string,
    from: string,
    error: string,
    jobId?: string | null,
    logId?: string | null,
  ): Promise<void> {
    const moved = await this.deps.repository.move(
      campaignId,
      deviceId,
      [from],
      {
        state: 'failed',
        error: error.slice(0, 1000),
        deadline: null,
        update_time: this.deps.clock(),
      },
      jobId ?? undefined,
    );
    if (!moved) return;
    if (logId) await this.deps.deviceLogs.setState(logId, 'failed', { error });
    await this.upgradeEnded(campaignId, deviceId, error);
    this.dirty.add(campaignId);
    await this.checkThreshold(campaignId);
    this.soon();
  }

  private timeoutOf(state: ActiveState): number {
    return this.options.stepTimeoutMs[state];
  }

  /**
   * Pauses a running campaign when the failed devices of a wave begun (and not accepted) reached
   * the threshold share of that wave; true when it did. Checked as failures come in, so a burst
   * stops the campaign before its next wave starts.
   */
  private async checkThreshold(campaignId: string): Promise<boolean> {
    const { repository } = this.deps;
    const campaign = await repository.find(campaignId);
    if (!campaign || campaign.state !== 'running') return false;
    const tallies = await this.talliesOf(
      campaignId,
      (JSON.parse(campaign.waves_json) as number[]).length,
    );
    const wave = waveOverThreshold(
      tallies,
      campaign.failure_threshold,
      campaign.accepted_wave,
      campaign.current_wave,
    );
    if (wave === null) return false;
    const paused = await repository.setState(campaignId, ['running'], {
      state: 'paused',
      paused_reason: 'failure-threshold',
      threshold_wave: wave,
    });
    if (paused) await this.publishNow(campaignId);
    return paused;
  }

  // ---------------------------------------------------------------- progress

  /** Counts and state of campaigns as the list, the detail and the live progress show them. */
  async progressOf(campaigns: CampaignTable[]): Promise<Map<string, TCampaignProgress>> {
    const { repository } = this.deps;
    // Side by side: on a busy connection pool each query waits its turn.
    const [byCampaign, waiting] = await Promise.all([
      repository.counts(campaigns.map((c) => c.id)),
      Promise.all(
        campaigns.map((c) =>
          c.state === 'running' || c.state === 'paused'
            ? repository.queued(c.id, c.current_wave, 'offline')
            : 0,
        ),
      ),
    ]);
    const result = new Map<string, TCampaignProgress>();
    campaigns.forEach((c, i) => {
      const counts = emptyCounts();
      for (const r of byCampaign.get(c.id) ?? []) counts[r.state as TCampaignDeviceState] += r.n;
      result.set(c.id, {
        id: c.id,
        state: c.state as TCampaignProgress['state'],
        pausedReason: c.paused_reason as TCampaignProgress['pausedReason'],
        currentWave: c.current_wave,
        gate: c.gate as TCampaignProgress['gate'],
        gateUntil: c.gate_until === null ? null : iso(c.gate_until),
        thresholdWave: c.threshold_wave,
        waveDeadline:
          c.state === 'running' || c.state === 'paused' ? isoOrNull(waveDeadlineOf(c)) : null,
        total: c.total,
        counts,
        waitingOffline: waiting[i]!,
        endTime: c.end_time === null ? null : iso(c.end_time),
      });
    });
    return result;
  }

  /** Publishes a campaign's progress at once (its state changed). */
  async publishNow(campaignId: string): Promise<void> {
    const campaign = await this.deps.repository.find(campaignId);
    this.dirty.delete(campaignId);
    if (!campaign) return;
    const progress = (await this.progressOf([campaign])).get(campaignId);
    if (!progress) return;
    this.publishedAt.set(campaignId, performance.now());
    await this.deps.bus.publish('campaign.progress', {
      companyId: campaign.company_id,
      campaign: progress,
    });
  }

  /** Throttled by the machine's clock: the injected one may stand still in tests. */
  private async flushProgress(): Promise<void> {
    const now = performance.now();
    for (const id of [...this.dirty]) {
      const last = this.publishedAt.get(id) ?? 0;
      if (now - last >= this.options.progressIntervalMs) await this.publishNow(id);
    }
    // Campaigns that stopped changing need no memory of when they were last published.
    for (const [id, at] of this.publishedAt) {
      if (!this.dirty.has(id) && now - at > 60_000) this.publishedAt.delete(id);
    }
  }
}

/** When the current wave's offline devices stop holding it; null without one, or once passed. */
function waveDeadlineOf(campaign: CampaignTable): number | null {
  if (campaign.wave_deadline_minutes === null || campaign.wave_start_time === null) return null;
  if (campaign.released_wave >= campaign.current_wave) return null;
  return campaign.wave_start_time + campaign.wave_deadline_minutes * MINUTE;
}

function isoOrNull(time: number | null): string | null {
  return time === null ? null : iso(time);
}

function parseWindow(json: string | null): TCampaignWindow | null {
  return json ? (JSON.parse(json) as TCampaignWindow) : null;
}
