import {
  CONFIG_DEFAULTS,
  DEVICE_SERIES,
  changedPaths,
  configJsonSchema,
  configProblem,
  isConfigObject,
  downTopic,
  mergePatch,
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
import type { DeviceLogService } from '../device/device-log.service.js';
import type { ActionOrigin, DeviceService } from '../device/device.service.js';
import { iso, isoOrNull, pageResult, type Page } from '../device/paging.js';
import type { GatewayService } from '../device-gateway/gateway.service.js';
import type { DeviceRef } from '../device-gateway/uplink-sink.js';
import type { ConfigTarget, DeviceConfigRepository } from './config.repository.js';

/** What became of a desired version: the device applied it (`ok`) or refused it. */
export interface ConfigOutcome {
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
/** Keys whose values are secrets: the device log shows them masked. */
const SECRET_KEY = /password/i;
const MASK = '******';

function parseConfig(text: string | null | undefined): TDeviceConfigObject | null {
  if (!text) return null;
  const value: unknown = JSON.parse(text);
  return isConfigObject(value) ? value : null;
}

/**
 * The configuration as the device log keeps it: secrets (Wi-Fi, APN, upstream MQTT passwords)
 * masked, because the log is read by users who may not see the configuration itself.
 */
function masked(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => masked(v));
  if (isConfigObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, masked(v, k)]));
  }
  return typeof value === 'string' && value !== '' && SECRET_KEY.test(key) ? MASK : value;
}

/** `config.<path>: <rule>` parts of a configuration problem (`configProblem`'s `path: rule`). */
function problemParts(problem: string): { path: string; rule: string } {
  const at = problem.indexOf(': ');
  return at < 0
    ? { path: '(config)', rule: problem }
    : { path: problem.slice(0, at), rule: problem.slice(at + 2) };
}

function toState(deviceId: string, series: string, row: DeviceConfigTable | undefined) {
  const desired = row && row.desired_version > 0 ? parseConfig(row.desired_json) : null;
  return {
    deviceId,
    series: series as TDeviceSeries,
    desired:
      row && desired
        ? {
            version: row.desired_version,
            config: desired,
            changedBy: row.desired_by,
            changedAt: iso(row.desired_at ?? 0),
          }
        : null,
    reported:
      row && row.reported_at !== null
        ? {
            version: row.reported_version ?? 0,
            config: parseConfig(row.reported_json),
            reportedAt: iso(row.reported_at),
          }
        : null,
    state: (row?.state ?? 'none') as TConfigState,
    error: row?.error ?? null,
    sentAt: isoOrNull(row?.sent_at ?? null),
  } satisfies TDeviceConfigState;
}

/**
 * Remote configuration (docs/device-protocol.md, "Remote configuration"). Each change of a
 * device's desired configuration is a new version (previous + 1, kept in the history with the
 * paths it changed and who changed it). It is sent as `down/config` at once when the device is
 * online, else when its next online status arrives, and again after every reconnect until the
 * device reports it (`up/config/reported`): then it is `applied`, or `failed` with the device's
 * reason. A refused version is not sent again: the device would refuse it again, so it waits for
 * the next change. Every push is a device log entry whose state follows the device's answer.
 */
export class DeviceConfigService {
  private readonly listeners: ((outcome: ConfigOutcome) => void)[] = [];
  private schemaCache: Record<string, Record<string, unknown>> | undefined;

  constructor(
    private readonly repository: DeviceConfigRepository,
    private readonly devices: DeviceService,
    private readonly logs: DeviceLogService,
    private readonly gateway: Pick<GatewayService, 'send'>,
    private readonly bus: Bus,
    private readonly log: FastifyBaseLogger,
    private readonly clock: Clock,
  ) {}

  // ---------------------------------------------------------------- API

  async state(scope: Scope, deviceId: string): Promise<TDeviceConfigState> {
    const device = await this.devices.get(scope, deviceId);
    return toState(
      device.id,
      device.series,
      await this.repository.find(scope.companyId, device.id),
    );
  }

  /** The JSON Schema of every series' configuration (made once: they never change at run time). */
  schemas(): Record<string, Record<string, unknown>> {
    this.schemaCache ??= Object.fromEntries(DEVICE_SERIES.map((s) => [s, configJsonSchema(s)]));
    return this.schemaCache;
  }

  /**
   * Sets the whole desired configuration of a device: checked against its series' schema (400
   * naming the field; nothing stored or sent) and against the version the editor started from
   * (409 when someone changed it meanwhile). Returns the new state and whether it went out now.
   */
  async set(
    scope: Scope,
    input: TDeviceConfigSet,
    origin: ActionOrigin,
  ): Promise<{ state: TDeviceConfigState; sent: boolean }> {
    const device = await this.devices.get(scope, input.deviceId);
    const problem = configProblem(device.series, input.config);
    if (problem) {
      throw new AppError('deviceConfigInvalid', 400, {
        ...problemParts(problem),
        series: device.series,
      });
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
      series: device.series,
      online: device.status === 'online',
      ownerName: device.ownerName,
    };
    const version = await this.commit(target, row, input.config, {
      actor: { username: scope.username, ip: origin.ip },
      campaignId: null,
    });
    if (version === null) {
      const now = await this.repository.find(scope.companyId, device.id);
      throw new AppError('deviceConfigStale', 409, { version: now?.desired_version ?? 0 });
    }
    return {
      state: toState(
        device.id,
        device.series,
        await this.repository.find(scope.companyId, device.id),
      ),
      sent: target.online,
    };
  }

  async history(scope: Scope, query: TConfigHistoryQuery): Promise<Page<TConfigVersion>> {
    const device = await this.devices.get(scope, query.deviceId);
    const { records, total } = await this.repository.history(scope.companyId, device.id, query);
    return pageResult(
      records.map((r) => ({
        version: r.version,
        config: parseConfig(r.config_json) ?? {},
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
   * configuration campaign: on top of the desired configuration, else what the device reported,
   * else its series' factory settings; checked against the schema; written as a new version and
   * sent now when the device is online, else on its next online status. Returns the version to
   * wait for ({@link onOutcome}), or why it could not be applied to this device.
   */
  async applyPatch(
    device: { id: string; companyId: string; sn: string; series: string },
    patch: unknown,
    actor: string | null,
    campaignId: string,
  ): Promise<{ version: number } | { error: string }> {
    for (let attempt = 0; attempt < APPLY_ATTEMPTS; attempt += 1) {
      const target = await this.repository.target(device.companyId, device.id);
      if (!target) return { error: 'device not found' };
      const series = target.series as TDeviceSeries;
      const row = await this.repository.find(device.companyId, device.id);
      const base =
        parseConfig(row?.desired_json) ??
        parseConfig(row?.reported_json) ??
        CONFIG_DEFAULTS[series];
      const config = mergePatch(base, patch);
      if (!isConfigObject(config)) return { error: '(config): must be an object' };
      const problem = configProblem(series, config);
      if (problem) return { error: problem };
      const version = await this.commit(target, row, config, {
        actor: { username: actor, ip: null },
        campaignId,
      });
      if (version !== null) return { version };
    }
    return { error: 'the configuration was being changed by someone else; try again' };
  }

  /** Hears when a device applies or refuses a desired version (bulk configuration campaigns). */
  onOutcome(listener: (outcome: ConfigOutcome) => void): void {
    this.listeners.push(listener);
  }

  // ---------------------------------------------------------------- devices (uplink handlers)

  /**
   * `up/config/reported` (also a `get_config` answer). An `ok` report of the desired version (or
   * a later one) makes it applied; an `error` report of the desired version makes it failed with
   * the device's reason. Any report updates what the device runs.
   */
  async configReported(
    device: DeviceRef,
    payload: TConfigReportedPayload,
    receivedAt: number,
  ): Promise<void> {
    const row = await this.repository.find(device.companyId, device.id);
    const ok = payload.result === 'ok';
    const desired = row?.desired_version ?? 0;
    let configJson: string | null = null;
    if (payload.config) configJson = JSON.stringify(payload.config);
    else if (ok && row && payload.version === desired) configJson = row.desired_json;
    // A refusal leaves the device on what it had.
    else if (!ok) configJson = row?.reported_json ?? null;
    await this.repository.saveReported(device.companyId, device.id, {
      // A refused version is not what the device runs.
      version: ok ? payload.version : null,
      configJson,
      at: receivedAt,
    });

    if (row && desired > 0) {
      const move = (from: string[], to: string, error: string | null) =>
        this.repository.transition(device.companyId, device.id, desired, from, to, error);
      if (ok && payload.version >= desired) {
        if (await move(['pending'], 'applied', null)) {
          await this.settle(row, 'succeeded', null);
        } else {
          // A device that applied a version it once refused (changed locally, say).
          await move(['failed'], 'applied', null);
        }
      } else if (ok && row.state === 'applied') {
        // The device went back to an older version (a factory reset): the desired one is sent
        // again when it next comes online.
        await move(['applied'], 'pending', null);
      } else if (!ok && payload.version === desired) {
        const error = payload.error ?? 'refused by the device';
        if (await move(['pending'], 'failed', error)) await this.settle(row, 'failed', error);
      }
    }
    await this.publish(device);
  }

  /** A device came online: the desired version it has not reported yet goes out now. */
  async deviceOnline(device: DeviceRef): Promise<void> {
    const row = await this.repository.pending(device.companyId, device.id);
    if (!row) return;
    const config = parseConfig(row.desired_json);
    const target = await this.repository.target(device.companyId, device.id);
    if (!config || !target) return;
    await this.push(target, row.desired_version, config, row, {
      username: row.desired_by,
      ip: null,
    });
  }

  // ---------------------------------------------------------------- internals

  /**
   * Writes `config` as the next version if the desired version is still the one `row` shows;
   * null when it is not (someone else changed it first). A push of the previous version the
   * device has not answered ends as `timeout` in the device log.
   */
  private async commit(
    target: ConfigTarget,
    row: DeviceConfigTable | undefined,
    config: TDeviceConfigObject,
    change: { actor: Actor; campaignId: string | null },
  ): Promise<number | null> {
    const series = target.series as TDeviceSeries;
    const before =
      parseConfig(row?.desired_json) ?? parseConfig(row?.reported_json) ?? CONFIG_DEFAULTS[series];
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
      changedBy: change.actor.username,
      campaignId: change.campaignId,
      logId: null,
      at: this.clock(),
    });
    if (!saved) return null;
    if (row?.state === 'pending' && row.log_id) await this.logs.setState(row.log_id, 'timeout');
    if (target.online) {
      await this.push(target, version, config, { log_id: null, sent_at: null }, change.actor);
    } else {
      // Logged now, waiting for the device: who asked, and from where, is known only now.
      const logId = await this.writeLog(target, version, config, change.actor, 'pending');
      await this.repository.markSent(target.companyId, target.id, version, logId, null);
      await this.publish(target);
      // Presence is written in batches: a device that connected in the last moments is online
      // before the database says so, and its online status may already have been handled. A
      // downlink to a device connected nowhere goes nowhere; its next online status re-sends it.
      await this.gateway.send(target.address, 'config', undefined, { version, config });
    }
    return version;
  }

  /**
   * Sends `down/config`. A push logged while the device was offline is this one; a push sent
   * before (to a connection that ended without an answer) ends as `timeout` and a new entry is
   * written. The state is published before the downlink leaves, so that the device's answer is
   * always announced after it.
   */
  private async push(
    target: ConfigTarget,
    version: number,
    config: TDeviceConfigObject,
    logged: Pick<DeviceConfigTable, 'log_id' | 'sent_at'>,
    actor: Actor,
  ): Promise<void> {
    let logId: string;
    if (logged.log_id && logged.sent_at === null) {
      logId = logged.log_id;
      await this.logs.setState(logId, 'sent');
    } else {
      if (logged.log_id) await this.logs.setState(logged.log_id, 'timeout');
      logId = await this.writeLog(target, version, config, actor, 'sent');
    }
    await this.repository.markSent(target.companyId, target.id, version, logId, this.clock());
    await this.publish(target);
    await this.gateway.send(target.address, 'config', undefined, { version, config });
  }

  private writeLog(
    target: ConfigTarget,
    version: number,
    config: TDeviceConfigObject,
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
      content: { version, config: masked(config) },
      sourceIp: actor.ip,
      state,
    });
  }

  /** The device answered the desired version of `row`: its push's log entry and the listeners. */
  private async settle(
    row: DeviceConfigTable,
    state: 'succeeded' | 'failed',
    error: string | null,
  ) {
    const version = row.desired_version;
    if (row.log_id) {
      const content = { version, config: masked(parseConfig(row.desired_json)) };
      await this.logs.setState(row.log_id, state, error === null ? content : { ...content, error });
    }
    const outcome: ConfigOutcome = {
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

  /** Sockets watching the device get its configuration state as it is now. */
  private async publish(device: { id: string; companyId: string; series?: string }) {
    const series =
      device.series ?? (await this.repository.target(device.companyId, device.id))?.series;
    if (series === undefined) return;
    const row = await this.repository.find(device.companyId, device.id);
    await this.bus.publish('device.config', {
      companyId: device.companyId,
      config: toState(device.id, series, row),
    });
  }
}
