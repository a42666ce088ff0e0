import {
  ALARM_RULES_PER_COMPANY_MAX,
  type TAlarmRule,
  type TAlarmRuleEdit,
  type TAlarmRuleInput,
  type TAlarmRulePage,
  type TAlarmRuleQuery,
  type ZAlarmRuleEnable,
} from '@blrms/contracts';
import type { z } from 'zod';
import type { Scope } from '../../platform/auth/scope.js';
import type { Bus } from '../../platform/bus/bus.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/db/ids.js';
import { AppError, notFound } from '../../platform/http/app-error.js';
import { iso, isoOrNull, pageResult } from '../../platform/http/paging.js';
import type { DepartService } from '../depart/depart.service.js';
import type { MessageService } from '../message/message.service.js';
import type { RoleService } from '../role/role.service.js';
import { scopeColumns } from './alarm-conditions.rules.js';
import type { AlarmRepository, AlarmRuleRow } from './alarm.repository.js';
import { compileRule, type AlarmService } from './alarm.service.js';

type RuleEnable = z.infer<typeof ZAlarmRuleEnable>;

const missing = (asked: readonly string[], found: readonly string[]) => {
  const have = new Set(found);
  return [...new Set(asked)].filter((id) => !have.has(id));
};

/**
 * Alarm rules of a company. Every change is published (`alarm.rules-changed`) so that each node's
 * engine reloads the company's rules; editing, disabling or deleting a rule clears its open
 * alarms (`rule-changed`), since what they said no longer matches what the rule watches.
 */
export class AlarmRuleService {
  constructor(
    private readonly repository: AlarmRepository,
    private readonly alarms: AlarmService,
    private readonly deps: {
      messages: Pick<MessageService, 'contactsOf'>;
      roles: Pick<RoleService, 'usersOfRoles'>;
      departs: Pick<DepartService, 'membersOf'>;
      bus: Bus;
      clock: Clock;
    },
  ) {}

  async list(scope: Scope, query: TAlarmRuleQuery): Promise<TAlarmRulePage> {
    const { records, total } = await this.repository.rulePage(scope.companyId, query);
    return pageResult(await this.toRules(scope.companyId, records), total, query);
  }

  async get(scope: Scope, id: string): Promise<TAlarmRule> {
    const row = await this.require(scope, id);
    return (await this.toRules(scope.companyId, [row]))[0]!;
  }

  async add(scope: Scope, input: TAlarmRuleInput): Promise<TAlarmRule> {
    if ((await this.repository.ruleCount(scope.companyId)) >= ALARM_RULES_PER_COMPANY_MAX)
      throw new AppError('alarmRuleLimit', 409, { max: ALARM_RULES_PER_COMPANY_MAX });
    await this.check(scope.companyId, input);
    const row: AlarmRuleRow = {
      id: newId(),
      company_id: scope.companyId,
      ...this.columns(input),
      create_by: scope.username,
      create_time: this.deps.clock(),
      update_time: null,
    };
    await this.repository.insertRule(row);
    await this.changed(scope.companyId);
    return this.get(scope, row.id);
  }

  async edit(scope: Scope, input: TAlarmRuleEdit): Promise<TAlarmRule> {
    await this.require(scope, input.id);
    await this.check(scope.companyId, input);
    await this.repository.updateRule(scope.companyId, input.id, {
      ...this.columns(input),
      update_time: this.deps.clock(),
    });
    await this.alarms.clearRule(scope.companyId, input.id, scope.username);
    await this.changed(scope.companyId);
    return this.get(scope, input.id);
  }

  async enable(scope: Scope, input: RuleEnable): Promise<TAlarmRule> {
    const row = await this.require(scope, input.id);
    if ((row.enabled === 1) !== input.enabled) {
      await this.repository.updateRule(scope.companyId, input.id, {
        enabled: input.enabled ? 1 : 0,
        update_time: this.deps.clock(),
      });
      if (!input.enabled) await this.alarms.clearRule(scope.companyId, input.id, scope.username);
      await this.changed(scope.companyId);
    }
    return this.get(scope, input.id);
  }

  async delete(scope: Scope, id: string): Promise<void> {
    await this.require(scope, id);
    await this.alarms.clearRule(scope.companyId, id, scope.username);
    await this.alarms.detachRule(scope.companyId, id);
    await this.repository.deleteRule(scope.companyId, id);
    await this.changed(scope.companyId);
  }

  private async require(scope: Scope, id: string): Promise<AlarmRuleRow> {
    const row = await this.repository.ruleById(scope.companyId, id);
    if (!row) throw notFound('alarmRuleNotFound');
    return row;
  }

  private changed(companyId: string): Promise<void> {
    return this.deps.bus.publish('alarm.rules-changed', { companyId });
  }

  /** The scope's group or device and every receiver must be of the company. */
  private async check(companyId: string, input: TAlarmRuleInput): Promise<void> {
    const { scope, notify } = input;
    if (scope.kind === 'group') {
      const found = await this.repository.groupNames(companyId, [scope.groupId]);
      if (found.length === 0) throw new AppError('alarmScopeGroupNotFound', 400);
    }
    if (scope.kind === 'device') {
      const found = await this.repository.devices(companyId, [scope.deviceId]);
      if (found.length === 0) throw new AppError('alarmScopeDeviceNotFound', 400);
    }
    if (notify.userIds.length > 0) {
      const users = await this.deps.messages.contactsOf(companyId, [...new Set(notify.userIds)]);
      const absent = missing(
        notify.userIds,
        users.map((u) => u.id),
      );
      if (absent.length > 0)
        throw new AppError('alarmNotifyUserNotFound', 400, { ids: absent.join(', ') });
    }
    const roles = await this.deps.roles.usersOfRoles(companyId, notify.roleIds);
    const absentRoles = missing(notify.roleIds, roles.found);
    if (absentRoles.length > 0)
      throw new AppError('alarmNotifyRoleNotFound', 400, { ids: absentRoles.join(', ') });
    const departs = await this.deps.departs.membersOf(companyId, notify.departIds);
    const absentDeparts = missing(notify.departIds, departs.found);
    if (absentDeparts.length > 0)
      throw new AppError('alarmNotifyDepartNotFound', 400, { ids: absentDeparts.join(', ') });
  }

  private columns(input: TAlarmRuleInput) {
    const scope = scopeColumns(input.scope);
    return {
      name: input.name,
      enabled: input.enabled ? 1 : 0,
      severity: input.severity,
      scope_kind: scope.kind,
      scope_value: scope.value,
      condition_type: input.condition.type,
      condition: JSON.stringify(input.condition),
      message_zh: input.message.zh,
      message_en: input.message.en,
      quiet_hours: input.quietHours ? JSON.stringify(input.quietHours) : null,
      reminder_minutes: input.reminderMinutes,
      notify: JSON.stringify(input.notify),
      description: input.description ?? null,
    };
  }

  private async toRules(companyId: string, rows: AlarmRuleRow[]): Promise<TAlarmRule[]> {
    const open = await this.repository.openCounts(
      companyId,
      rows.map((r) => r.id),
    );
    const groupIds = rows.filter((r) => r.scope_kind === 'group').map((r) => r.scope_value);
    const deviceIds = rows.filter((r) => r.scope_kind === 'device').map((r) => r.scope_value);
    const [groups, devices] = await Promise.all([
      this.repository.groupNames(companyId, [...new Set(groupIds)]),
      this.repository.devices(companyId, [...new Set(deviceIds)]),
    ]);
    const labels = new Map<string, string>([
      ...groups.map((g) => [g.id, g.name] as const),
      ...devices.map((d) => [d.id, d.name || d.sn] as const),
    ]);
    return rows.map((row) => {
      const rule = compileRule(row);
      return {
        id: row.id,
        name: row.name,
        enabled: row.enabled === 1,
        severity: rule.severity,
        scope: rule.scope,
        scopeLabel:
          row.scope_kind === 'group' || row.scope_kind === 'device'
            ? (labels.get(row.scope_value) ?? null)
            : null,
        condition: rule.condition,
        message: rule.message,
        quietHours: rule.quietHours,
        reminderMinutes: rule.reminderMinutes,
        notify: rule.notify,
        description: row.description,
        openAlarms: open.get(row.id) ?? 0,
        createBy: row.create_by,
        createTime: iso(row.create_time),
        updateTime: isoOrNull(row.update_time),
      };
    });
  }
}
