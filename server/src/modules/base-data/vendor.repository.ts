import type { TVendorExportQuery, TVendorListQuery } from '@blrms/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import { containing } from '../../platform/db/like.js';
import { selectPage } from '../../platform/db/page.js';
import type { BaseVendorTable } from '../../platform/db/schema.js';
import { scoped } from '../../platform/db/scoped.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { countDevicesReferencing, idsIn } from './base-data.repository.js';

const SORT = {
  name: 'name',
  kind: 'kind',
  contractEnd: 'contract_end',
  createTime: 'create_time',
} as const satisfies Record<TVendorListQuery['column'], keyof BaseVendorTable>;

export type VendorRow = BaseVendorTable;
export type NewVendor = Omit<BaseVendorTable, 'company_id'>;
export type VendorChange = Omit<BaseVendorTable, 'id' | 'company_id' | 'create_by' | 'create_time'>;
type Filter = Pick<TVendorListQuery, 'name' | 'kind'>;

/** `base_vendor` of one company. */
export class VendorRepository {
  constructor(private readonly db: Db) {}

  private base(companyId: string, filter: Filter) {
    let query = scoped(this.db, companyId).selectFrom('base_vendor');
    if (filter.name) {
      // Case-insensitive on both databases (PostgreSQL's like is not).
      query = query.where(
        sql<boolean>`lower(name) like ${containing(filter.name.toLowerCase())} escape '\\'`,
      );
    }
    if (filter.kind) query = query.where('kind', '=', filter.kind);
    return query;
  }

  page(companyId: string, q: TVendorListQuery) {
    return selectPage(this.base(companyId, q), q, (query) =>
      query.selectAll().orderBy(SORT[q.column], q.order).orderBy('id'),
    );
  }

  exportBatch(companyId: string, q: TVendorExportQuery, limit: number, offset: number) {
    return this.base(companyId, q)
      .selectAll()
      .orderBy('create_time')
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  existingIds(companyId: string, ids: string[]): Promise<string[]> {
    return idsIn(this.db, companyId, 'base_vendor', ids);
  }

  findIn(companyId: string, id: string) {
    return scoped(this.db, companyId)
      .selectFrom('base_vendor')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async names(companyId: string): Promise<Set<string>> {
    const rows = await scoped(this.db, companyId)
      .selectFrom('base_vendor')
      .select('name')
      .execute();
    return new Set(rows.map((r) => r.name));
  }

  async insert(companyId: string, rows: NewVendor[]): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      for (let at = 0; at < rows.length; at += 500) {
        await scoped(trx, companyId)
          .insertInto('base_vendor', rows.slice(at, at + 500))
          .execute();
      }
    });
  }

  async update(companyId: string, id: string, change: VendorChange): Promise<boolean> {
    const result = await scoped(this.db, companyId)
      .updateTable('base_vendor')
      .set(change)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Deletes the rows unless a device references one; answers the referencing devices (0: done). */
  deleteUnreferenced(companyId: string, ids: string[]): Promise<number> {
    return inTransaction(this.db, async (trx) => {
      const count = await countDevicesReferencing(trx, companyId, 'vendor_id', ids);
      if (count > 0) return count;
      await scoped(trx, companyId).deleteFrom('base_vendor').where('id', 'in', ids).execute();
      return 0;
    });
  }
}
