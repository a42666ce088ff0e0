import type { TGoodsExportQuery, TGoodsListQuery } from '@blrms/contracts';
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import { containing } from '../../platform/db/like.js';
import { selectPage } from '../../platform/db/page.js';
import type { BaseGoodsTable, Database } from '../../platform/db/schema.js';
import { scoped } from '../../platform/db/scoped.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { countDevicesReferencing, idsIn } from './base-data.repository.js';

const SORT = {
  model: 'base_goods.model',
  series: 'base_goods.series',
  createTime: 'base_goods.create_time',
} as const satisfies Record<TGoodsListQuery['column'], string>;

export type GoodsRow = BaseGoodsTable & { datasheet_file_name: string | null };
export type NewGoods = Omit<BaseGoodsTable, 'company_id'>;
export type GoodsChange = Omit<BaseGoodsTable, 'id' | 'company_id' | 'create_by' | 'create_time'>;
type Filter = Pick<TGoodsListQuery, 'model' | 'series' | 'enabled'>;

/** `base_goods` of one company; the datasheet's name comes from the file library's row. */
export class GoodsRepository {
  constructor(private readonly db: Db) {}

  private base(companyId: string, filter: Filter) {
    let query = scoped(this.db, companyId)
      .selectFrom('base_goods')
      .leftJoin('sys_oss_file', (join) =>
        join
          .onRef('sys_oss_file.id', '=', 'base_goods.datasheet_file_id')
          .onRef('sys_oss_file.company_id', '=', 'base_goods.company_id'),
      );
    if (filter.model) {
      // Case-insensitive on both databases; a company's goods are few, so no index is wanted.
      const like = containing(filter.model.toLowerCase());
      query = query.where(
        sql<boolean>`(lower(base_goods.model) like ${like} escape '\\' or lower(base_goods.hw_revision) like ${like} escape '\\')`,
      );
    }
    if (filter.series) query = query.where('base_goods.series', '=', filter.series);
    if (filter.enabled !== undefined)
      query = query.where('base_goods.enabled', '=', filter.enabled);
    return query as unknown as SelectQueryBuilder<Database, 'base_goods' | 'sys_oss_file', object>;
  }

  private static columns(
    query: SelectQueryBuilder<Database, 'base_goods' | 'sys_oss_file', object>,
  ) {
    return query.selectAll('base_goods').select('sys_oss_file.name as datasheet_file_name');
  }

  page(companyId: string, q: TGoodsListQuery) {
    return selectPage(this.base(companyId, q), q, (query) =>
      GoodsRepository.columns(query).orderBy(SORT[q.column], q.order).orderBy('base_goods.id'),
    );
  }

  /** One batch of an export, in creation order. */
  exportBatch(companyId: string, q: TGoodsExportQuery, limit: number, offset: number) {
    return GoodsRepository.columns(this.base(companyId, q))
      .orderBy('base_goods.create_time')
      .orderBy('base_goods.id')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  findIn(companyId: string, id: string): Promise<GoodsRow | undefined> {
    return GoodsRepository.columns(this.base(companyId, {}))
      .where('base_goods.id', '=', id)
      .executeTakeFirst();
  }

  existingIds(companyId: string, ids: string[]): Promise<string[]> {
    return idsIn(this.db, companyId, 'base_goods', ids);
  }

  /** Every (model, hardware revision) of the company: what an import checks its rows against. */
  async keys(companyId: string): Promise<Set<string>> {
    const rows = await scoped(this.db, companyId)
      .selectFrom('base_goods')
      .select(['model', 'hw_revision'])
      .execute();
    return new Set(rows.map((r) => goodsKey(r.model, r.hw_revision)));
  }

  async insert(companyId: string, rows: NewGoods[]): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      for (let at = 0; at < rows.length; at += 500) {
        await scoped(trx, companyId)
          .insertInto('base_goods', rows.slice(at, at + 500))
          .execute();
      }
    });
  }

  async update(companyId: string, id: string, change: GoodsChange): Promise<boolean> {
    const result = await scoped(this.db, companyId)
      .updateTable('base_goods')
      .set(change)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Deletes the rows unless a device references one: the count and the delete run in one
   * transaction, so the answer is the number of referencing devices (0: deleted).
   */
  deleteUnreferenced(companyId: string, ids: string[]): Promise<number> {
    return inTransaction(this.db, async (trx) => {
      const count = await countDevicesReferencing(trx, companyId, 'goods_id', ids);
      if (count > 0) return count;
      await scoped(trx, companyId).deleteFrom('base_goods').where('id', 'in', ids).execute();
      return 0;
    });
  }
}

/** The unique key of goods in a company. */
export function goodsKey(model: string, hwRevision: string): string {
  return `${model}\u0000${hwRevision}`;
}
