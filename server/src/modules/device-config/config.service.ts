import {
  CONFIG_ANSWER_TIMEOUT_SEC,
  DEVICE_SERIES,
  changedPaths,
  configJsonSchema,
  configPatchProblem,
  configProblem,
  isConfigObject,
  downTopic,
  maskSecrets,
  mergePatch,
  withoutMaskedSecrets,
  type TConfigDownPayload,
  type TConfigFailure,
  type TConfigHistoryQuery,
  type TConfigReportedPayload,
  type TConfigState,
  type TConfigVersion,
  type TDeviceConfigObject,
  type TDeviceConfigSet,
  type TDeviceConfigState,
  type TDeviceLogState,
  type TDeviceSeries,
} from '@blrms/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Scope } from '../../platform/auth/scope.js';
import type { Bus } from '../../platform/bus/bus.js';
import type { Clock } from '../../platform/clock.js';
import type { DeviceConfigTable } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import type { JobSpec } from '../../platform/scheduler/scheduler.js';
import type { DeviceLogService } from '../device/device-log.service.js';
import type { ActionOrigin, DeviceService } from '../device/device.service.js';
import { iso, isoOrNull, pageResult, type Page } from '../../platform/http/paging.js';
import type { GatewayService } from '../device-gateway/gateway.service.js';
import type { DeviceRef } from '../device-gateway/uplink-sink.service.js';
import type { ConfigTarget, DeviceConfigRepository, Failure } from './config.repository.js';
import { BatchedLookup, DEVICES_COMING_ONLINE } from '../../platform/batched-lookup.js';
import { KeyedQueue } from '../../platform/keyed-queue.js';

/**
 * What became of a desired version: the device applied it (`ok`), or refused it or did not answer
 * in time (`error` says which, in English, for campaign rows).
 */
export interface ConfigOutcome {
  companyId: string;
  deviceId: string;
  version: number;
  campaignId: string | null;
  ok: boolean;
  error: string | null;
}

/** Who made a change: a user (with the address of their request) or a campaign's creator. */
interface Actor {
  username: string | null;
  ip: string | null;
}

/** How often a campaign's change is tried again when someone else changed the device meanwhile. */
const APPLY_ATTEMPTS = 3;
/**
 * Pushes past their deadline are looked for this often: a `no-answer` shows at most this late. The
 * query reads the `(state, deadline)` index, so an idle sweep costs one index probe.
 */
const SWEEP_INTERVAL_MS = 1000;
const SWEEP_BATCH = 500;
const ANSWER_TIMEOUT_MS = CONFIG_ANSWER_TIMEOUT_SEC * 1000;
/**
 * No push counts as unanswered while the bus is cut off, nor for this long after it is back: a
 * push another node made meanwhile may never have left, and the node holding the device sends it
 * again (with a new deadline) when the bus returns.
 */
const RESUME_GRACE_MS = 10_000;
/** Held devices looked up at once when pending versions are re-sent after a gap in the bus. */
const RESEND_BATCH = 500;

function parseConfig(text: string | null | undefined): TDeviceConfigObject | null {
  if (!text) return null;
  const value: unknown = JSON.parse(text);
  return isConfigObject(value) ? value : null;
}

/**
 * What the platform knows of a device's configuration: what it reported, with the desired fields
 * it has not reported yet on top. Nothing else: a field neither set nor reported is unknown.
 */
function knownConfig(row: DeviceConfigTable | undefined): TDeviceConfigObject {
  const reported = parseConfig(row?.reported_json);
  const desired = parseConfig(row?.desired_json);
  // A device that reported the desired version, or a later one of its own, runs what it says.
  if (reported && (row?.reported_version ?? 0) >= (row?.desired_version ?? 0)) return reported;
  const known = mergePatch(reported ?? {}, desired ?? {});
  return isConfigObject(known) ? known : {};
}

/**
 * `down/config` for a desired configuration: the whole of it when it is complete, else the fields
 * set on the platform as a merge patch, so that nothing nobody chose reaches the device.
 */
function downPayload(
  series: TDeviceSeries,
  version: number,
  config: TDeviceConfigObject,
): TConfigDownPayload {
  return configProblem(series, config) === null ? { version, config } : { version, patch: config };
}

/** The same downlink with its secrets masked: what the device log keeps. */
function maskedPayload(series: TDeviceSeries, payload: TConfigDownPayload) {
  return 'config' in payload
    ? { version: payload.version, config: maskSecrets(series, payload.config) }
    : { version: payload.version, patch: maskSecrets(series, payload.patch) };
}

function failureOf(row: DeviceConfigTable | undefined): TConfigFailure | null {
  if (row?.state !== 'failed') return null;
  if (row.error_code === 'no-answer') return { code: 'no-answer', afterSec: Number(row.error) };
  return { code: 'device-refused', reason: row.error ?? '' };
}

/** A failure in English, for campaign rows and the device log. */
function failureText(failure: TConfigFailure): string {
  return failure.code === 'no-answer'
    ? `no answer within ${failure.afterSec} s`
    : failure.reason || 'refused by the device';
}

/** `config.<path>: <rule>` parts of a configuration problem (`configProblem`'s `path: rule`). */
function problemParts(problem: string): { path: string; rule: string } {
  const at = problem.indexOf(': ');
  return at < 0
    ? { path: '(config)', rule: problem }
    : { path: problem.slice(0, at), rule: problem.slice(at + 2) };
}

/** The state as anyone sees it: secrets masked (only the device receives them). */
function toState(deviceId: string, series: TDeviceSeries, row: DeviceConfigTable | undefined) {
  const desired = row && row.desired_version > 0 ? parseConfig(row.desired_json) : null;
  return {
    deviceId,
    series,
    desired:
      row && desired
        ? {
            version: row.desired_version,
            config: maskSecrets(series, desired),
            changedBy: row.desired_by,
            changedAt: iso(row.desired_at ?? 0),
          }
        : null,
    reported:
      row && row.reported_at !== null
        ? {
            version: row.reported_version ?? 0,
            config: maskSecrets(series, parseConfig(row.reported_json)),
            reportedAt: iso(row.reported_at),
          }
        : null,
    state: (row?.state ?? 'none') as TConfigState,
    failure: failureOf(row),
    sentAt: isoOrNull(row?.sent_at ?? null),
  } satisfies TDeviceConfigState;
}

/**
 * Remote configuration (docs/device-protocol.md, "Remote configuration"). Each change of a
 * device's desired configuration is a new version (previous + 1, kept in the history with the
 * paths it changed and who changed it). It is sent as `down/config` at once when the device is
 * online, else when its next online status arrives, and again after every reconnect until the
 * device answers (`up/config/reported`): then it is `applied`, or `failed` with the device's
 * reason, or `failed` as `no-answer` when the device stayed online past the push's deadline
 * without answering. A failed version is not sent again: it waits for the next change. Every push
 * is a device log entry whose state follows the device's answer. Secrets leave the platform only
 * in pushes: every state, version, log entry and message shows them masked.
 */
export class DeviceConfigService {
  private readonly listeners: ((outcome: ConfigOutcome) => void)[] = [];
  private schemaCache: Record<string, Record<string, unknown>> | undefined;
  /** Each device's messages, handled in the order they arrived (see `inOrder`). */
  private readonly deviceQueue = new KeyedQueue();
  private resumedAt = Number.NEGATIVE_INFINITY;
  /**
   * Rows of devices coming online or reporting, read together: every connect does both, and in a
   * storm one statement each per device was a measurable share of the server.
   */
  private readonly rowsOfDevices = new BatchedLookup<string, DeviceConfigTable>(
    async (deviceIds) =>
      new Map((await this.repository.findAmong(deviceIds)).map((row) => [row.device_id, row])),
    DEVICES_COMING_ONLINE,
  );

  /** Series of devices announced together (each boot report of a connect storm is announced). */
  private readonly seriesOfDevices = new BatchedLookup<
    string,
    { id: string; company_id: string; series: string }
  >(
    async (deviceIds) =>
      new Map((await this.repository.seriesAmong(deviceIds)).map((row) => [row.id, row])),
    DEVICES_COMING_ONLINE,
  );

  constructor(
    private readonly repository: DeviceConfigRepository,
    private readonly devices: DeviceService,
    private readonly logs: DeviceLogService,
    private readonly gateway: Pick<GatewayService, 'send' | 'heldDevices'>,
    private readonly bus: Bus,
    private readonly log: FastifyBaseLogger,
    private readonly clock: Clock,
  ) {
    bus.subscribe('bus.resumed', () => {
      this.resumedAt = this.clock();
      this.resendHeld().catch((err: unknown) =>
        this.log.warn({ err }, 'configurations not re-sent after the bus gap'),
      );
    });
  }

  /** The deadline sweep, every second on one node of the cluster. */
  scheduledJobs(): JobSpec[] {
    return [
      {
        name: 'device-config.deadline-sweep',
        everyMs: SWEEP_INTERVAL_MS,
        scope: 'cluster',
        run: async () => {
          if (!this.bus.connected || this.clock() - this.resumedAt < RESUME_GRACE_MS) return;
          await this.sweepUnanswered();
        },
        onFailure: (err) => this.log.warn({ err }, 'configuration deadline sweep failed'),
      },
    ];
  }

  // ---------------------------------------------------------------- API

  async state(scope: Scope, deviceId: string): Promise<TDeviceConfigState> {
    const device = await this.devices.get(scope, deviceId);
    return toState(
      device.id,
      device.series as TDeviceSeries,
      await this.repository.find(scope.companyId, device.id),
    );
  }

  /** The JSON Schema of every series' configuration (made once: they never change at run time). */
  schemas(): Record<string, Record<string, unknown>> {
    this.schemaCache ??= Object.fromEntries(DEVICE_SERIES.map((s) => [s, configJsonSchema(s)]));
    return this.schemaCache;
  }

  /**
   * Sets the desired configuration of a device: the edit (secrets sent back masked left out) is
   * checked against its series' schema, field by field (400 naming the field; nothing stored or
   * sent), and against the version the editor started from (409 when someone changed it
   * meanwhile), then merged into what the platform knows of the device. Returns the new state and
   * whether it went out now.
   */
  async set(
    scope: Scope,
    input: TDeviceConfigSet,
    origin: ActionOrigin,
  ): Promise<{ state: TDeviceConfigState; sent: boolean }> {
    const device = await this.devices.get(scope, input.deviceId);
    const series = device.series as TDeviceSeries;
    const edit = withoutMaskedSecrets(series, input.config);
    const problem = configPatchProblem(series, edit);
    if (problem) {
      throw new AppError('deviceConfigInvalid', 400, { ...problemParts(problem), series });
    }
    const row = await this.repository.find(scope.companyId, device.id);
    const current = row?.desired_version ?? 0;
    if (input.baseVersion !== current) {
      throw new AppError('deviceConfigStale', 409, { version: current });
    }
    const target: ConfigTarget = {
      id: device.id,
      companyId: scope.companyId,
      sn: device.sn,
      address: device.tagCode,
      series,
      online: device.status === 'online',
      ownerName: device.ownerName,
    };
    const version = await this.commit(target, row, edit, {
      actor: { username: scope.username, ip: origin.ip },
      campaignId: null,
    });
    if (version === null) {
      const now = await this.repository.find(scope.companyId, device.id);
      throw new AppError('deviceConfigStale', 409, { version: now?.desired_version ?? 0 });
    }
    return {
      state: toState(device.id, series, await this.repository.find(scope.companyId, device.id)),
      sent: target.online,
    };
  }

  async history(scope: Scope, query: TConfigHistoryQuery): Promise<Page<TConfigVersion>> {
    const device = await this.devices.get(scope, query.deviceId);
    const series = device.series as TDeviceSeries;
    const { records, total } = await this.repository.history(scope.companyId, device.id, query);
    return pageResult(
      records.map((r) => ({
        version: r.version,
        config: maskSecrets(series, parseConfig(r.config_json) ?? {}),
        changedPaths: JSON.parse(r.changed_paths) as string[],
        changedBy: r.changed_by,
        changedAt: iso(r.create_time),
        campaignId: r.campaign_id,
      })),
      total,
      query,
    );
  }

  // ---------------------------------------------------------------- campaigns

  /**
   * Applies a partial change (JSON Merge Patch) to a device's configuration, for a bulk
   * configuration campaign: checked against the series' schema field by field, merged into what
   * the platform knows of the device (nothing more: fields nobody set or reported stay unknown and
   * unsent), written as a new version and sent now when the device is online, else on its next
   * online status. Returns the version to wait for ({@link onOutcome}), or why it could not be
   * applied to this device.
   */
  async applyPatch(
    device: { id: string; companyId: string; sn: string; series: string },
    patch: TDeviceConfigObject,
    actor: string | null,
    campaignId: string,
  ): Promise<{ version: number } | { error: string }> {
    for (let attempt = 0; attempt < APPLY_ATTEMPTS; attempt += 1) {
      const target = await this.repository.target(device.companyId, device.id);
      if (!target) return { error: 'device not found' };
      const series = target.series as TDeviceSeries;
      const change = withoutMaskedSecrets(series, patch);
      const problem = configPatchProblem(series, change);
      if (problem) return { error: problem };
      const row = await this.repository.find(device.companyId, device.id);
      const version = await this.commit(target, row, change, {
        actor: { username: actor, ip: null },
        campaignId,
      });
      if (version !== null) return { version };
    }
    return { error: 'the configuration was being changed by someone else; try again' };
  }

  /** A configuration the device sent (a `get_config` answer) as anyone may see it. */
  async masked(device: DeviceRef, config: TDeviceConfigObject): Promise<TDeviceConfigObject> {
    const target = await this.repository.target(device.companyId, device.id);
    // A device deleted meanwhile: every series' secrets, rather than none.
    const series: readonly TDeviceSeries[] = target
      ? [target.series as TDeviceSeries]
      : DEVICE_SERIES;
    return series.reduce<TDeviceConfigObject>((shown, s) => maskSecrets(s, shown), config);
  }

  /** Hears when a device applies or refuses a desired version (bulk configuration campaigns). */
  onOutcome(listener: (outcome: ConfigOutcome) => void): void {
    this.listeners.push(listener);
  }

  // ---------------------------------------------------------------- devices (uplink handlers)

  /**
   * `up/config/reported` (also a `get_config` answer). An `ok` report of the desired version (or
   * a later one) makes it applied; an `error` report while it is pending makes it failed with the
   * device's reason (the device names the version it kept, as the protocol says, or the one it
   * refused). Any report updates what the device runs.
   */
  configReported(device: DeviceRef, payload: TConfigReportedPayload, receivedAt: number) {
    return this.inOrder(device.id, () => this.handleReport(device, payload, receivedAt));
  }

  /** A device came online: the desired version it has not answered yet goes out now. */
  deviceOnline(device: DeviceRef): Promise<void> {
    return this.inOrder(device.id, () => this.pushPending(device));
  }

  // ---------------------------------------------------------------- deadlines

  /**
   * Ends every push an online device left unanswered past its deadline as failed (`no-answer`),
   * so that a bulk configuration always finishes (a scheduled job every second; tests call it after
   * moving the clock). Returns how many this call ended.
   */
  async sweepUnanswered(): Promise<number> {
    const now = this.clock();
    let ended = 0;
    for (;;) {
      const rows = await this.repository.unanswered(now, SWEEP_BATCH);
      for (const row of rows) {
        const afterSec = Math.round(((row.deadline ?? now) - (row.sent_at ?? now)) / 1000);
        const failure: Failure = { code: 'no-answer', error: String(afterSec) };
        const moved = await this.repository.transition(
          row.company_id,
          row.device_id,
          row.desired_version,
          ['pending'],
          'failed',
          failure,
        );
        if (!moved) continue;
        ended += 1;
        await this.settle(row, 'timeout', failureText({ code: 'no-answer', afterSec }));
        await this.publish({ id: row.device_id, companyId: row.company_id });
      }
      if (rows.length < SWEEP_BATCH) return ended;
    }
  }

  // ---------------------------------------------------------------- internals

  /**
   * Handles one device's reports and online statuses in the order they arrived: the gateway hands
   * them over without waiting, and a boot report handled after the answer to the push that
   * followed it would look like a step back.
   */
  private inOrder(deviceId: string, work: () => Promise<void>): Promise<void> {
    return this.deviceQueue.run(deviceId, work);
  }

  /**
   * The bus is back after a gap: a version another node sent meanwhile to a device this node holds
   * went nowhere, so every held device with a version still to answer gets it again, as when it
   * comes online.
   */
  private async resendHeld(): Promise<void> {
    const held = this.gateway.heldDevices();
    for (let at = 0; at < held.length; at += RESEND_BATCH) {
      const batch = held.slice(at, at + RESEND_BATCH);
      const pending = new Set(await this.repository.pendingAmong(batch.map((d) => d.id)));
      for (const device of batch) if (pending.has(device.id)) await this.deviceOnline(device);
    }
  }

  /** The device's row, read in a batch with those of other devices reporting or coming online. */
  private async rowOf(device: DeviceRef): Promise<DeviceConfigTable | undefined> {
    const row = await this.rowsOfDevices.get(device.id);
    return row?.company_id === device.companyId ? row : undefined;
  }

  /** The device's series, read in a batch with those of other devices reporting together. */
  private async seriesOf(device: { id: string; companyId: string }): Promise<string | undefined> {
    const row = await this.seriesOfDevices.get(device.id);
    return row?.company_id === device.companyId ? row.series : undefined;
  }

  /** Sends the desired version the device has not answered yet, if there is one. */
  private async pushPending(device: DeviceRef): Promise<void> {
    const row = await this.rowOf(device);
    if (row?.state !== 'pending' || row.desired_version <= (row.reported_version ?? 0)) return;
    const config = parseConfig(row.desired_json);
    const target = await this.repository.target(device.companyId, device.id);
    if (!config || !target) return;
    await this.push(target, row.desired_version, config, row, {
      username: row.desired_by,
      ip: null,
    });
  }

  private async handleReport(
    device: DeviceRef,
    payload: TConfigReportedPayload,
    receivedAt: number,
  ): Promise<void> {
    const row = await this.rowOf(device);
    const ok = payload.result === 'ok';
    const desired = row?.desired_version ?? 0;
    // Firmware that echoes the refused version still runs what it had, not that version.
    const echoesRefused = !ok && desired > 0 && payload.version === desired;
    let configJson: string | null = null;
    if (payload.config) configJson = JSON.stringify(payload.config);
    else if (ok && row && payload.version === desired)
      configJson = JSON.stringify(knownConfig(row));
    else configJson = row?.reported_json ?? null;
    // Every connect repeats the report (the protocol asks for it at boot): one that says what is
    // known already, with nothing waiting on it, costs this read and nothing more.
    const settled = desired === 0 || (row?.state === 'applied' && payload.version >= desired);
    if (
      row &&
      ok &&
      settled &&
      payload.version === row.reported_version &&
      configJson === row.reported_json
    ) {
      return;
    }
    const saved = await this.repository.saveReported(device.companyId, device.id, {
      version: echoesRefused ? null : payload.version,
      configJson,
      at: receivedAt,
    });

    if (row && desired > 0) {
      const move = (from: string[], to: string, failure: Failure | null) =>
        this.repository.transition(device.companyId, device.id, desired, from, to, failure);
      if (ok && payload.version >= desired) {
        if (await move(['pending'], 'applied', null)) {
          await this.settle(row, 'succeeded', null);
        } else {
          // A device that applied a version it once refused (changed locally, say).
          await move(['failed'], 'applied', null);
        }
      } else if (ok && row.state === 'applied') {
        // The device went back to an older version (a factory reset, reported at boot): it gets
        // the desired one again, now that it is online.
        if (await move(['applied'], 'pending', null)) await this.pushPending(device);
      } else if (!ok && row.state === 'pending') {
        const failure: Failure = { code: 'device-refused', error: payload.error ?? null };
        if (await move(['pending'], 'failed', failure)) {
          const reason = payload.error ?? '';
          await this.settle(row, 'failed', failureText({ code: 'device-refused', reason }));
        }
      }
      await this.publish(device);
      return;
    }
    // Nothing desired: the row as written is what there is to announce (a new device's first
    // boot report, once per device of a connect storm, reads nothing more).
    const series = await this.seriesOf(device);
    if (series !== undefined) await this.publish({ ...device, series }, saved);
  }

  /**
   * Merges `change` into what the platform knows of the device and writes it as the next version
   * if the desired version is still the one `row` shows; null when it is not (someone else changed
   * it first). A push of the previous version the device has not answered ends as `timeout` in
   * the device log.
   */
  private async commit(
    target: ConfigTarget,
    row: DeviceConfigTable | undefined,
    change: TDeviceConfigObject,
    how: { actor: Actor; campaignId: string | null },
  ): Promise<number | null> {
    const series = target.series as TDeviceSeries;
    const before = knownConfig(row);
    const merged = mergePatch(before, change);
    const config = isConfigObject(merged) ? merged : before;
    // Above what the device reported too: a device that numbered a change of its own higher must
    // still take the new version for a new one.
    const version = Math.max(row?.desired_version ?? 0, row?.reported_version ?? 0) + 1;
    const saved = await this.repository.saveVersion({
      deviceId: target.id,
      companyId: target.companyId,
      baseVersion: row?.desired_version ?? 0,
      version,
      configJson: JSON.stringify(config),
      changedPaths: changedPaths(before, config),
      changedBy: how.actor.username,
      campaignId: how.campaignId,
      logId: null,
      at: this.clock(),
    });
    if (!saved) return null;
    if (row?.state === 'pending' && row.log_id) await this.logs.setState(row.log_id, 'timeout');
    if (target.online) {
      await this.push(target, version, config, { log_id: null, sent_at: null }, how.actor);
    } else {
      // Logged now, waiting for the device: who asked, and from where, is known only now.
      const payload = downPayload(series, version, config);
      const logId = await this.writeLog(target, payload, how.actor, 'pending');
      await this.repository.markSent(target.companyId, target.id, version, logId, null);
      await this.publish(target);
      // Presence is written in batches: a device that connected in the last moments is online
      // before the database says so, and its online status may already have been handled. A
      // downlink to a device connected nowhere goes nowhere; its next online status re-sends it.
      await this.gateway.send(target.address, 'config', undefined, payload);
    }
    return version;
  }

  /**
   * Sends `down/config` to an online device, which has until the deadline to answer. A push
   * logged while the device was offline is this one; a push sent before (to a connection that
   * ended without an answer) ends as `timeout` and a new entry is written. The state is published
   * before the downlink leaves, so that the device's answer is always announced after it.
   */
  private async push(
    target: ConfigTarget,
    version: number,
    config: TDeviceConfigObject,
    logged: Pick<DeviceConfigTable, 'log_id' | 'sent_at'>,
    actor: Actor,
  ): Promise<void> {
    const payload = downPayload(target.series as TDeviceSeries, version, config);
    let logId: string;
    if (logged.log_id && logged.sent_at === null) {
      logId = logged.log_id;
      await this.logs.setState(logId, 'sent');
    } else {
      if (logged.log_id) await this.logs.setState(logged.log_id, 'timeout');
      logId = await this.writeLog(target, payload, actor, 'sent');
    }
    const at = this.clock();
    await this.repository.markSent(target.companyId, target.id, version, logId, {
      at,
      deadline: at + ANSWER_TIMEOUT_MS,
    });
    await this.publish(target);
    await this.gateway.send(target.address, 'config', undefined, payload);
  }

  private writeLog(
    target: ConfigTarget,
    payload: TConfigDownPayload,
    actor: Actor,
    state: TDeviceLogState,
  ): Promise<string> {
    return this.logs.write({
      companyId: target.companyId,
      deviceId: target.id,
      sn: target.sn,
      requestUrl: downTopic(target.address, 'config'),
      sourceUser: actor.username,
      targetUser: target.ownerName,
      subject: 'config.push',
      content: maskedPayload(target.series as TDeviceSeries, payload),
      sourceIp: actor.ip,
      state,
    });
  }

  /**
   * The desired version of `row` was answered (or not in time): its push's log entry and the
   * listeners learn how it ended.
   */
  private async settle(
    row: DeviceConfigTable,
    state: 'succeeded' | 'failed' | 'timeout',
    error: string | null,
  ) {
    const version = row.desired_version;
    const config = parseConfig(row.desired_json);
    if (row.log_id && config) {
      const series = (await this.repository.target(row.company_id, row.device_id))?.series;
      if (series !== undefined) {
        const content = maskedPayload(
          series as TDeviceSeries,
          downPayload(series as TDeviceSeries, version, config),
        );
        await this.logs.setState(
          row.log_id,
          state,
          error === null ? content : { ...content, error },
        );
      }
    }
    const outcome: ConfigOutcome = {
      companyId: row.company_id,
      deviceId: row.device_id,
      version,
      campaignId: row.campaign_id,
      ok: state === 'succeeded',
      error,
    };
    for (const listener of this.listeners) {
      try {
        listener(outcome);
      } catch (err) {
        this.log.error({ err, outcome }, 'configuration outcome listener failed');
      }
    }
  }

  /** Sockets watching the device get its configuration state as it is now (secrets masked). */
  private async publish(
    device: { id: string; companyId: string; series?: string },
    written?: DeviceConfigTable,
  ) {
    const series =
      device.series ?? (await this.repository.target(device.companyId, device.id))?.series;
    if (series === undefined) return;
    const row = written ?? (await this.repository.find(device.companyId, device.id));
    await this.bus.publish('device.config', {
      companyId: device.companyId,
      config: toState(device.id, series as TDeviceSeries, row),
    });
  }
}
