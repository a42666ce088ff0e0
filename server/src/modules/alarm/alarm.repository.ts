import type { TAlarmRuleQuery } from '@blrms/contracts';
import { sql, type SelectQueryBuilder } from 'kysely';
import type { DataRuleFilter } from '../../platform/auth/data-rules.js';
import type { Db } from '../../platform/db/database.js';
import { dataRuleWhere } from '../../platform/db/data-rule-sql.js';
import { containing } from '../../platform/db/like.js';
import { selectPage, type PageRequest } from '../../platform/db/page.js';
import type { AlarmRuleTable, AlarmTable, Database } from '../../platform/db/schema.js';
import { scoped } from '../../platform/db/scoped.js';
import { DEVICE_RULE_COLUMNS } from '../device/stats-columns.rules.js';

export type AlarmRow = AlarmTable;
export type AlarmRuleRow = AlarmRuleTable;

/** What the alarm list filters on (all optional, combined with and). */
export interface AlarmFilter {
  severities?: string[];
  states?: string[];
  ruleId?: string;
  deviceId?: string;
  groupId?: string;
  sn?: string;
  from?: number;
  to?: number;
}

/** A device as alarms need it: scope checks, texts, offline checks. */
export interface AlarmDevice {
  id: string;
  sn: string;
  name: string;
  group_id: string | null;
  series: string;
  status: string;
}

/** Columns changed when an alarm is cleared. */
export interface ClearFields {
  by: string | null;
  at: number;
  comment: string | null;
  reason: string;
}

const OPEN_STATES = ['active', 'acknowledged'];

function clearSet(fields: ClearFields) {
  return {
    state: 'cleared',
    open_key: null,
    next_notify_time: null,
    clear_by: fields.by,
    clear_time: fields.at,
    clear_comment: fields.comment,
    clear_reason: fields.reason,
  };
}

type AlarmQuery = SelectQueryBuilder<Database, 'alarm' | 'device', object>;

/** Alarm rules and alarms: SQL only. */
export class AlarmRepository {
  constructor(private readonly db: Db) {}

  // ---------------------------------------------------------------- rules

  async rulePage(companyId: string, query: TAlarmRuleQuery) {
    let base = scoped(this.db, companyId).selectFrom('alarm_rule');
    if (query.name)
      base = base.where(sql<boolean>`alarm_rule.name like ${containing(query.name)} escape '\\'`);
    if (query.severity) base = base.where('alarm_rule.severity', '=', query.severity);
    if (query.conditionType)
      base = base.where('alarm_rule.condition_type', '=', query.conditionType);
    if (query.enabled)
      base = base.where('alarm_rule.enabled', '=', query.enabled === 'true' ? 1 : 0);
    return selectPage(base, query, (rows) =>
      rows
        .selectAll('alarm_rule')
        .orderBy('alarm_rule.create_time', query.order)
        .orderBy('alarm_rule.id', query.order),
    );
  }

  ruleById(companyId: string, id: string) {
    return scoped(this.db, companyId)
      .selectFrom('alarm_rule')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async ruleCount(companyId: string): Promise<number> {
    const row = await scoped(this.db, companyId)
      .selectFrom('alarm_rule')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async insertRule(row: AlarmRuleRow): Promise<void> {
    const { company_id: companyId, ...rest } = row;
    await scoped(this.db, companyId).insertInto('alarm_rule', rest).execute();
  }

  async updateRule(companyId: string, id: string, patch: Partial<AlarmRuleRow>): Promise<void> {
    await scoped(this.db, companyId)
      .updateTable('alarm_rule')
      .set(patch)
      .where('id', '=', id)
      .execute();
  }

  async deleteRule(companyId: string, id: string): Promise<void> {
    await scoped(this.db, companyId).deleteFrom('alarm_rule').where('id', '=', id).execute();
  }

  /** Open alarms of each of the rules. */
  async openCounts(companyId: string, ruleIds: string[]): Promise<Map<string, number>> {
    if (ruleIds.length === 0) return new Map();
    const rows = await scoped(this.db, companyId)
      .selectFrom('alarm')
      .select(['rule_id', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('rule_id', 'in', ruleIds)
      .where('state', 'in', OPEN_STATES)
      .groupBy('rule_id')
      .execute();
    return new Map(rows.map((r) => [r.rule_id ?? '', Number(r.n)]));
  }

  /** The enabled rules of every company: each node evaluates them all. */
  enabledRules() {
    return this.db.selectFrom('alarm_rule').selectAll().where('enabled', '=', 1).execute();
  }

  enabledRulesOf(companyId: string) {
    return scoped(this.db, companyId)
      .selectFrom('alarm_rule')
      .selectAll()
      .where('enabled', '=', 1)
      .execute();
  }

  // ---------------------------------------------------------------- devices and receivers

  devices(companyId: string, ids: readonly string[]): Promise<AlarmDevice[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return scoped(this.db, companyId)
      .selectFrom('device')
      .select(['id', 'sn', 'name', 'group_id', 'series', 'status'])
      .where('id', 'in', ids)
      .execute();
  }

  groupNames(companyId: string, ids: readonly string[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return scoped(this.db, companyId)
      .selectFrom('device_group')
      .select(['id', 'name'])
      .where('id', 'in', ids)
      .execute();
  }

  /**
   * Devices of the rule's scope offline since `cutoff` or earlier, outside a restart window the
   * platform expects, without an open alarm of the rule.
   */
  offlineCandidates(
    companyId: string,
    rule: { id: string; scopeKind: string; scopeValue: string },
    cutoff: number,
    now: number,
    limit: number,
  ): Promise<AlarmDevice[]> {
    let query = scoped(this.db, companyId)
      .selectFrom('device')
      .select([
        'device.id',
        'device.sn',
        'device.name',
        'device.group_id',
        'device.series',
        'device.status',
      ])
      .where('device.status', '=', 'offline')
      .where(sql<number>`coalesce(device.last_disconnect_at, device.last_seen_at)`, '<=', cutoff)
      .where((eb) =>
        eb.or([eb('device.restart_until', 'is', null), eb('device.restart_until', '<=', now)]),
      )
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('alarm')
              .select('alarm.id')
              .where(sql<boolean>`alarm.open_key = ${rule.id} || ':' || device.id`),
          ),
        ),
      );
    if (rule.scopeKind === 'series') query = query.where('device.series', '=', rule.scopeValue);
    if (rule.scopeKind === 'group') query = query.where('device.group_id', '=', rule.scopeValue);
    if (rule.scopeKind === 'device') query = query.where('device.id', '=', rule.scopeValue);
    return query.limit(limit).execute();
  }

  // ---------------------------------------------------------------- alarms: writes

  async insertAlarm(row: AlarmRow): Promise<void> {
    const { company_id: companyId, ...rest } = row;
    await scoped(this.db, companyId).insertInto('alarm', rest).execute();
  }

  /**
   * A repeat of the open alarm with this key: its count, last time and value; not when the same
   * trigger was counted already. Returns the row as it is now, or undefined when nothing changed.
   */
  bumpOpen(
    companyId: string,
    openKey: string,
    repeat: { times: number; at: number; value: number | null; trigger: string },
  ) {
    return scoped(this.db, companyId)
      .updateTable('alarm')
      .set((eb) => ({
        count: eb('count', '+', repeat.times),
        last_time: sql<number>`case when last_time > ${repeat.at} then last_time else ${repeat.at} end`,
        value: repeat.value,
        last_trigger: repeat.trigger,
      }))
      .where('open_key', '=', openKey)
      .where((eb) =>
        eb.or([eb('last_trigger', 'is', null), eb('last_trigger', '<>', repeat.trigger)]),
      )
      .returningAll()
      .executeTakeFirst();
  }

  acknowledge(
    companyId: string,
    ids: readonly string[],
    ack: { by: string; at: number; comment: string | null },
  ) {
    if (ids.length === 0) return Promise.resolve([]);
    return scoped(this.db, companyId)
      .updateTable('alarm')
      .set({
        state: 'acknowledged',
        ack_by: ack.by,
        ack_time: ack.at,
        ack_comment: ack.comment,
        next_notify_time: null,
      })
      .where('id', 'in', ids)
      .where('state', '=', 'active')
      .returningAll()
      .execute();
  }

  clearIds(companyId: string, ids: readonly string[], fields: ClearFields) {
    if (ids.length === 0) return Promise.resolve([]);
    return scoped(this.db, companyId)
      .updateTable('alarm')
      .set(clearSet(fields))
      .where('id', 'in', ids)
      .where('state', 'in', OPEN_STATES)
      .returningAll()
      .execute();
  }

  /** Clears the open alarm of the rule for the device (open keys), or every one of the rule. */
  clearOpen(companyId: string, keys: readonly string[], fields: ClearFields) {
    if (keys.length === 0) return Promise.resolve([]);
    return scoped(this.db, companyId)
      .updateTable('alarm')
      .set(clearSet(fields))
      .where('open_key', 'in', keys)
      .returningAll()
      .execute();
  }

  clearRule(companyId: string, ruleId: string, fields: ClearFields) {
    return scoped(this.db, companyId)
      .updateTable('alarm')
      .set(clearSet(fields))
      .where('rule_id', '=', ruleId)
      .where('state', 'in', OPEN_STATES)
      .returningAll()
      .execute();
  }

  /** A deleted rule's alarms keep their rule's name but no longer point at it. */
  async detachRule(companyId: string, ruleId: string): Promise<void> {
    await scoped(this.db, companyId)
      .updateTable('alarm')
      .set({ rule_id: null })
      .where('rule_id', '=', ruleId)
      .execute();
  }

  /** Open alarms of deleted devices, of whichever company (device ids are unique everywhere). */
  clearDevices(deviceIds: readonly string[], fields: ClearFields) {
    return this.db
      .updateTable('alarm')
      .set(clearSet(fields))
      .where('device_id', 'in', deviceIds)
      .where('state', 'in', OPEN_STATES)
      .returningAll()
      .execute();
  }

  /** Open offline alarms whose device is online again, of every company. */
  offlineBackOnline(limit: number) {
    return this.db
      .selectFrom('alarm')
      .innerJoin('device', 'device.id', 'alarm.device_id')
      .select(['alarm.company_id', 'alarm.open_key'])
      .where('alarm.condition_type', '=', 'offline')
      .where('alarm.state', 'in', OPEN_STATES)
      .where('device.status', '=', 'online')
      .limit(limit)
      .execute();
  }

  /** Open alarms of every company, as each node's index of them starts. */
  openKeys() {
    return this.db
      .selectFrom('alarm')
      .select(['open_key', 'condition_type'])
      .where('state', 'in', OPEN_STATES)
      .execute();
  }

  /** Alarms whose held notification or reminder is due, of every company. */
  dueNotifications(now: number, limit: number) {
    return this.db
      .selectFrom('alarm')
      .selectAll()
      .where('next_notify_time', '<=', now)
      .where('state', '=', 'active')
      .orderBy('next_notify_time')
      .limit(limit)
      .execute();
  }

  /** Claims a due notification: true for the one node whose update moved it on. */
  async claimNotification(
    companyId: string,
    id: string,
    due: number,
    next: number | null,
  ): Promise<boolean> {
    const result = await scoped(this.db, companyId)
      .updateTable('alarm')
      .set((eb) => ({ next_notify_time: next, notified: eb('notified', '+', 1) }))
      .where('id', '=', id)
      .where('next_notify_time', '=', due)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async setNextNotify(companyId: string, id: string, next: number | null): Promise<void> {
    await scoped(this.db, companyId)
      .updateTable('alarm')
      .set({ next_notify_time: next })
      .where('id', '=', id)
      .execute();
  }

  // ---------------------------------------------------------------- alarms: reads

  private visible(companyId: string, rules: DataRuleFilter): AlarmQuery {
    let query = scoped(this.db, companyId)
      .selectFrom('alarm')
      .leftJoin('device', 'device.id', 'alarm.device_id') as unknown as AlarmQuery;
    const where = dataRuleWhere(rules, DEVICE_RULE_COLUMNS);
    if (where) query = query.where(where);
    return query;
  }

  private filtered(companyId: string, rules: DataRuleFilter, f: AlarmFilter): AlarmQuery {
    let query = this.visible(companyId, rules);
    if (f.severities?.length) query = query.where('alarm.severity', 'in', f.severities);
    if (f.states?.length) query = query.where('alarm.state', 'in', f.states);
    if (f.ruleId) query = query.where('alarm.rule_id', '=', f.ruleId);
    if (f.deviceId) query = query.where('alarm.device_id', '=', f.deviceId);
    if (f.groupId) query = query.where('alarm.group_id', '=', f.groupId);
    if (f.sn) {
      const pattern = containing(f.sn);
      query = query.where(
        sql<boolean>`(alarm.sn like ${pattern} escape '\\' or alarm.device_name like ${pattern} escape '\\')`,
      );
    }
    if (f.from !== undefined) query = query.where('alarm.last_time', '>=', f.from);
    if (f.to !== undefined) query = query.where('alarm.last_time', '<', f.to);
    return query;
  }

  page(
    companyId: string,
    rules: DataRuleFilter,
    filter: AlarmFilter,
    request: PageRequest & { order: 'asc' | 'desc' },
  ) {
    return selectPage(this.filtered(companyId, rules, filter), request, (rows) =>
      rows
        .selectAll('alarm')
        .orderBy('alarm.last_time', request.order)
        .orderBy('alarm.id', request.order),
    );
  }

  batch(
    companyId: string,
    rules: DataRuleFilter,
    filter: AlarmFilter,
    limit: number,
    offset: number,
  ) {
    return this.filtered(companyId, rules, filter)
      .selectAll('alarm')
      .orderBy('alarm.last_time', 'desc')
      .orderBy('alarm.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  byIds(companyId: string, rules: DataRuleFilter, ids: readonly string[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.visible(companyId, rules).selectAll('alarm').where('alarm.id', 'in', ids).execute();
  }

  /** Open alarms by state and severity. */
  counts(companyId: string, rules: DataRuleFilter) {
    return this.visible(companyId, rules)
      .select(['alarm.state', 'alarm.severity', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('alarm.state', 'in', OPEN_STATES)
      .groupBy(['alarm.state', 'alarm.severity'])
      .execute();
  }
}
