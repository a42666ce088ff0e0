import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { SysPositionTable } from '../../platform/db/schema.js';
import { scoped } from '../../platform/db/scoped.js';
import { containing } from '../../platform/db/like.js';
import { selectPage } from '../../platform/db/page.js';

const SORT_COLUMNS = {
  createTime: 'create_time',
  code: 'code',
  name: 'name',
  postRank: 'post_rank',
} as const;

export interface PositionFilter {
  name?: string | undefined;
  code?: string | undefined;
  postRank?: string | undefined;
}

export interface PositionPage {
  pageNo: number;
  pageSize: number;
  column: keyof typeof SORT_COLUMNS;
  order: 'asc' | 'desc';
}

export class PositionRepository {
  constructor(private readonly db: Db) {}

  private filtered(companyId: string, filter: PositionFilter) {
    let query = scoped(this.db, companyId).selectFrom('sys_position');
    if (filter.name) {
      const pattern = containing(filter.name);
      query = query.where(sql<boolean>`name like ${pattern} escape '\\'`);
    }
    if (filter.code) {
      const pattern = containing(filter.code);
      query = query.where(sql<boolean>`code like ${pattern} escape '\\'`);
    }
    if (filter.postRank) query = query.where('post_rank', '=', filter.postRank);
    return query;
  }

  async page(companyId: string, filter: PositionFilter, page: PositionPage) {
    const base = this.filtered(companyId, filter);
    return selectPage(base, page, (query) =>
      query.selectAll().orderBy(SORT_COLUMNS[page.column], page.order).orderBy('id', page.order),
    );
  }

  all(companyId: string) {
    return scoped(this.db, companyId)
      .selectFrom('sys_position')
      .select(['id', 'code', 'name'])
      .orderBy('code')
      .execute();
  }

  find(companyId: string, id: string) {
    return scoped(this.db, companyId)
      .selectFrom('sys_position')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async codeTaken(companyId: string, code: string, exceptId: string | null): Promise<boolean> {
    let query = scoped(this.db, companyId)
      .selectFrom('sys_position')
      .select('id')
      .where('code', '=', code);
    if (exceptId) query = query.where('id', '!=', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  async insert(row: SysPositionTable): Promise<void> {
    await scoped(this.db, row.company_id).insertInto('sys_position', row).execute();
  }

  async update(
    companyId: string,
    id: string,
    values: Pick<SysPositionTable, 'code' | 'name' | 'post_rank'>,
  ): Promise<void> {
    await scoped(this.db, companyId)
      .updateTable('sys_position')
      .set(values)
      .where('id', '=', id)
      .execute();
  }

  /** Deletes the company's positions among `ids`; user links go with them (foreign key cascade). */
  async delete(companyId: string, ids: string[]): Promise<number> {
    const result = await scoped(this.db, companyId)
      .deleteFrom('sys_position')
      .where('id', 'in', ids)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
