import { sql } from 'kysely';
import type { TDeviceTokenQuery, TRemovedSnQuery } from '@blrms/contracts';
import type { Db } from '../../platform/db/database.js';
import type { DeviceTokenTable } from '../../platform/db/schema.js';
import { scoped } from '../../platform/db/scoped.js';
import { containing } from '../../platform/db/like.js';

const SORT_COLUMNS = {
  createTime: 'device_token.create_time',
  name: 'device_token.name',
} as const;

export class TokenRepository {
  constructor(private readonly db: Db) {}

  /** Tokens with the owner's username and their device count (from `device_stats`). */
  private withDetails(companyId: string) {
    const counts = scoped(this.db, companyId)
      .selectFrom('device_stats')
      .select(['token_id', (eb) => eb.fn.sum<number>('n').as('device_count')])
      .groupBy('token_id')
      .as('c');
    return scoped(this.db, companyId)
      .selectFrom('device_token')
      .innerJoin('sys_user as u', 'u.id', 'device_token.owner_id')
      .leftJoin(counts, 'c.token_id', 'device_token.id')
      .selectAll('device_token')
      .select(['u.username as owner_name', 'u.org_code as owner_org_code'])
      .select((eb) => eb.fn.coalesce('c.device_count', sql<number>`0`).as('device_count'));
  }

  async page(companyId: string, query: TDeviceTokenQuery) {
    let base = scoped(this.db, companyId).selectFrom('device_token');
    if (query.name)
      base = base.where(sql<boolean>`name like ${containing(query.name)} escape '\\'`);
    if (query.enabled) base = base.where('enabled', '=', query.enabled === 'true' ? 1 : 0);
    const ids = base.select('id');
    const [{ total } = { total: 0 }] = await base
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .execute();
    const records = await this.withDetails(companyId)
      .where('device_token.id', 'in', ids)
      .orderBy(SORT_COLUMNS[query.column], query.order)
      .orderBy('device_token.id', query.order)
      .limit(query.pageSize)
      .offset((query.pageNo - 1) * query.pageSize)
      .execute();
    return { records, total: Number(total) };
  }

  findById(companyId: string, id: string) {
    return this.withDetails(companyId).where('device_token.id', '=', id).executeTakeFirst();
  }

  async codeExists(code: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('device_token')
      .select('id')
      .where('code', '=', code)
      .executeTakeFirst();
    return row !== undefined;
  }

  async insert(row: DeviceTokenTable): Promise<void> {
    await scoped(this.db, row.company_id).insertInto('device_token', row).execute();
  }

  async update(
    companyId: string,
    id: string,
    values: Partial<
      Pick<
        DeviceTokenTable,
        'name' | 'remark' | 'auto_register' | 'enabled' | 'token_key' | 'key_hash' | 'update_time'
      >
    >,
  ): Promise<boolean> {
    const result = await scoped(this.db, companyId)
      .updateTable('device_token')
      .set(values)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Devices per token among `ids` (only tokens that have any). */
  async deviceCounts(companyId: string, ids: string[]) {
    const rows = await scoped(this.db, companyId)
      .selectFrom('device')
      .select(['token_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('token_id', 'in', ids)
      .groupBy('token_id')
      .execute();
    return rows.map((r) => ({ tokenId: r.token_id, count: Number(r.n) }));
  }

  async existingIds(companyId: string, ids: string[]): Promise<string[]> {
    const rows = await scoped(this.db, companyId)
      .selectFrom('device_token')
      .select('id')
      .where('id', 'in', ids)
      .execute();
    return rows.map((r) => r.id);
  }

  async delete(companyId: string, ids: string[]): Promise<number> {
    const result = await scoped(this.db, companyId)
      .deleteFrom('device_token')
      .where('id', 'in', ids)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** The SNs removed from a token, newest first. */
  async removedSns(companyId: string, query: TRemovedSnQuery) {
    let base = scoped(this.db, companyId)
      .selectFrom('device_removed_sn')
      .where('token_id', '=', query.tokenId);
    if (query.sn) base = base.where(sql<boolean>`sn like ${containing(query.sn)} escape '\\'`);
    const [{ total } = { total: 0 }] = await base
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .execute();
    const records = await base
      .select(['sn', 'removed_at', 'removed_by'])
      .orderBy('removed_at', query.order)
      .orderBy('sn', query.order)
      .limit(query.pageSize)
      .offset((query.pageNo - 1) * query.pageSize)
      .execute();
    return { records, total: Number(total) };
  }
}
