import type { TSiteListQuery } from '@blrms/contracts';
import { sql, type Expression, type SqlBool } from 'kysely';
import type { DataRuleFilter } from '../../platform/auth/data-rules.js';
import type { Db } from '../../platform/db/database.js';
import { dataRuleWhere } from '../../platform/db/data-rule-sql.js';
import { scoped } from '../../platform/db/scoped.js';
import { readSetting, writeSetting } from '../../platform/db/settings.js';
import { DEVICE_RULE_COLUMNS } from '../device/stats-columns.rules.js';

/**
 * Regions and sites read at most (the base-data module keeps a company under 5,000 locations, so
 * this only guards against a table filled some other way).
 */
const LOCATIONS_READ_MAX = 10_000;
const OPEN_ALARM_STATES = ['active', 'acknowledged'];

/** Conditions on `device` for the map: the query's group and series, and the caller's data rules. */
function deviceConditions(q: TSiteListQuery, rules: DataRuleFilter): Expression<SqlBool>[] {
  const conditions: Expression<SqlBool>[] = [];
  if (q.groupId !== undefined) conditions.push(sql<SqlBool>`device.group_id = ${q.groupId}`);
  if (q.series !== undefined) conditions.push(sql<SqlBool>`device.series = ${q.series}`);
  const where = dataRuleWhere(rules, DEVICE_RULE_COLUMNS);
  if (where) conditions.push(where);
  return conditions;
}

/**
 * Read-only over the base-data module's locations, the device table and alarms (their owners
 * write them); it writes only its own platform setting. A device counts for a site when its
 * location is the site or one of the site's cabinets (a cabinet's parent is always a site).
 */
export class SiteMapRepository {
  constructor(private readonly db: Db) {}

  /** The company's regions and sites (cabinets are never markers), in the map's order. */
  sitesAndRegions(companyId: string) {
    return scoped(this.db, companyId)
      .selectFrom('base_location')
      .select(['id', 'parent_id', 'kind', 'name', 'latitude', 'longitude'])
      .where('kind', 'in', ['region', 'site'])
      .orderBy('sort_no')
      .orderBy('name')
      .orderBy('id')
      .limit(LOCATIONS_READ_MAX)
      .execute();
  }

  /** Sites the map cannot place: no coordinates. */
  async unplacedSites(companyId: string): Promise<number> {
    const row = await scoped(this.db, companyId)
      .selectFrom('base_location')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('kind', '=', 'site')
      .where((eb) => eb.or([eb('latitude', 'is', null), eb('longitude', 'is', null)]))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Devices by location (a site or a cabinet) and status. */
  deviceCounts(companyId: string, q: TSiteListQuery, rules: DataRuleFilter) {
    let query = scoped(this.db, companyId)
      .selectFrom('device')
      .innerJoin('base_location as l', 'l.id', 'device.location_id')
      .where('l.company_id', '=', companyId)
      .where('l.kind', 'in', ['site', 'cabinet'])
      .select(['l.id', 'l.kind', 'l.parent_id', 'device.status'])
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .groupBy(['l.id', 'l.kind', 'l.parent_id', 'device.status']);
    for (const condition of deviceConditions(q, rules)) query = query.where(condition);
    return query.execute();
  }

  /** Open (active or acknowledged) alarms of those devices, by location. */
  openAlarmCounts(companyId: string, q: TSiteListQuery, rules: DataRuleFilter) {
    let query = scoped(this.db, companyId)
      .selectFrom('alarm')
      .innerJoin('device', 'device.id', 'alarm.device_id')
      .innerJoin('base_location as l', 'l.id', 'device.location_id')
      .where('alarm.state', 'in', OPEN_ALARM_STATES)
      .where('device.company_id', '=', companyId)
      .where('l.company_id', '=', companyId)
      .where('l.kind', 'in', ['site', 'cabinet'])
      .select(['l.id', 'l.kind', 'l.parent_id'])
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .groupBy(['l.id', 'l.kind', 'l.parent_id']);
    for (const condition of deviceConditions(q, rules)) query = query.where(condition);
    return query.execute();
  }

  readSetting(key: string): Promise<string | undefined> {
    return readSetting(this.db, key);
  }

  writeSetting(key: string, value: string, now: number): Promise<void> {
    return writeSetting(this.db, key, value, now);
  }
}
