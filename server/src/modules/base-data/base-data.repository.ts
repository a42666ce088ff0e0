import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import { scoped } from '../../platform/db/scoped.js';

/**
 * Devices of the company that point at one of the rows: read through the device columns' indexes
 * (company, X, create_time, id). A delete is refused while this is not 0.
 */
export async function countDevicesReferencing(
  db: Db,
  companyId: string,
  column: 'goods_id' | 'location_id' | 'vendor_id',
  ids: string[],
): Promise<number> {
  const row = await scoped(db, companyId)
    .selectFrom('device')
    .select(sql<number | string>`count(*)`.as('n'))
    .where(column, 'in', ids)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Which of the ids are rows of the company's table (a batch refers only to those). */
export async function idsIn(
  db: Db,
  companyId: string,
  table: 'base_goods' | 'base_location' | 'base_vendor',
  ids: string[],
): Promise<string[]> {
  const rows = await scoped(db, companyId)
    .selectFrom(table)
    .select('id')
    .where('id', 'in', ids)
    .execute();
  return rows.map((r) => r.id);
}
