import {
  LOCATIONS_MAX,
  type TLocationExportQuery,
  type TLocationListQuery,
} from '@blrms/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import { containing } from '../../platform/db/like.js';
import { selectPage } from '../../platform/db/page.js';
import type { BaseLocationTable } from '../../platform/db/schema.js';
import { scoped } from '../../platform/db/scoped.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { countDevicesReferencing, idsIn } from './base-data.repository.js';

const SORT = {
  sortNo: 'sort_no',
  name: 'name',
  createTime: 'create_time',
} as const satisfies Record<TLocationListQuery['column'], keyof BaseLocationTable>;

export type LocationRow = BaseLocationTable;
export type NewLocation = Omit<BaseLocationTable, 'company_id'>;
export type LocationChange = Omit<
  BaseLocationTable,
  'id' | 'company_id' | 'create_by' | 'create_time'
>;
export type LocationNodeRow = Pick<
  BaseLocationTable,
  'id' | 'parent_id' | 'kind' | 'name' | 'latitude' | 'longitude' | 'sort_no' | 'create_time'
>;
type Filter = Pick<TLocationListQuery, 'name' | 'kind' | 'parentId'>;

/** `base_location` of one company: a tree of at most `LOCATIONS_MAX` rows. */
export class LocationRepository {
  constructor(private readonly db: Db) {}

  private base(companyId: string, filter: Filter) {
    let query = scoped(this.db, companyId).selectFrom('base_location');
    if (filter.name) {
      // Case-insensitive on both databases (PostgreSQL's like is not).
      query = query.where(
        sql<boolean>`lower(name) like ${containing(filter.name.toLowerCase())} escape '\\'`,
      );
    }
    if (filter.kind) query = query.where('kind', '=', filter.kind);
    if (filter.parentId) query = query.where('parent_id', '=', filter.parentId);
    return query;
  }

  page(companyId: string, q: TLocationListQuery) {
    return selectPage(this.base(companyId, q), q, (query) =>
      query.selectAll().orderBy(SORT[q.column], q.order).orderBy('id'),
    );
  }

  exportBatch(companyId: string, q: TLocationExportQuery, limit: number, offset: number) {
    return this.base(companyId, q)
      .selectAll()
      .orderBy('create_time')
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  /**
   * The company's whole tree (one more row than the cap, so that the caller can tell it was cut):
   * small columns only, for paths, tree selects and the hierarchy rules.
   */
  nodes(companyId: string): Promise<LocationNodeRow[]> {
    return scoped(this.db, companyId)
      .selectFrom('base_location')
      .select([
        'id',
        'parent_id',
        'kind',
        'name',
        'latitude',
        'longitude',
        'sort_no',
        'create_time',
      ])
      .orderBy('sort_no')
      .orderBy('name')
      .orderBy('id')
      .limit(LOCATIONS_MAX + 1)
      .execute();
  }

  existingIds(companyId: string, ids: string[]): Promise<string[]> {
    return idsIn(this.db, companyId, 'base_location', ids);
  }

  findIn(companyId: string, id: string) {
    return scoped(this.db, companyId)
      .selectFrom('base_location')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async insert(companyId: string, rows: NewLocation[]): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      // Parents come before their children in `rows`, so every reference is already written.
      for (let at = 0; at < rows.length; at += 500) {
        await scoped(trx, companyId)
          .insertInto('base_location', rows.slice(at, at + 500))
          .execute();
      }
    });
  }

  async update(companyId: string, id: string, change: LocationChange): Promise<boolean> {
    const result = await scoped(this.db, companyId)
      .updateTable('base_location')
      .set(change)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Deletes the rows unless a device is at one of them or one has children outside `ids`; the
   * checks and the delete run in one transaction. Children are deleted before their parents.
   */
  deleteIfFree(companyId: string, ids: string[]): Promise<{ devices: number; children: number }> {
    return inTransaction(this.db, async (trx) => {
      const devices = await countDevicesReferencing(trx, companyId, 'location_id', ids);
      const row = await scoped(trx, companyId)
        .selectFrom('base_location')
        .select(sql<number | string>`count(*)`.as('n'))
        .where('parent_id', 'in', ids)
        .where('id', 'not in', ids)
        .executeTakeFirst();
      const children = Number(row?.n ?? 0);
      if (devices > 0 || children > 0) return { devices, children };
      // A parent deleted with its children: children first, so no reference dangles meanwhile.
      let left = ids;
      while (left.length > 0) {
        const parents = await scoped(trx, companyId)
          .selectFrom('base_location')
          .select('parent_id')
          .where('id', 'in', left)
          .where('parent_id', 'is not', null)
          .execute();
        const parentIds = new Set(parents.map((p) => p.parent_id));
        const leaves = left.filter((id) => !parentIds.has(id));
        if (leaves.length === 0) break;
        await scoped(trx, companyId)
          .deleteFrom('base_location')
          .where('id', 'in', leaves)
          .execute();
        left = left.filter((id) => parentIds.has(id));
      }
      return { devices: 0, children: 0 };
    });
  }
}
