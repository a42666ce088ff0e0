import {
  ALARM_EXPORT_MAX,
  ZAlarmCondition,
  ZAlarmNotify,
  ZAlarmScope,
  ZQuietHours,
  type TAlarm,
  type TAlarmAcknowledge,
  type TAlarmBulkResult,
  type TAlarmClear,
  type TAlarmClearReason,
  type TAlarmCondition,
  type TAlarmConditionType,
  type TAlarmCounts,
  type TAlarmNotify,
  type TAlarmPage,
  type TAlarmQuery,
  type TAlarmScope,
  type TAlarmSeverity,
  type TAlarmState,
  type TQuietHours,
  type ZAlarmExportQuery,
} from '@blrms/contracts';
import type { z } from 'zod';
import type { FastifyBaseLogger } from 'fastify';
import type { Readable } from 'node:stream';
import type { DataRuleService } from '../../platform/auth/data-rules.js';
import type { Scope } from '../../platform/auth/scope.js';
import type { Bus } from '../../platform/bus/bus.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/db/ids.js';
import { isUniqueViolation } from '../../platform/db/unique-violation.js';
import { notFound } from '../../platform/http/app-error.js';
import type { Lang } from '../../platform/http/i18n.js';
import { message, type MessageKey } from '../../platform/http/messages.js';
import { isoOrNull, iso, pageResult } from '../../platform/http/paging.js';
import type { JobSpec } from '../../platform/scheduler/scheduler.js';
import { serverTimeZone, type SheetCell } from '../../platform/sheet/sheet-cells.js';
import { SHEET_CONTENT_TYPES, sheetStream } from '../../platform/sheet/sheet-writer.js';
import type { DepartService } from '../depart/depart.service.js';
import type { DeviceLogService } from '../device/device-log.service.js';
import { DEVICE_RULES } from '../device/stats-columns.rules.js';
import type { MessageService } from '../message/message.service.js';
import type { RoleService } from '../role/role.service.js';
import {
  conditionVars,
  durationParts,
  fillText,
  inScope,
  quietUntil,
  scopeColumns,
  scopeOfColumns,
} from './alarm-conditions.rules.js';
import type {
  AlarmDevice,
  AlarmFilter,
  AlarmRepository,
  AlarmRow,
  AlarmRuleRow,
  ClearFields,
} from './alarm.repository.js';

const MINUTE = 60_000;
/** Due notifications one run of the notification job handles. */
const NOTIFY_BATCH = 200;
const EXPORT_BATCH = 1000;

const SEVERITY_KEYS: Record<TAlarmSeverity, MessageKey> = {
  critical: 'alarmSeverityCritical',
  major: 'alarmSeverityMajor',
  minor: 'alarmSeverityMinor',
  warning: 'alarmSeverityWarning',
};
const STATE_KEYS: Record<TAlarmState, MessageKey> = {
  active: 'alarmStateActive',
  acknowledged: 'alarmStateAcknowledged',
  cleared: 'alarmStateCleared',
};
const REASON_KEYS: Record<TAlarmClearReason, MessageKey> = {
  condition: 'alarmReasonCondition',
  manual: 'alarmReasonManual',
  'rule-changed': 'alarmReasonRuleChanged',
  'device-deleted': 'alarmReasonDeviceDeleted',
};

/** A rule as the engine and the lifecycle use it: its JSON parsed. */
export interface CompiledRule {
  id: string;
  companyId: string;
  name: string;
  severity: TAlarmSeverity;
  scope: TAlarmScope;
  condition: TAlarmCondition;
  message: { zh: string; en: string };
  quietHours: TQuietHours | null;
  reminderMinutes: number | null;
  notify: TAlarmNotify;
  /** Changes when the rule is saved: the engine's state of an older version is dropped. */
  version: number;
}

export function compileRule(row: AlarmRuleRow): CompiledRule {
  return {
    id: row.id,
    companyId: row.company_id,
    name: row.name,
    severity: row.severity as TAlarmSeverity,
    scope: ZAlarmScope.parse(scopeOfColumns(row.scope_kind, row.scope_value)),
    condition: ZAlarmCondition.parse(JSON.parse(row.condition)),
    message: { zh: row.message_zh, en: row.message_en },
    quietHours: row.quiet_hours ? ZQuietHours.parse(JSON.parse(row.quiet_hours)) : null,
    reminderMinutes: row.reminder_minutes,
    notify: ZAlarmNotify.parse(JSON.parse(row.notify)),
    version: row.update_time ?? row.create_time,
  };
}

export const openKeyOf = (ruleId: string, deviceId: string) => `${ruleId}:${deviceId}`;

/** What raised an alarm, besides its rule and device. */
export interface Trigger {
  /** Counted once per alarm even when delivered twice. */
  id: string;
  at: number;
  value: number | null;
  /** Why a push or an upgrade failed. */
  reason?: string;
  /** Times the condition was met (repeats counted in memory before they are written). */
  times?: number;
}

function defaultText(condition: TAlarmCondition): MessageKey {
  switch (condition.type) {
    case 'telemetry':
      return condition.operator === 'above'
        ? 'alarmTextTelemetryAbove'
        : condition.operator === 'below'
          ? 'alarmTextTelemetryBelow'
          : 'alarmTextTelemetryOutside';
    case 'event':
      return 'alarmTextEvent';
    case 'offline':
      return 'alarmTextOffline';
    case 'config-failed':
      return 'alarmTextConfigFailed';
    case 'upgrade-failed':
      return 'alarmTextUpgradeFailed';
  }
}

function durationText(seconds: number, lang: Lang): string {
  const { unit, n } = durationParts(seconds);
  const key: MessageKey =
    unit === 'h'
      ? 'alarmDurationHours'
      : unit === 'min'
        ? 'alarmDurationMinutes'
        : 'alarmDurationSeconds';
  return message(lang, key, { n });
}

/** The alarm's text in one language: the rule's own, else the platform's for its condition. */
export function alarmText(
  rule: CompiledRule,
  device: { name: string; sn: string },
  trigger: Pick<Trigger, 'value' | 'reason'>,
  lang: Lang,
): string {
  const own = lang === 'zh-CN' ? rule.message.zh : rule.message.en;
  const template = own || message(lang, defaultText(rule.condition));
  const duration = rule.condition.type === 'telemetry' ? rule.condition.durationSec : 0;
  return fillText(template, {
    ...conditionVars(rule.condition),
    device: device.name || device.sn,
    sn: device.sn,
    rule: rule.name,
    severity: message(lang, SEVERITY_KEYS[rule.severity]),
    value: trigger.value ?? '',
    duration: durationText(duration, lang),
    reason: trigger.reason ?? '',
  }).slice(0, 1000);
}

export function toAlarm(row: AlarmRow, lang: Lang): TAlarm {
  return {
    id: row.id,
    ruleId: row.rule_id,
    ruleName: row.rule_name,
    conditionType: row.condition_type as TAlarmConditionType,
    severity: row.severity as TAlarmSeverity,
    state: row.state as TAlarmState,
    deviceId: row.device_id,
    sn: row.sn,
    deviceName: row.device_name,
    groupId: row.group_id,
    message: lang === 'zh-CN' ? row.message_zh : row.message_en,
    value: row.value,
    count: row.count,
    firstTime: iso(row.first_time),
    lastTime: iso(row.last_time),
    ackBy: row.ack_by,
    ackTime: isoOrNull(row.ack_time),
    ackComment: row.ack_comment,
    clearBy: row.clear_by,
    clearTime: isoOrNull(row.clear_time),
    clearComment: row.clear_comment,
    clearReason: row.clear_reason as TAlarmClearReason | null,
  };
}

function filterOf(query: Omit<TAlarmQuery, 'pageNo' | 'pageSize' | 'order'>): AlarmFilter {
  return {
    severities: query.severity,
    states: query.state,
    ruleId: query.ruleId,
    deviceId: query.deviceId,
    groupId: query.groupId,
    sn: query.sn,
    from: query.timeFrom ? Date.parse(query.timeFrom) : undefined,
    to: query.timeTo ? Date.parse(query.timeTo) : undefined,
  };
}

const EXPORT_COLUMNS: {
  label: MessageKey;
  time?: boolean;
  value: (a: AlarmRow, lang: Lang) => SheetCell;
}[] = [
  {
    label: 'alarmColSeverity',
    value: (a, l) => message(l, SEVERITY_KEYS[a.severity as TAlarmSeverity]),
  },
  { label: 'alarmColState', value: (a, l) => message(l, STATE_KEYS[a.state as TAlarmState]) },
  { label: 'alarmColRule', value: (a) => a.rule_name },
  { label: 'alarmColSn', value: (a) => a.sn },
  { label: 'alarmColDevice', value: (a) => a.device_name },
  { label: 'alarmColMessage', value: (a, l) => (l === 'zh-CN' ? a.message_zh : a.message_en) },
  { label: 'alarmColValue', value: (a) => (a.value === null ? '' : String(a.value)) },
  { label: 'alarmColCount', value: (a) => String(a.count) },
  { label: 'alarmColFirstTime', time: true, value: (a) => new Date(a.first_time) },
  { label: 'alarmColLastTime', time: true, value: (a) => new Date(a.last_time) },
  { label: 'alarmColAckBy', value: (a) => a.ack_by ?? '' },
  { label: 'alarmColAckTime', time: true, value: (a) => (a.ack_time ? new Date(a.ack_time) : '') },
  { label: 'alarmColAckComment', value: (a) => a.ack_comment ?? '' },
  { label: 'alarmColClearBy', value: (a) => a.clear_by ?? '' },
  {
    label: 'alarmColClearTime',
    time: true,
    value: (a) => (a.clear_time ? new Date(a.clear_time) : ''),
  },
  {
    label: 'alarmColClearReason',
    value: (a, l) =>
      a.clear_reason ? message(l, REASON_KEYS[a.clear_reason as TAlarmClearReason]) : '',
  },
  { label: 'alarmColClearComment', value: (a) => a.clear_comment ?? '' },
];

/** Every device-log entry of a transition names the alarm and what happened. */
const LOG_URL = '/alarm';

/**
 * The alarm lifecycle: raise (or repeat), acknowledge, clear; the list, counts and export; the
 * notifications. Every transition writes the device log and publishes `alarm.changed`, which
 * every node's console sockets and alarm engine receive.
 */
export class AlarmService {
  constructor(
    private readonly repository: AlarmRepository,
    private readonly deps: {
      deviceLogs: DeviceLogService;
      messages: Pick<MessageService, 'sendTemplate'>;
      roles: Pick<RoleService, 'usersOfRoles'>;
      departs: Pick<DepartService, 'membersOf'>;
      dataRules: DataRuleService;
      bus: Bus;
      clock: Clock;
      log: FastifyBaseLogger;
    },
  ) {}

  private rules(scope: Scope) {
    return this.deps.dataRules.filterFor(scope, DEVICE_RULES);
  }

  // ---------------------------------------------------------------- reads

  async list(scope: Scope, query: TAlarmQuery, lang: Lang): Promise<TAlarmPage> {
    const { records, total } = await this.repository.page(
      scope.companyId,
      await this.rules(scope),
      filterOf(query),
      query,
    );
    return pageResult(
      records.map((r) => toAlarm(r, lang)),
      total,
      query,
    );
  }

  async get(scope: Scope, id: string, lang: Lang): Promise<TAlarm> {
    const [row] = await this.repository.byIds(scope.companyId, await this.rules(scope), [id]);
    if (!row) throw notFound('alarmNotFound');
    return toAlarm(row, lang);
  }

  async counts(scope: Scope): Promise<TAlarmCounts> {
    const zero = () => ({ critical: 0, major: 0, minor: 0, warning: 0 });
    const counts: TAlarmCounts = { open: zero(), unacknowledged: zero() };
    for (const row of await this.repository.counts(scope.companyId, await this.rules(scope))) {
      const severity = row.severity as TAlarmSeverity;
      if (!(severity in counts.open)) continue;
      counts.open[severity] += Number(row.n);
      if (row.state === 'active') counts.unacknowledged[severity] += Number(row.n);
    }
    return counts;
  }

  exportFile(scope: Scope, query: z.infer<typeof ZAlarmExportQuery>, lang: Lang) {
    const { format, timeZone, ...rest } = query;
    const filter = filterOf(rest);
    const repository = this.repository;
    const rulesOf = this.rules(scope);
    const batches = (async function* () {
      const rules = await rulesOf;
      for (let offset = 0; offset < ALARM_EXPORT_MAX; offset += EXPORT_BATCH) {
        const limit = Math.min(EXPORT_BATCH, ALARM_EXPORT_MAX - offset);
        const rows = await repository.batch(scope.companyId, rules, filter, limit, offset);
        if (rows.length > 0) yield rows.map((r) => EXPORT_COLUMNS.map((c) => c.value(r, lang)));
        if (rows.length < limit) return;
      }
    })();
    const columns = EXPORT_COLUMNS.map((c) => ({ header: message(lang, c.label), time: c.time }));
    const stamp = new Date(this.deps.clock()).toISOString().slice(0, 10).replaceAll('-', '');
    const body: Readable = sheetStream(
      format,
      message(lang, 'alarmExportSheet'),
      columns,
      batches,
      timeZone ?? serverTimeZone(),
    );
    return {
      filename: `alarms-${stamp}.${format}`,
      contentType: SHEET_CONTENT_TYPES[format],
      body,
    };
  }

  // ---------------------------------------------------------------- user actions

  async acknowledge(scope: Scope, input: TAlarmAcknowledge): Promise<TAlarmBulkResult> {
    const ids = [...new Set(input.ids)];
    const visible = await this.repository.byIds(scope.companyId, await this.rules(scope), ids);
    const changed = await this.repository.acknowledge(
      scope.companyId,
      visible.map((r) => r.id),
      { by: scope.username, at: this.deps.clock(), comment: input.comment || null },
    );
    await this.transitions(changed, 'alarm.ack', scope.username, { comment: input.comment });
    return {
      changed: changed.length,
      skipped: visible.length - changed.length,
      notFound: ids.length - visible.length,
    };
  }

  async clear(scope: Scope, input: TAlarmClear): Promise<TAlarmBulkResult> {
    const ids = [...new Set(input.ids)];
    const visible = await this.repository.byIds(scope.companyId, await this.rules(scope), ids);
    const changed = await this.repository.clearIds(
      scope.companyId,
      visible.map((r) => r.id),
      { by: scope.username, at: this.deps.clock(), comment: input.comment, reason: 'manual' },
    );
    await this.transitions(changed, 'alarm.clear', scope.username, {
      reason: 'manual',
      comment: input.comment,
    });
    await this.notifyCleared(changed);
    return {
      changed: changed.length,
      skipped: visible.length - changed.length,
      notFound: ids.length - visible.length,
    };
  }

  // ---------------------------------------------------------------- the engine's calls

  /** Devices of the company, for scope checks and texts. */
  devices(companyId: string, ids: readonly string[]): Promise<AlarmDevice[]> {
    return this.repository.devices(companyId, ids);
  }

  /**
   * Raises the rule's alarm for the device, or counts a repeat of the open one. Nothing when the
   * device is gone or outside the rule's scope. Returns the alarm's row when something changed.
   */
  async raise(
    rule: CompiledRule,
    deviceId: string,
    trigger: Trigger,
    known?: AlarmDevice,
  ): Promise<AlarmRow | undefined> {
    const device = known ?? (await this.repository.devices(rule.companyId, [deviceId]))[0];
    if (
      !device ||
      !inScope(rule.scope, { id: device.id, groupId: device.group_id, series: device.series })
    )
      return undefined;
    const openKey = openKeyOf(rule.id, device.id);
    const quiet = quietUntil(rule.quietHours, trigger.at);
    const notifies = rule.notify.channels.length > 0;
    const row: AlarmRow = {
      id: newId(),
      company_id: rule.companyId,
      rule_id: rule.id,
      rule_name: rule.name,
      condition_type: rule.condition.type,
      severity: rule.severity,
      state: 'active',
      device_id: device.id,
      sn: device.sn,
      device_name: device.name,
      group_id: device.group_id,
      message_zh: alarmText(rule, device, trigger, 'zh-CN'),
      message_en: alarmText(rule, device, trigger, 'en-US'),
      value: trigger.value,
      count: trigger.times ?? 1,
      first_time: trigger.at,
      last_time: trigger.at,
      ack_by: null,
      ack_time: null,
      ack_comment: null,
      clear_by: null,
      clear_time: null,
      clear_comment: null,
      clear_reason: null,
      open_key: openKey,
      last_trigger: trigger.id,
      next_notify_time: !notifies
        ? null
        : quiet !== null
          ? quiet
          : rule.reminderMinutes !== null
            ? trigger.at + rule.reminderMinutes * MINUTE
            : null,
      notified: notifies && quiet === null ? 1 : 0,
    };
    try {
      await this.repository.insertAlarm(row);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      return this.repeat(rule.companyId, openKey, trigger);
    }
    await this.transitions([row], 'alarm.raise', null, { value: trigger.value });
    if (notifies && quiet === null) await this.notify('alarm_raised', rule, row);
    return row;
  }

  /** Counts repeats of the open alarm (the same trigger once). */
  async repeat(
    companyId: string,
    openKey: string,
    trigger: Trigger,
  ): Promise<AlarmRow | undefined> {
    const row = await this.repository.bumpOpen(companyId, openKey, {
      times: trigger.times ?? 1,
      at: trigger.at,
      value: trigger.value,
      trigger: trigger.id,
    });
    if (row) await this.publish(row);
    return row;
  }

  /** Clears the open alarms with these keys (`{rule}:{device}`) because their condition cleared. */
  async clearByCondition(companyId: string, keys: readonly string[]): Promise<AlarmRow[]> {
    const fields = { by: null, at: this.deps.clock(), comment: null, reason: 'condition' };
    const cleared = await this.repository.clearOpen(companyId, keys, fields);
    await this.transitions(cleared, 'alarm.clear', null, { reason: 'condition' });
    await this.notifyCleared(cleared);
    return cleared;
  }

  /** A rule was edited, disabled or deleted: its open alarms clear (`rule-changed`). */
  async clearRule(companyId: string, ruleId: string, by: string): Promise<void> {
    const cleared = await this.repository.clearRule(companyId, ruleId, {
      by,
      at: this.deps.clock(),
      comment: null,
      reason: 'rule-changed',
    });
    await this.transitions(cleared, 'alarm.clear', by, { reason: 'rule-changed' });
  }

  detachRule(companyId: string, ruleId: string): Promise<void> {
    return this.repository.detachRule(companyId, ruleId);
  }

  /** Devices were deleted: their open alarms clear (`device-deleted`). */
  async clearDevices(deviceIds: readonly string[]): Promise<void> {
    if (deviceIds.length === 0) return;
    const fields: ClearFields = {
      by: null,
      at: this.deps.clock(),
      comment: null,
      reason: 'device-deleted',
    };
    const cleared = await this.repository.clearDevices(deviceIds, fields);
    await this.transitions(cleared, 'alarm.clear', null, { reason: 'device-deleted' });
  }

  offlineCandidates(rule: CompiledRule, cutoff: number, now: number, limit: number) {
    const scope = scopeColumns(rule.scope);
    return this.repository.offlineCandidates(
      rule.companyId,
      { id: rule.id, scopeKind: scope.kind, scopeValue: scope.value },
      cutoff,
      now,
      limit,
    );
  }

  offlineBackOnline(limit: number) {
    return this.repository.offlineBackOnline(limit);
  }

  openKeys() {
    return this.repository.openKeys();
  }

  // ---------------------------------------------------------------- notifications

  /**
   * Held notifications (quiet hours ended) and reminders of active, unacknowledged alarms: one
   * node sends each (the due time is claimed by a conditional update).
   */
  scheduledJobs(): JobSpec[] {
    return [
      {
        name: 'alarm.notify',
        everyMs: 15_000,
        scope: 'cluster',
        run: () => this.sendDue(),
      },
    ];
  }

  async sendDue(): Promise<void> {
    const now = this.deps.clock();
    const ruleOf = this.ruleReader();
    for (const row of await this.repository.dueNotifications(now, NOTIFY_BATCH)) {
      const due = row.next_notify_time;
      if (due === null) continue;
      const found = await ruleOf(row);
      const rule = found?.enabled ? found.rule : null;
      if (!rule || rule.notify.channels.length === 0) {
        await this.repository.setNextNotify(row.company_id, row.id, null);
        continue;
      }
      const quiet = quietUntil(rule.quietHours, now);
      if (quiet !== null) {
        await this.repository.setNextNotify(row.company_id, row.id, quiet);
        continue;
      }
      const next = rule.reminderMinutes !== null ? now + rule.reminderMinutes * MINUTE : null;
      if (await this.repository.claimNotification(row.company_id, row.id, due, next))
        await this.notify('alarm_raised', rule, row);
    }
  }

  /** Reads each alarm's rule once for a run over many alarms; null when the rule is gone. */
  private ruleReader() {
    const rules = new Map<string, { rule: CompiledRule; enabled: boolean } | null>();
    return async (row: AlarmRow) => {
      if (!row.rule_id) return null;
      let found = rules.get(row.rule_id);
      if (found === undefined) {
        const stored = await this.repository.ruleById(row.company_id, row.rule_id);
        found = stored ? { rule: compileRule(stored), enabled: stored.enabled === 1 } : null;
        rules.set(row.rule_id, found);
      }
      return found;
    };
  }

  private async notifyCleared(rows: AlarmRow[]): Promise<void> {
    const ruleOf = this.ruleReader();
    for (const row of rows) {
      const rule = (await ruleOf(row))?.rule;
      if (!rule?.notify.onClear || rule.notify.channels.length === 0) continue;
      // What clears during quiet hours is not worth waking anyone for.
      if (quietUntil(rule.quietHours, this.deps.clock()) !== null) continue;
      await this.notify('alarm_cleared', rule, row);
    }
  }

  /** Sends through the message center; a failure is logged, never thrown at the lifecycle. */
  private async notify(
    templateCode: 'alarm_raised' | 'alarm_cleared',
    rule: CompiledRule,
    row: AlarmRow,
  ): Promise<void> {
    try {
      const { userIds, roleIds, departIds, channels } = rule.notify;
      const [roles, departs] = await Promise.all([
        this.deps.roles.usersOfRoles(rule.companyId, roleIds),
        this.deps.departs.membersOf(rule.companyId, departIds),
      ]);
      const receivers = [...new Set([...userIds, ...roles.userIds, ...departs.userIds])];
      await this.deps.messages.sendTemplate({
        companyId: rule.companyId,
        templateCode,
        receivers: { userIds: receivers },
        channels,
        vars: {
          rule: row.rule_name,
          severity: message('en-US', SEVERITY_KEYS[row.severity as TAlarmSeverity]),
          severityZh: message('zh-CN', SEVERITY_KEYS[row.severity as TAlarmSeverity]),
          device: row.device_name || row.sn,
          sn: row.sn,
          message: row.message_zh,
          messageEn: row.message_en,
          value: row.value ?? '',
          time: new Date(
            templateCode === 'alarm_cleared' ? (row.clear_time ?? row.last_time) : row.last_time,
          )
            .toISOString()
            .replace('T', ' ')
            .slice(0, 19),
        },
        priority: row.severity === 'critical' || row.severity === 'major' ? 'H' : 'M',
        link: { openPage: '/alarm/list', busId: row.id },
      });
    } catch (err) {
      this.deps.log.error({ err, alarmId: row.id }, 'alarm notification failed');
    }
  }

  // ---------------------------------------------------------------- transitions

  /** The device log entries of the changed alarms, then their bus messages. */
  private async transitions(
    rows: AlarmRow[],
    subject: 'alarm.raise' | 'alarm.ack' | 'alarm.clear',
    by: string | null,
    content: Record<string, unknown>,
  ): Promise<void> {
    if (rows.length === 0) return;
    try {
      await this.deps.deviceLogs.writeMany(
        rows.map((row) => ({
          companyId: row.company_id,
          deviceId: row.device_id,
          sn: row.sn,
          requestUrl: `${LOG_URL}/${row.id}`,
          sourceUser: by,
          targetUser: null,
          subject,
          content: {
            alarmId: row.id,
            rule: row.rule_name,
            severity: row.severity,
            message: row.message_en,
            ...content,
          },
          sourceIp: null,
          state: 'succeeded',
        })),
      );
    } catch (err) {
      this.deps.log.error({ err }, 'alarm device log not written');
    }
    for (const row of rows) await this.publish(row);
  }

  private async publish(row: AlarmRow): Promise<void> {
    const { message: _message, ...alarm } = toAlarm(row, 'en-US');
    await this.deps.bus.publish('alarm.changed', {
      companyId: row.company_id,
      alarm,
      messages: { 'zh-CN': row.message_zh, 'en-US': row.message_en },
    });
  }
}
