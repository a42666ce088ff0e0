import { DEVICE_LOCATION_SEPARATOR, locationPath, type TDeviceFilter } from '@blrms/contracts';
import { sql, type SelectQueryBuilder } from 'kysely';
import type { DataRuleFilter } from '../../platform/auth/data-rules.js';
import type { Db, Dialect } from '../../platform/db/database.js';
import { dataRuleWhere } from '../../platform/db/data-rule-sql.js';
import type { Database, DeviceTable } from '../../platform/db/schema.js';
import { scoped } from '../../platform/db/scoped.js';
import { containing } from '../../platform/db/like.js';
import { DEVICE_RULE_COLUMNS, STATS_RULE_COLUMNS } from './stats-columns.rules.js';

const SORT_COLUMNS = {
  createTime: 'device.create_time',
  sn: 'device.sn',
  name: 'device.name',
  series: 'device.series',
  version: 'device.version',
  status: 'device.status',
  lastSeenAt: 'device.last_seen_at',
} as const;
export type DeviceSortColumn = keyof typeof SORT_COLUMNS;

export interface DeviceSort {
  column: DeviceSortColumn;
  order: 'asc' | 'desc';
}

/** 23 columns × 1000 rows stays below the bound-parameter limits (SQLite 32766, PostgreSQL 65535). */
const INSERT_BATCH = 1000;
const LOOKUP_BATCH = 500;
/** Goods, locations or vendors an import reads to resolve names: far above a company's count. */
const REFERENCE_ROWS_MAX = 50_000;

export type DeviceFilter = Omit<TDeviceFilter, 'createTime_begin' | 'createTime_end'> & {
  from?: number | undefined;
  to?: number | undefined;
};

/** Filters `device_stats` can answer: equality on its dimensions only. */
function countableFromStats(filter: DeviceFilter): boolean {
  return (
    !filter.sn &&
    !filter.name &&
    !filter.version &&
    !filter.goodsId &&
    !filter.locationId &&
    !filter.vendorId &&
    !filter.tags &&
    filter.from === undefined &&
    filter.to === undefined
  );
}

type DeviceQuery = SelectQueryBuilder<Database, 'device', object>;

/** Trigram indexes look up texts of at least three characters; shorter ones are scanned for. */
const TRIGRAM = 3;

const isTrigramText = (text: string | undefined) => !!text && [...text].length >= TRIGRAM;

/** Whether a trigram index can find the devices of the list (SN or name of 3+ characters). */
function usesTrigrams(filter: DeviceFilter): boolean {
  return isTrigramText(filter.sn) || isTrigramText(filter.name);
}

/**
 * Up to this many matches, sorting all the devices a trigram index finds (~20 ms for 20,000 in
 * PostgreSQL) is cheaper than walking the sort column's index past the devices that do not match.
 */
const SORT_ALL_MATCHES_UP_TO = 20_000;

/** Locations are nested a few levels (region, site, cabinet); this bounds a walk up a bad chain. */
const LOCATION_DEPTH_MAX = 16;

/**
 * The one writer of `device` and `device_removed_sn` (the group and token services come here
 * too), but for the gateway's MQTT path: presence columns and auto-registered devices.
 */
export class DeviceRepository {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Devices whose `column` contains `text`, ignoring case. On PostgreSQL the `like` of lower-case
   * forms is what the pg_trgm indexes of `lower(sn)` and `lower(name)` serve. On SQLite `like`
   * ignores ASCII case and decides; the FTS5 trigram table `device_text` narrows the devices
   * first (case-folded, so a superset of what `like` keeps).
   */
  private contains(column: 'sn' | 'name', text: string) {
    const ref = sql.ref(`device.${column}`);
    if (this.dialect === 'postgres') {
      return sql<boolean>`lower(${ref}) like lower(${containing(text)}) escape '\\'`;
    }
    const like = sql<boolean>`${ref} like ${containing(text)} escape '\\'`;
    if (!isTrigramText(text)) return like;
    const phrase = `${column} : "${text.replaceAll('"', '""')}"`;
    return sql<boolean>`device.rowid in (select rowid from device_text where device_text match ${phrase}) and ${like}`;
  }

  private filtered(companyId: string, filter: DeviceFilter, rules: DataRuleFilter): DeviceQuery {
    let query = scoped(this.db, companyId).selectFrom('device');
    if (filter.sn) query = query.where(this.contains('sn', filter.sn));
    if (filter.name) query = query.where(this.contains('name', filter.name));
    if (filter.version) {
      query = query.where(
        sql<boolean>`device.version like ${containing(filter.version)} escape '\\'`,
      );
    }
    if (filter.series) query = query.where('device.series', '=', filter.series);
    if (filter.status) query = query.where('device.status', '=', filter.status);
    if (filter.ownerId) query = query.where('device.owner_id', '=', filter.ownerId);
    if (filter.tokenId) query = query.where('device.token_id', '=', filter.tokenId);
    if (filter.groupId === 'none') query = query.where('device.group_id', 'is', null);
    else if (filter.groupId) query = query.where('device.group_id', '=', filter.groupId);
    if (filter.goodsId) query = query.where('device.goods_id', '=', filter.goodsId);
    if (filter.vendorId) query = query.where('device.vendor_id', '=', filter.vendorId);
    if (filter.locationId) {
      query = query.where(this.atOrUnder(companyId, filter.locationId));
    }
    if (filter.tags) {
      const tagged = scoped(this.db, companyId)
        .selectFrom('device_tag')
        .select('device_tag.device_id')
        .where('device_tag.tag', 'in', filter.tags);
      query = query.where('device.id', 'in', tagged);
    }
    if (filter.from !== undefined) query = query.where('device.create_time', '>=', filter.from);
    if (filter.to !== undefined) query = query.where('device.create_time', '<=', filter.to);
    const where = dataRuleWhere(rules, DEVICE_RULE_COLUMNS);
    return where ? query.where(where) : query;
  }

  /**
   * Devices at the location or at any location under it (a region's sites, a site's cabinets).
   * `union` rather than `union all` ends the walk should a parent chain ever loop.
   */
  private atOrUnder(companyId: string, locationId: string) {
    return sql<boolean>`device.location_id in (
      with recursive under(id) as (
        select id from base_location where company_id = ${companyId} and id = ${locationId}
        union
        select base_location.id from base_location inner join under on base_location.parent_id = under.id
        where base_location.company_id = ${companyId}
      )
      select id from under)`;
  }

  /** Device rows with the names the API shows (the location's path comes from `locationPaths`). */
  private detailed(query: DeviceQuery) {
    return query
      .innerJoin('device_token', 'device_token.id', 'device.token_id')
      .innerJoin('sys_user', 'sys_user.id', 'device.owner_id')
      .leftJoin('device_group', 'device_group.id', 'device.group_id')
      .leftJoin('base_goods', 'base_goods.id', 'device.goods_id')
      .leftJoin('base_vendor', 'base_vendor.id', 'device.vendor_id')
      .selectAll('device')
      .select([
        'device_token.code as token_code',
        'device_token.name as token_name',
        'sys_user.username as owner_name',
        'device_group.name as group_name',
        'base_goods.model as goods_model',
        'base_vendor.name as vendor_name',
      ]);
  }

  /**
   * The path of names from the top of each location down to it, by location id: one walk up the
   * tree for all the locations of a page.
   */
  async locationPaths(companyId: string, locationIds: string[]): Promise<Map<string, string>> {
    const paths = new Map<string, string>();
    for (let i = 0; i < locationIds.length; i += LOOKUP_BATCH) {
      const ids = locationIds.slice(i, i + LOOKUP_BATCH);
      const { rows } = await sql<{ start_id: string; name: string; depth: number }>`
        with recursive chain(start_id, parent_id, name, depth) as (
          select id, parent_id, name, 0 from base_location
          where company_id = ${companyId} and id in (${sql.join(ids)})
          union all
          select chain.start_id, base_location.parent_id, base_location.name, chain.depth + 1
          from base_location inner join chain on base_location.id = chain.parent_id
          where base_location.company_id = ${companyId} and chain.depth < ${LOCATION_DEPTH_MAX}
        )
        select start_id, name, depth from chain`.execute(this.db);
      const names = new Map<string, { name: string; depth: number }[]>();
      for (const r of rows) {
        names.set(r.start_id, [...(names.get(r.start_id) ?? []), r]);
      }
      for (const [id, chain] of names) {
        chain.sort((a, b) => Number(b.depth) - Number(a.depth));
        paths.set(id, chain.map((c) => c.name).join(DEVICE_LOCATION_SEPARATOR));
      }
    }
    return paths;
  }

  /** The `device_stats` rows a list's filters and rules select (equality filters only). */
  private statsRows(companyId: string, filter: DeviceFilter, rules: DataRuleFilter) {
    let query = scoped(this.db, companyId).selectFrom('device_stats');
    if (filter.series) query = query.where('series', '=', filter.series);
    if (filter.status) query = query.where('status', '=', filter.status);
    if (filter.ownerId) query = query.where('owner_id', '=', filter.ownerId);
    if (filter.tokenId) query = query.where('token_id', '=', filter.tokenId);
    if (filter.groupId) {
      query = query.where('group_id', '=', filter.groupId === 'none' ? '' : filter.groupId);
    }
    const where = dataRuleWhere(rules, STATS_RULE_COLUMNS);
    return where ? query.where(where) : query;
  }

  /**
   * The count of a list: from `device_stats` when the filters are equalities on its dimensions
   * (a few hundred rows to add up, however many devices there are), else by counting devices.
   */
  async count(companyId: string, filter: DeviceFilter, rules: DataRuleFilter): Promise<number> {
    const query = countableFromStats(filter)
      ? this.statsRows(companyId, filter, rules).select((eb) => eb.fn.sum<number>('n').as('n'))
      : this.filtered(companyId, filter, rules).select((eb) => eb.fn.countAll<number>().as('n'));
    const row = await query.executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  page(
    companyId: string,
    filter: DeviceFilter,
    rules: DataRuleFilter,
    sort: DeviceSort,
    limit: number,
    offset: number,
  ) {
    return this.sorted(this.detailed(this.filtered(companyId, filter, rules)), sort, limit, offset);
  }

  private sorted<Q extends ReturnType<DeviceRepository['detailed']>>(
    query: Q,
    sort: DeviceSort,
    limit: number,
    offset: number,
  ) {
    return query
      .orderBy(SORT_COLUMNS[sort.column], sort.order)
      .orderBy('device.id', sort.order)
      .limit(limit)
      .offset(offset)
      .execute();
  }

  /**
   * PostgreSQL guesses how many devices a substring matches from a sample of SNs or names, and
   * guesses high for rare texts; it then walks the sort column's index to find the page's 20
   * matches early, and reads the whole index when there are fewer than that (0.6 s at a million
   * devices). Once the count says the matches are few, the page takes them from the trigram index
   * and sorts them: `offset 0` keeps the planner from merging the subquery and its sort.
   */
  private async pageOfTrigramMatches(
    companyId: string,
    filter: DeviceFilter,
    rules: DataRuleFilter,
    sort: DeviceSort,
    limit: number,
    offset: number,
  ): Promise<{ rows: DeviceRow[]; total: number }> {
    const total = await this.count(companyId, filter, rules);
    if (total > SORT_ALL_MATCHES_UP_TO) {
      return { rows: await this.page(companyId, filter, rules, sort, limit, offset), total };
    }
    const matches = this.filtered(companyId, filter, rules).selectAll('device').offset(0);
    const fenced = this.db.selectFrom(matches.as('device')) as unknown as DeviceQuery;
    return { rows: await this.sorted(this.detailed(fenced), sort, limit, offset), total };
  }

  /**
   * A page and the total. When `device_stats` can count, the total rides along in the page's own
   * statement (one round trip to the database instead of two).
   */
  async pageWithTotal(
    companyId: string,
    filter: DeviceFilter,
    rules: DataRuleFilter,
    sort: DeviceSort,
    limit: number,
    offset: number,
  ): Promise<{ rows: DeviceRow[]; total: number }> {
    if (this.dialect === 'postgres' && usesTrigrams(filter)) {
      return this.pageOfTrigramMatches(companyId, filter, rules, sort, limit, offset);
    }
    if (!countableFromStats(filter)) {
      const [rows, total] = await Promise.all([
        this.page(companyId, filter, rules, sort, limit, offset),
        this.count(companyId, filter, rules),
      ]);
      return { rows, total };
    }
    const total = this.statsRows(companyId, filter, rules).select((eb) =>
      eb.fn.sum<number>('n').as('n'),
    );
    const rows = await this.detailed(this.filtered(companyId, filter, rules))
      .select(total.as('stats_total'))
      .orderBy(SORT_COLUMNS[sort.column], sort.order)
      .orderBy('device.id', sort.order)
      .limit(limit)
      .offset(offset)
      .execute();
    const first = rows[0];
    if (first) return { rows, total: Number(first.stats_total ?? 0) };
    // Past the last page: no row carried the total.
    return { rows, total: offset === 0 ? 0 : await this.count(companyId, filter, rules) };
  }

  findById(companyId: string, id: string, rules: DataRuleFilter) {
    return this.detailed(this.filtered(companyId, {}, rules))
      .where('device.id', '=', id)
      .executeTakeFirst();
  }

  /** Of `ids`, the devices the caller may see, with what their log entries need. */
  visible(companyId: string, ids: string[], rules: DataRuleFilter) {
    return this.filtered(companyId, {}, rules)
      .innerJoin('sys_user', 'sys_user.id', 'device.owner_id')
      .select([
        'device.id',
        'device.sn',
        'device.token_id',
        'device.group_id',
        'sys_user.username as owner_name',
      ])
      .where('device.id', 'in', ids)
      .execute();
  }

  /** Of `ids`, those the caller may see (company and data rules), in batches of LOOKUP_BATCH. */
  async visibleIds(companyId: string, ids: string[], rules: DataRuleFilter): Promise<string[]> {
    const found: string[] = [];
    for (let i = 0; i < ids.length; i += LOOKUP_BATCH) {
      const rows = await this.filtered(companyId, {}, rules)
        .select('device.id')
        .where('device.id', 'in', ids.slice(i, i + LOOKUP_BATCH))
        .execute();
      for (const r of rows) found.push(r.id);
    }
    return found;
  }

  /** Whether the goods, location or vendor is a row of the company. */
  async referenceExists(
    companyId: string,
    table: 'base_goods' | 'base_location' | 'base_vendor',
    id: string,
  ): Promise<boolean> {
    const row = await scoped(this.db, companyId)
      .selectFrom(table)
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The company's goods (model → ids: a model may come in several hardware revisions). */
  async goodsByModel(companyId: string): Promise<Map<string, string[]>> {
    const rows = await scoped(this.db, companyId)
      .selectFrom('base_goods')
      .select(['id', 'model'])
      .limit(REFERENCE_ROWS_MAX)
      .execute();
    const byModel = new Map<string, string[]>();
    for (const r of rows) byModel.set(r.model, [...(byModel.get(r.model) ?? []), r.id]);
    return byModel;
  }

  /** The company's vendors by name (names are unique in a company). */
  async vendorsByName(companyId: string): Promise<Map<string, string>> {
    const rows = await scoped(this.db, companyId)
      .selectFrom('base_vendor')
      .select(['id', 'name'])
      .limit(REFERENCE_ROWS_MAX)
      .execute();
    return new Map(rows.map((r) => [r.name, r.id]));
  }

  /** The company's locations by their path of names (several may share one: all are kept). */
  async locationsByPath(companyId: string): Promise<Map<string, string[]>> {
    const rows = await scoped(this.db, companyId)
      .selectFrom('base_location')
      .select(['id', 'parent_id', 'name'])
      .limit(REFERENCE_ROWS_MAX)
      .execute();
    const byId = new Map(rows.map((r) => [r.id, { name: r.name, parentId: r.parent_id }]));
    const byPath = new Map<string, string[]>();
    for (const r of rows) {
      const path = locationPath(r.id, byId, DEVICE_LOCATION_SEPARATOR);
      byPath.set(path, [...(byPath.get(path) ?? []), r.id]);
    }
    return byPath;
  }

  /** Of `sns`, those already registered under the company's token. */
  async existingSns(companyId: string, tokenId: string, sns: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < sns.length; i += LOOKUP_BATCH) {
      const rows = await scoped(this.db, companyId)
        .selectFrom('device')
        .select('sn')
        .where('token_id', '=', tokenId)
        .where('sn', 'in', sns.slice(i, i + LOOKUP_BATCH))
        .execute();
      for (const r of rows) found.add(r.sn);
    }
    return found;
  }

  /**
   * In one transaction: all rows or none. Devices added by hand may register again: their SNs
   * leave their token's removed list.
   */
  async insert(companyId: string, rows: DeviceTable[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const company = scoped(trx, companyId);
      for (let i = 0; i < rows.length; i += INSERT_BATCH) {
        const chunk = rows.slice(i, i + INSERT_BATCH);
        await company.insertInto('device', chunk).execute();
        const byToken = new Map<string, string[]>();
        for (const r of chunk) byToken.set(r.token_id, [...(byToken.get(r.token_id) ?? []), r.sn]);
        for (const [tokenId, sns] of byToken) {
          await company
            .deleteFrom('device_removed_sn')
            .where('token_id', '=', tokenId)
            .where('sn', 'in', sns)
            .execute();
        }
      }
    });
  }

  async update(
    companyId: string,
    id: string,
    values: Partial<
      Pick<
        DeviceTable,
        | 'name'
        | 'series'
        | 'model'
        | 'version'
        | 'group_id'
        | 'remark'
        | 'location'
        | 'goods_id'
        | 'location_id'
        | 'vendor_id'
        | 'enabled'
      >
    > &
      Pick<DeviceTable, 'update_time'>,
  ): Promise<void> {
    await scoped(this.db, companyId)
      .updateTable('device')
      .set(values)
      .where('id', '=', id)
      .execute();
  }

  async moveToGroup(companyId: string, ids: string[], groupId: string | null, now: number) {
    const result = await scoped(this.db, companyId)
      .updateTable('device')
      .set({ group_id: groupId, update_time: now })
      .where('id', 'in', ids)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /**
   * Deletes devices and, in the same transaction, puts their SNs on their tokens' removed lists:
   * a deleted device that is still out there does not register itself again.
   */
  async delete(
    companyId: string,
    devices: { id: string; sn: string; token_id: string }[],
    removal: { by: string; at: number },
  ): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < devices.length; i += INSERT_BATCH) {
        await scoped(trx, companyId)
          .insertInto(
            'device_removed_sn',
            devices.slice(i, i + INSERT_BATCH).map((d) => ({
              token_id: d.token_id,
              sn: d.sn,
              removed_by: removal.by,
              removed_at: removal.at,
            })),
          )
          .onConflict((oc) =>
            oc
              .columns(['token_id', 'sn'])
              .doUpdateSet({ removed_by: removal.by, removed_at: removal.at }),
          )
          .execute();
      }
      const result = await scoped(trx, companyId)
        .deleteFrom('device')
        .where(
          'id',
          'in',
          devices.map((d) => d.id),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }

  /** The groups' devices leave them, in the transaction that deletes the groups. */
  async ungroup(companyId: string, groupIds: string[], trx: Db): Promise<void> {
    await scoped(trx, companyId)
      .updateTable('device')
      .set({ group_id: null })
      .where('group_id', 'in', groupIds)
      .execute();
  }

  /** Lets removed SNs register with the token again; returns how many were removed. */
  async allowSns(companyId: string, tokenId: string, sns: string[]): Promise<number> {
    const result = await scoped(this.db, companyId)
      .deleteFrom('device_removed_sn')
      .where('token_id', '=', tokenId)
      .where('sn', 'in', sns)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Devices by series, status and firmware version, from `device_stats`. */
  async breakdown(companyId: string, rules: DataRuleFilter) {
    let query = scoped(this.db, companyId)
      .selectFrom('device_stats')
      .select(['series', 'status', 'version', (eb) => eb.fn.sum<number>('n').as('n')])
      .groupBy(['series', 'status', 'version']);
    const where = dataRuleWhere(rules, STATS_RULE_COLUMNS);
    if (where) query = query.where(where);
    const rows = await query.execute();
    return rows
      .map((r) => ({
        series: r.series,
        status: r.status,
        version: r.version === '' ? null : r.version,
        count: Number(r.n),
      }))
      .filter((r) => r.count > 0);
  }

  /** Offline devices last seen at or after `since` (connected devices are seen now). */
  async offlineSeenSince(companyId: string, since: number, rules: DataRuleFilter): Promise<number> {
    const row = await this.filtered(companyId, { status: 'offline' }, rules)
      .where('device.last_seen_at', '>=', since)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}

export type DeviceRow = NonNullable<Awaited<ReturnType<DeviceRepository['findById']>>>;
