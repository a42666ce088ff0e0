import type { TDictItemListQuery, TDictListQuery } from '@blrms/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import { containing } from '../../platform/db/like.js';
import { selectPage } from '../../platform/db/page.js';
import type { SysDictItemTable, SysDictTable } from '../../platform/db/schema.js';
import { scoped } from '../../platform/db/scoped.js';
import { inTransaction } from '../../platform/db/transaction.js';

const DICT_SORT = {
  dictCode: 'd.dict_code',
  dictName: 'd.dict_name',
  createTime: 'd.create_time',
} as const satisfies Record<TDictListQuery['column'], string>;

const ITEM_SORT = {
  sortOrder: 'sort_order',
  itemValue: 'item_value',
  itemText: 'item_text',
  createTime: 'create_time',
} as const satisfies Record<TDictItemListQuery['column'], keyof SysDictItemTable>;

export type DictRow = SysDictTable;
export type DictItemRow = SysDictItemTable;
export type NewDict = Omit<SysDictTable, 'company_id'>;
type DictChange = Pick<SysDictTable, 'dict_name' | 'dict_name_en' | 'dict_code' | 'description'>;
export type ItemChange = Omit<SysDictItemTable, 'id' | 'dict_id' | 'create_time'>;

/** Rows an import writes into one company, all in one transaction. */
export interface DictImportWrite {
  newDicts: NewDict[];
  changedDicts: { id: string; change: Omit<DictChange, 'dict_code'>; at: number }[];
  newItems: SysDictItemTable[];
  changedItems: { id: string; dictId: string; change: ItemChange }[];
}

/**
 * A dictionary belongs to a company; the platform company's are read by every company. Queries
 * reach a dictionary through the company-scoped handle of its owner, the caller's or the
 * platform's; items are reached only through a dictionary found so.
 */
export class DictRepository {
  constructor(private readonly db: Db) {}

  /** Live (or, with `deleted`, recycled) dictionaries of the company, plus the platform's. */
  async page(companyId: string, platformId: string | null, q: TDictListQuery, deleted: boolean) {
    const flag = deleted ? 1 : 0;
    const own = scoped(this.db, companyId)
      .selectFrom('sys_dict')
      .selectAll()
      .where('del_flag', '=', flag);
    const source =
      platformId && platformId !== companyId
        ? own.unionAll(
            scoped(this.db, platformId)
              .selectFrom('sys_dict')
              .selectAll()
              .where('del_flag', '=', flag),
          )
        : own;
    let base = this.db.selectFrom(source.as('d'));
    if (q.dictCode) {
      base = base.where(sql<boolean>`d.dict_code like ${containing(q.dictCode)} escape '\\'`);
    }
    if (q.dictName) {
      const like = containing(q.dictName);
      base = base.where(
        sql<boolean>`(d.dict_name like ${like} escape '\\' or d.dict_name_en like ${like} escape '\\')`,
      );
    }
    return selectPage(base, q, (query) =>
      query.selectAll().orderBy(DICT_SORT[q.column], q.order).orderBy('d.id'),
    );
  }

  findIn(companyId: string, id: string) {
    return scoped(this.db, companyId)
      .selectFrom('sys_dict')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The company's dictionary of this code, in the recycle bin or not. */
  findCodeIn(companyId: string, code: string) {
    return scoped(this.db, companyId)
      .selectFrom('sys_dict')
      .selectAll()
      .where('dict_code', '=', code)
      .executeTakeFirst();
  }

  async liveCodesIn(companyId: string, codes: string[]): Promise<Set<string>> {
    if (codes.length === 0) return new Set();
    const rows = await scoped(this.db, companyId)
      .selectFrom('sys_dict')
      .select('dict_code')
      .where('del_flag', '=', 0)
      .where('dict_code', 'in', codes)
      .execute();
    return new Set(rows.map((r) => r.dict_code));
  }

  async countIn(companyId: string): Promise<number> {
    const row = await scoped(this.db, companyId)
      .selectFrom('sys_dict')
      .select(sql<number | string>`count(*)`.as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async insert(companyId: string, row: NewDict): Promise<void> {
    await scoped(this.db, companyId).insertInto('sys_dict', row).execute();
  }

  async update(companyId: string, id: string, change: DictChange, at: number): Promise<boolean> {
    const result = await scoped(this.db, companyId)
      .updateTable('sys_dict')
      .set({ ...change, update_time: at })
      .where('id', '=', id)
      .where('del_flag', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Moves live dictionaries to the recycle bin, or back; how many moved. */
  async setDeleted(companyId: string, ids: string[], deleted: boolean, at: number) {
    const result = await scoped(this.db, companyId)
      .updateTable('sys_dict')
      .set({ del_flag: deleted ? 1 : 0, update_time: at })
      .where('id', 'in', ids)
      .where('del_flag', '=', deleted ? 0 : 1)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Deletes a dictionary in the recycle bin for good, its items with it (cascade). */
  async purge(companyId: string, id: string): Promise<boolean> {
    const result = await scoped(this.db, companyId)
      .deleteFrom('sys_dict')
      .where('id', '=', id)
      .where('del_flag', '=', 1)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /** The company's live dictionary of this code, else the platform's. */
  async resolve(companyId: string, platformId: string, code: string) {
    const live = (owner: string) =>
      scoped(this.db, owner)
        .selectFrom('sys_dict')
        .select('id')
        .where('dict_code', '=', code)
        .where('del_flag', '=', 0)
        .executeTakeFirst();
    return (await live(companyId)) ?? (companyId === platformId ? undefined : live(platformId));
  }

  enabledItems(dictId: string) {
    return this.db
      .selectFrom('sys_dict_item')
      .select(['item_value', 'item_text', 'item_text_en', 'item_color'])
      .where('dict_id', '=', dictId)
      .where('status', '=', 1)
      .orderBy('sort_order')
      .orderBy('item_value')
      .execute();
  }

  /** Items of a dictionary the caller was found to see. */
  itemPage(q: TDictItemListQuery) {
    let base = this.db.selectFrom('sys_dict_item').where('dict_id', '=', q.dictId);
    if (q.itemText) {
      const like = containing(q.itemText);
      base = base.where(
        sql<boolean>`(item_text like ${like} escape '\\' or item_text_en like ${like} escape '\\' or item_value like ${like} escape '\\')`,
      );
    }
    if (q.status !== undefined) base = base.where('status', '=', q.status);
    return selectPage(base, q, (query) =>
      query.selectAll().orderBy(ITEM_SORT[q.column], q.order).orderBy('id'),
    );
  }

  findItem(id: string) {
    return this.db.selectFrom('sys_dict_item').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The items of these dictionaries, in their order (exports). */
  itemsOf(dictIds: string[]) {
    if (dictIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('sys_dict_item')
      .selectAll()
      .where('dict_id', 'in', dictIds)
      .orderBy('sort_order')
      .orderBy('item_value')
      .execute();
  }

  async itemValueTaken(dictId: string, value: string, exceptId?: string): Promise<boolean> {
    let q = this.db
      .selectFrom('sys_dict_item')
      .select('id')
      .where('dict_id', '=', dictId)
      .where('item_value', '=', value);
    if (exceptId) q = q.where('id', '<>', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  async itemCount(dictId: string): Promise<number> {
    const row = await this.db
      .selectFrom('sys_dict_item')
      .select(sql<number | string>`count(*)`.as('n'))
      .where('dict_id', '=', dictId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async insertItem(row: SysDictItemTable): Promise<void> {
    await this.db.insertInto('sys_dict_item').values(row).execute();
  }

  async updateItem(dictId: string, id: string, change: ItemChange): Promise<boolean> {
    const result = await this.db
      .updateTable('sys_dict_item')
      .set(change)
      .where('id', '=', id)
      .where('dict_id', '=', dictId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async deleteItems(dictId: string, ids: string[]): Promise<number> {
    const result = await this.db
      .deleteFrom('sys_dict_item')
      .where('dict_id', '=', dictId)
      .where('id', 'in', ids)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** The live dictionaries of one company with the export's filters, by code. */
  exportDicts(companyId: string, filter: { dictCode?: string; dictName?: string }) {
    let q = scoped(this.db, companyId).selectFrom('sys_dict').selectAll().where('del_flag', '=', 0);
    if (filter.dictCode) {
      q = q.where(sql<boolean>`dict_code like ${containing(filter.dictCode)} escape '\\'`);
    }
    if (filter.dictName) {
      const like = containing(filter.dictName);
      q = q.where(
        sql<boolean>`(dict_name like ${like} escape '\\' or dict_name_en like ${like} escape '\\')`,
      );
    }
    return q.orderBy('dict_code').execute();
  }

  /** Every dictionary of the company by code (recycled ones too), with its items' values. */
  async importState(companyId: string) {
    const dicts = await scoped(this.db, companyId).selectFrom('sys_dict').selectAll().execute();
    const items = await this.itemsOf(dicts.map((d) => d.id));
    return { dicts, items };
  }

  async writeImport(companyId: string, write: DictImportWrite): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      const company = scoped(trx, companyId);
      for (const d of write.newDicts) await company.insertInto('sys_dict', d).execute();
      for (const { id, change, at } of write.changedDicts) {
        await company
          .updateTable('sys_dict')
          .set({ ...change, update_time: at })
          .where('id', '=', id)
          .execute();
      }
      for (const item of write.newItems) {
        await trx.insertInto('sys_dict_item').values(item).execute();
      }
      for (const { id, dictId, change } of write.changedItems) {
        await trx
          .updateTable('sys_dict_item')
          .set(change)
          .where('id', '=', id)
          .where('dict_id', '=', dictId)
          .execute();
      }
    });
  }
}
