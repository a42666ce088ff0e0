import type { TAlarmScope, TTelemetryPayload } from '@blrms/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../../platform/bus/bus.js';
import type { Clock } from '../../platform/clock.js';
import type { JobSpec } from '../../platform/scheduler/scheduler.js';
import type { CampaignEngine } from '../campaign/campaign-engine.service.js';
import type { DeviceConfigService } from '../device-config/config.service.js';
import type { DeviceEventInput, DeviceRef } from '../device-gateway/uplink-sink.service.js';
import { isReading, needsDeviceInfo, telemetryMet } from './alarm-conditions.rules.js';
import type { AlarmRepository, AlarmRuleRow } from './alarm.repository.js';
import {
  compileRule,
  openKeyOf,
  type AlarmService,
  type CompiledRule,
  type Trigger,
} from './alarm.service.js';

/** A company's enabled rules, indexed the way messages look them up. */
interface CompanyRules {
  /** Telemetry rules by the value they watch. */
  telemetry: Map<string, CompiledRule[]>;
  /** Event rules by event code. */
  events: Map<string, CompiledRule[]>;
  offline: CompiledRule[];
  configFailed: CompiledRule[];
  upgradeFailed: CompiledRule[];
  /** Some telemetry or event rule is scoped by series or group: devices must be known first. */
  needsInfo: boolean;
}

/** A telemetry condition that holds for a device: since when, and whether it raised already. */
interface Holding {
  key: string;
  rule: CompiledRule;
  deviceId: string;
  since: number;
  deadline: number;
  value: number;
  lastAt: number;
  raised: boolean;
  /** Messages meeting the condition since the alarm's count was last written. */
  repeats: number;
  flushedAt: number;
}

/** What the engine knows of a device's series and group. */
interface DeviceInfo {
  groupId: string | null;
  series: string;
  at: number;
}

export interface AlarmEngineOptions {
  /** How often pending durations are checked (node job). */
  sweepMs: number;
  /** How often offline devices are checked (cluster job). */
  offlineMs: number;
  /** Repeats of an open telemetry alarm are written at most this often. */
  repeatFlushMs: number;
  /** A device's series and group are looked up again after this long. */
  deviceTtlMs: number;
}

export const DEFAULT_ENGINE_OPTIONS: AlarmEngineOptions = {
  sweepMs: 250,
  offlineMs: 10_000,
  repeatFlushMs: 5_000,
  deviceTtlMs: 60_000,
};

/** Devices whose series and group are known to the node at most (oldest dropped first). */
const DEVICE_CACHE_MAX = 200_000;
/** Messages held for devices being looked up, per device and in all. */
const DEFERRED_PER_DEVICE = 4;
const DEFERRED_DEVICES_MAX = 10_000;
/** A condition that held with no message for this long is forgotten (the device went quiet). */
const STALE_HOLDING_MS = 24 * 3600_000;
const OFFLINE_BATCH = 500;
const LOOKUP_DELAY_MS = 10;

/**
 * Evaluates the alarm rules. Telemetry and events are evaluated on the node that receives them,
 * in memory, on the ingest path: a message costs a map lookup by company, then by telemetry key
 * or event code, and only messages that change something reach the database (a raise, a clear,
 * a repeat count written at most every few seconds). Durations are held per rule and device in
 * memory; a node job raises those whose duration passed without waiting for the next message.
 * Offline devices are found by a cluster job; failed configuration pushes and upgrades come from
 * their modules' listeners. Every node keeps the enabled rules of every company (reloaded on
 * `alarm.rules-changed`) and the keys of the open alarms (kept by `alarm.changed`), so that a
 * value back in range costs a set lookup unless an alarm is open.
 */
export class AlarmEngine {
  private companies = new Map<string, CompanyRules>();
  /** Held conditions by device, then by rule: a device with none costs one lookup a message. */
  private readonly holdings = new Map<string, Map<string, Holding>>();
  /** Holdings whose duration has not passed yet. */
  private readonly waiting = new Set<Holding>();
  /** Raised holdings with repeats not written yet. */
  private readonly repeating = new Set<Holding>();
  /** The open alarms of every company: rules by device. */
  private readonly open = new OpenAlarms();
  private readonly deviceInfo = new Map<string, DeviceInfo | null>();
  private readonly lookups = new Map<string, Set<string>>();
  private readonly deferred = new Map<string, (() => void)[]>();
  private lookupTimer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly unsubscribe: (() => void)[] = [];
  private loading: Promise<void> = Promise.resolve();
  private staleCheckedAt = 0;
  private readonly options: AlarmEngineOptions;

  constructor(
    private readonly repository: AlarmRepository,
    private readonly alarms: AlarmService,
    private readonly bus: Bus,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    options: Partial<AlarmEngineOptions> = {},
  ) {
    this.options = { ...DEFAULT_ENGINE_OPTIONS, ...options };
  }

  /** The configuration and campaign modules tell how pushes and upgrades ended. */
  listen(deps: {
    configs: Pick<DeviceConfigService, 'onOutcome'>;
    campaigns: Pick<CampaignEngine, 'onUpgradeOutcome'>;
  }): void {
    deps.configs.onOutcome((o) =>
      this.outcome(o.companyId, o.deviceId, 'configFailed', o.ok, `cfg:${o.version}`, o.error),
    );
    deps.campaigns.onUpgradeOutcome((o) =>
      this.outcome(o.companyId, o.deviceId, 'upgradeFailed', o.ok, `ota:${o.campaignId}`, o.error),
    );
  }

  async start(): Promise<void> {
    this.unsubscribe.push(
      this.bus.subscribe('alarm.rules-changed', ({ companyId }) =>
        this.reload(() => this.loadCompany(companyId)),
      ),
      this.bus.subscribe('bus.resumed', () => {
        this.deviceInfo.clear();
        this.reload(() => this.loadAll());
      }),
      this.bus.subscribe('alarm.changed', ({ alarm }) => {
        if (!alarm.ruleId) return;
        if (alarm.state === 'cleared') this.open.delete(alarm.ruleId, alarm.deviceId);
        else this.open.add(alarm.ruleId, alarm.deviceId);
      }),
      this.bus.subscribe('device.live', ({ devices }) => {
        const now = this.clock();
        for (const d of devices)
          this.remember(d.id, { groupId: d.groupId, series: d.series, at: now });
      }),
      this.bus.subscribe('device.kick', ({ deviceIds, reason }) => {
        if (reason !== 'device-deleted' || !deviceIds?.length) return;
        this.forgetDevices(deviceIds);
        this.track(this.alarms.clearDevices(deviceIds));
      }),
    );
    this.reload(() => this.loadAll());
    await this.loading;
  }

  async close(): Promise<void> {
    for (const off of this.unsubscribe.splice(0)) off();
    clearTimeout(this.lookupTimer);
    await this.idle();
  }

  /** Resolves once rule reloads and the database work started so far have finished (tests). */
  async idle(): Promise<void> {
    await this.loading;
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  scheduledJobs(): JobSpec[] {
    return [
      {
        name: 'alarm.durations',
        everyMs: this.options.sweepMs,
        scope: 'node',
        run: async () => this.sweep(),
      },
      {
        name: 'alarm.offline',
        everyMs: this.options.offlineMs,
        scope: 'cluster',
        run: () => this.sweepOffline(),
      },
    ];
  }

  // ---------------------------------------------------------------- rules

  private reload(load: () => Promise<void>): void {
    this.loading = this.loading
      .then(load)
      .catch((err: unknown) => this.log.error({ err }, 'alarm rules not loaded'));
  }

  private async loadAll(): Promise<void> {
    const rows = await this.repository.enabledRules();
    const byCompany = new Map<string, AlarmRuleRow[]>();
    for (const row of rows) {
      const list = byCompany.get(row.company_id) ?? [];
      list.push(row);
      byCompany.set(row.company_id, list);
    }
    const companies = new Map<string, CompanyRules>();
    for (const [companyId, list] of byCompany) companies.set(companyId, this.index(list));
    this.companies = companies;
    this.dropStale(() => true);
    const open = await this.repository.openKeys();
    this.open.clear();
    for (const row of open) if (row.open_key) this.open.addKey(row.open_key);
  }

  private async loadCompany(companyId: string): Promise<void> {
    const rows = await this.repository.enabledRulesOf(companyId);
    if (rows.length === 0) this.companies.delete(companyId);
    else this.companies.set(companyId, this.index(rows));
    this.dropStale((h) => h.rule.companyId === companyId);
  }

  /** Drops the held conditions of rules that are gone or were saved since. */
  private dropStale(among: (h: Holding) => boolean): void {
    const current = new Map<string, number>();
    for (const company of this.companies.values())
      for (const list of company.telemetry.values())
        for (const rule of list) current.set(rule.id, rule.version);
    for (const h of this.allHoldings()) {
      if (among(h) && current.get(h.rule.id) !== h.rule.version) this.drop(h);
    }
  }

  private index(rows: AlarmRuleRow[]): CompanyRules {
    const company: CompanyRules = {
      telemetry: new Map(),
      events: new Map(),
      offline: [],
      configFailed: [],
      upgradeFailed: [],
      needsInfo: false,
    };
    const add = (map: Map<string, CompiledRule[]>, key: string, rule: CompiledRule) =>
      map.set(key, [...(map.get(key) ?? []), rule]);
    for (const row of rows) {
      let rule: CompiledRule;
      try {
        rule = compileRule(row);
      } catch (err) {
        this.log.error({ err, ruleId: row.id }, 'alarm rule not readable');
        continue;
      }
      const c = rule.condition;
      switch (c.type) {
        case 'telemetry':
          add(company.telemetry, c.key, rule);
          company.needsInfo ||= needsDeviceInfo(rule.scope);
          break;
        case 'event':
          add(company.events, c.code, rule);
          company.needsInfo ||= needsDeviceInfo(rule.scope);
          break;
        case 'offline':
          company.offline.push(rule);
          break;
        case 'config-failed':
          company.configFailed.push(rule);
          break;
        case 'upgrade-failed':
          company.upgradeFailed.push(rule);
          break;
      }
    }
    return company;
  }

  // ---------------------------------------------------------------- the ingest path

  /**
   * Telemetry as it arrives (the gateway's observer): never throws, never waits. This runs for
   * every message, so it allocates nothing unless a condition is met, held or open: a value that
   * meets no rule of a device with nothing held or open costs a comparison per rule of its key.
   */
  telemetry(device: DeviceRef, payload: TTelemetryPayload, receivedAt: number): void {
    const company = this.companies.get(device.companyId);
    if (!company || company.telemetry.size === 0) return;
    const info = company.needsInfo ? this.infoOf(device) : undefined;
    if (info === null) {
      this.defer(device, () => this.telemetry(device, payload, receivedAt));
      return;
    }
    const held = this.holdings.get(device.id);
    const open = this.open.of(device.id);
    const values = payload.values;
    for (const key in values) {
      const rules = company.telemetry.get(key);
      if (!rules) continue;
      const value = values[key];
      if (!isReading(value)) continue;
      for (const rule of rules) {
        if (rule.condition.type !== 'telemetry' || !covers(rule.scope, device.id, info)) continue;
        if (telemetryMet(rule.condition, value)) {
          this.met(rule, device, value, receivedAt, held?.get(rule.id));
          continue;
        }
        const holding = held?.get(rule.id);
        if (holding) this.drop(holding);
        if (open?.has(rule.id)) this.clear(device.companyId, rule.id, device.id);
      }
    }
  }

  /** A device event as it arrives: its code's rules raise at their level, clear on recovery. */
  event(device: DeviceRef, event: DeviceEventInput, receivedAt: number): void {
    const rules = this.companies.get(device.companyId)?.events.get(event.code);
    if (!rules) return;
    const info = rules.some((r) => needsDeviceInfo(r.scope)) ? this.infoOf(device) : undefined;
    if (info === null) {
      this.defer(device, () => this.event(device, event, receivedAt));
      return;
    }
    for (const rule of rules) {
      if (rule.condition.type !== 'event' || !covers(rule.scope, device.id, info)) continue;
      if (event.level === rule.condition.level) {
        this.raise(rule, device.id, {
          id: `ev:${event.ts ?? receivedAt}:${receivedAt}`,
          at: receivedAt,
          value: null,
        });
      } else if (event.level === 'recovery' && this.open.has(rule.id, device.id)) {
        this.clear(device.companyId, rule.id, device.id);
      }
    }
  }

  /** A telemetry condition met: held from now, raised once its duration passed, or repeated. */
  private met(
    rule: CompiledRule,
    device: DeviceRef,
    value: number,
    at: number,
    holding: Holding | undefined,
  ): void {
    if (rule.condition.type !== 'telemetry') return;
    if (!holding || holding.rule.version !== rule.version) {
      if (holding) this.drop(holding);
      const fresh: Holding = {
        key: openKeyOf(rule.id, device.id),
        rule,
        deviceId: device.id,
        since: at,
        deadline: at + rule.condition.durationSec * 1000,
        value,
        lastAt: at,
        raised: false,
        repeats: 0,
        flushedAt: at,
      };
      let held = this.holdings.get(device.id);
      if (!held) this.holdings.set(device.id, (held = new Map()));
      held.set(rule.id, fresh);
      if (at >= fresh.deadline) this.raiseHolding(fresh, at);
      else this.waiting.add(fresh);
      return;
    }
    holding.value = value;
    holding.lastAt = Math.max(holding.lastAt, at);
    if (!holding.raised) {
      if (at >= holding.deadline) this.raiseHolding(holding, at);
      return;
    }
    holding.repeats += 1;
    this.repeating.add(holding);
  }

  private *allHoldings(): Generator<Holding> {
    for (const held of this.holdings.values()) yield* [...held.values()];
  }

  private drop(holding: Holding): void {
    const held = this.holdings.get(holding.deviceId);
    if (held?.get(holding.rule.id) === holding) {
      held.delete(holding.rule.id);
      if (held.size === 0) this.holdings.delete(holding.deviceId);
    }
    this.waiting.delete(holding);
    this.repeating.delete(holding);
  }

  private raiseHolding(holding: Holding, at: number): void {
    holding.raised = true;
    holding.flushedAt = at;
    this.waiting.delete(holding);
    this.raise(holding.rule, holding.deviceId, {
      id: `tm:${holding.since}`,
      at,
      value: holding.value,
    });
  }

  // ---------------------------------------------------------------- jobs

  /** Raises the held conditions whose duration passed; writes repeat counts now and then. */
  sweep(): void {
    const now = this.clock();
    for (const holding of this.waiting) {
      if (now >= holding.deadline) this.raiseHolding(holding, now);
    }
    for (const holding of this.repeating) {
      if (now - holding.flushedAt < this.options.repeatFlushMs) continue;
      this.flushRepeats(holding, now);
    }
    if (now - this.staleCheckedAt >= 60_000) {
      this.staleCheckedAt = now;
      for (const holding of this.allHoldings()) {
        if (now - holding.lastAt > STALE_HOLDING_MS) this.drop(holding);
      }
    }
  }

  private flushRepeats(holding: Holding, now: number): void {
    const times = holding.repeats;
    holding.repeats = 0;
    holding.flushedAt = now;
    this.repeating.delete(holding);
    if (!this.open.has(holding.rule.id, holding.deviceId)) return;
    this.track(
      this.alarms.repeat(holding.rule.companyId, holding.key, {
        id: `rp:${holding.since}:${now}`,
        at: holding.lastAt,
        value: holding.value,
        times,
      }),
    );
  }

  /**
   * Raises offline alarms of devices offline longer than their rule allows (a restart the platform
   * expects waits for its window to end) and clears those of devices online again.
   */
  async sweepOffline(): Promise<void> {
    await this.loading;
    const now = this.clock();
    for (const company of this.companies.values()) {
      for (const rule of company.offline) {
        if (rule.condition.type !== 'offline') continue;
        const cutoff = now - rule.condition.minutes * 60_000;
        const devices = await this.alarms.offlineCandidates(rule, cutoff, now, OFFLINE_BATCH);
        for (const device of devices) {
          await this.alarms.raise(
            rule,
            device.id,
            { id: `off:${now}`, at: now, value: null },
            device,
          );
        }
      }
    }
    const back = await this.alarms.offlineBackOnline(OFFLINE_BATCH);
    const byCompany = new Map<string, string[]>();
    for (const row of back) {
      if (!row.open_key) continue;
      byCompany.set(row.company_id, [...(byCompany.get(row.company_id) ?? []), row.open_key]);
    }
    for (const [companyId, keys] of byCompany) await this.alarms.clearByCondition(companyId, keys);
  }

  // ---------------------------------------------------------------- pushes and upgrades

  private outcome(
    companyId: string,
    deviceId: string,
    kind: 'configFailed' | 'upgradeFailed',
    ok: boolean,
    trigger: string,
    error: string | null,
  ): void {
    const rules = this.companies.get(companyId)?.[kind];
    if (!rules?.length) return;
    if (ok) {
      const keys = rules
        .filter((r) => this.open.has(r.id, deviceId))
        .map((r) => openKeyOf(r.id, deviceId));
      if (keys.length > 0) this.track(this.alarms.clearByCondition(companyId, keys));
      return;
    }
    const at = this.clock();
    for (const rule of rules) {
      this.raise(rule, deviceId, { id: trigger, at, value: null, reason: error ?? '' });
    }
  }

  // ---------------------------------------------------------------- database work, off the path

  private raise(rule: CompiledRule, deviceId: string, trigger: Trigger): void {
    this.track(this.alarms.raise(rule, deviceId, trigger));
  }

  private clear(companyId: string, ruleId: string, deviceId: string): void {
    // Marked closed at once, so that the messages that follow do not clear it again.
    this.open.delete(ruleId, deviceId);
    this.track(this.alarms.clearByCondition(companyId, [openKeyOf(ruleId, deviceId)]));
  }

  private track(work: Promise<unknown>): void {
    const guarded = work.catch((err: unknown) => this.log.error({ err }, 'alarm not recorded'));
    this.inFlight.add(guarded);
    void guarded.finally(() => this.inFlight.delete(guarded));
  }

  // ---------------------------------------------------------------- devices' series and groups

  /** The device's series and group; null when unknown yet (a lookup is on its way). */
  private infoOf(device: DeviceRef): DeviceInfo | null {
    const info = this.deviceInfo.get(device.id);
    if (info === undefined) {
      this.lookUp(device);
      return null;
    }
    // A device gone from the database: its messages are no longer evaluated.
    if (info === null) return null;
    if (this.clock() - info.at > this.options.deviceTtlMs) this.lookUp(device);
    return info;
  }

  private remember(deviceId: string, info: DeviceInfo | null): void {
    this.deviceInfo.delete(deviceId);
    this.deviceInfo.set(deviceId, info);
    if (this.deviceInfo.size > DEVICE_CACHE_MAX) {
      const oldest = this.deviceInfo.keys().next().value;
      if (oldest !== undefined) this.deviceInfo.delete(oldest);
    }
  }

  private defer(device: DeviceRef, evaluate: () => void): void {
    if (this.deviceInfo.get(device.id) === null) return;
    const queue = this.deferred.get(device.id) ?? [];
    if (queue.length >= DEFERRED_PER_DEVICE) return;
    if (queue.length === 0 && this.deferred.size >= DEFERRED_DEVICES_MAX) return;
    queue.push(evaluate);
    this.deferred.set(device.id, queue);
  }

  private lookUp(device: DeviceRef): void {
    const ids = this.lookups.get(device.companyId) ?? new Set<string>();
    ids.add(device.id);
    this.lookups.set(device.companyId, ids);
    this.lookupTimer ??= setTimeout(() => {
      this.lookupTimer = undefined;
      this.track(this.runLookups());
    }, LOOKUP_DELAY_MS);
  }

  private async runLookups(): Promise<void> {
    const batches = [...this.lookups];
    this.lookups.clear();
    for (const [companyId, ids] of batches) {
      const found = await this.alarms.devices(companyId, [...ids]);
      const now = this.clock();
      const byId = new Map(found.map((d) => [d.id, d]));
      for (const id of ids) {
        const d = byId.get(id);
        this.remember(id, d ? { groupId: d.group_id, series: d.series, at: now } : null);
        const queue = this.deferred.get(id);
        this.deferred.delete(id);
        if (d) for (const evaluate of queue ?? []) evaluate();
      }
    }
  }

  private forgetDevices(deviceIds: readonly string[]): void {
    for (const id of deviceIds) {
      for (const holding of [...(this.holdings.get(id)?.values() ?? [])]) this.drop(holding);
      this.deviceInfo.delete(id);
      this.deferred.delete(id);
    }
  }
}

/**
 * Whether a rule covers a device. Scopes by series or group need what the engine knows of the
 * device (`info`); without it they cover nothing.
 */
function covers(scope: TAlarmScope, deviceId: string, info: DeviceInfo | undefined): boolean {
  switch (scope.kind) {
    case 'all':
      return true;
    case 'device':
      return scope.deviceId === deviceId;
    case 'series':
      return info !== undefined && info.series === scope.series;
    case 'group':
      return info !== undefined && info.groupId === scope.groupId;
  }
}

/** The open alarms a node knows of: rule ids by device, from `{rule}:{device}` keys. */
class OpenAlarms {
  private readonly byDevice = new Map<string, Set<string>>();

  of(deviceId: string): ReadonlySet<string> | undefined {
    return this.byDevice.get(deviceId);
  }

  has(ruleId: string, deviceId: string): boolean {
    return this.byDevice.get(deviceId)?.has(ruleId) === true;
  }

  add(ruleId: string, deviceId: string): void {
    let rules = this.byDevice.get(deviceId);
    if (!rules) this.byDevice.set(deviceId, (rules = new Set()));
    rules.add(ruleId);
  }

  /** An open key as stored (`alarm.open_key`). */
  addKey(openKey: string): void {
    const at = openKey.indexOf(':');
    if (at > 0) this.add(openKey.slice(0, at), openKey.slice(at + 1));
  }

  delete(ruleId: string, deviceId: string): void {
    const rules = this.byDevice.get(deviceId);
    if (!rules) return;
    rules.delete(ruleId);
    if (rules.size === 0) this.byDevice.delete(deviceId);
  }

  clear(): void {
    this.byDevice.clear();
  }
}
