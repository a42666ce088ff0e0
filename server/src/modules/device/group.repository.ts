import type { TDeviceGroupQuery } from '@blrms/contracts';
import { sql } from 'kysely';
import type { DataRuleFilter } from '../../platform/auth/data-rules.js';
import type { Db } from '../../platform/db/database.js';
import { dataRuleWhere } from '../../platform/db/data-rule-sql.js';
import type { DeviceGroupTable } from '../../platform/db/schema.js';
import { scoped } from '../../platform/db/scoped.js';
import { containing } from '../../platform/db/like.js';
import { STATS_RULE_COLUMNS } from './stats-columns.rules.js';
import { selectPage } from '../../platform/db/page.js';

const SORT_COLUMNS = { createTime: 'create_time', name: 'name' } as const;

export class GroupRepository {
  constructor(private readonly db: Db) {}

  async page(companyId: string, query: TDeviceGroupQuery) {
    let base = scoped(this.db, companyId).selectFrom('device_group');
    if (query.name)
      base = base.where(sql<boolean>`name like ${containing(query.name)} escape '\\'`);
    return selectPage(base, query, (rows) =>
      rows.selectAll().orderBy(SORT_COLUMNS[query.column], query.order).orderBy('id', query.order),
    );
  }

  /** Devices per group and status, from `device_stats`, within the caller's data rules. */
  async counts(companyId: string, groupIds: string[], rules: DataRuleFilter) {
    if (groupIds.length === 0) return [];
    let query = scoped(this.db, companyId)
      .selectFrom('device_stats')
      .select(['group_id', 'status', (eb) => eb.fn.sum<number>('n').as('n')])
      .where('group_id', 'in', groupIds)
      .groupBy(['group_id', 'status']);
    const where = dataRuleWhere(rules, STATS_RULE_COLUMNS);
    if (where) query = query.where(where);
    const rows = await query.execute();
    return rows.map((r) => ({ groupId: r.group_id, status: r.status, count: Number(r.n) }));
  }

  options(companyId: string) {
    return scoped(this.db, companyId)
      .selectFrom('device_group')
      .select(['id', 'name'])
      .orderBy('name')
      .execute();
  }

  findById(companyId: string, id: string) {
    return scoped(this.db, companyId)
      .selectFrom('device_group')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async idsByName(companyId: string): Promise<Map<string, string>> {
    const rows = await this.options(companyId);
    return new Map(rows.map((r) => [r.name, r.id]));
  }

  async nameTaken(companyId: string, name: string, exceptId: string | null): Promise<boolean> {
    let query = scoped(this.db, companyId)
      .selectFrom('device_group')
      .select('id')
      .where('name', '=', name);
    if (exceptId) query = query.where('id', '<>', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  async insert(row: DeviceGroupTable): Promise<void> {
    await scoped(this.db, row.company_id).insertInto('device_group', row).execute();
  }

  async update(
    companyId: string,
    id: string,
    values: Pick<DeviceGroupTable, 'name' | 'update_time'> &
      Partial<Pick<DeviceGroupTable, 'remark'>>,
  ): Promise<boolean> {
    const result = await scoped(this.db, companyId)
      .updateTable('device_group')
      .set(values)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async existingIds(companyId: string, ids: string[]): Promise<string[]> {
    const rows = await scoped(this.db, companyId)
      .selectFrom('device_group')
      .select('id')
      .where('id', 'in', ids)
      .execute();
    return rows.map((r) => r.id);
  }

  /** `releaseDevices` (the devices leave the groups) runs first, in the same transaction. */
  async delete(
    companyId: string,
    ids: string[],
    releaseDevices: (trx: Db) => Promise<void>,
  ): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      await releaseDevices(trx);
      const result = await scoped(trx, companyId)
        .deleteFrom('device_group')
        .where('id', 'in', ids)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }
}
