import type { TOssFileQuery } from '@blrms/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import { containing } from '../../platform/db/like.js';
import { selectPage } from '../../platform/db/page.js';
import type { SysOssFileTable } from '../../platform/db/schema.js';
import { scoped } from '../../platform/db/scoped.js';
import { sharedSecret } from '../../platform/db/settings.js';

const SORT_COLUMNS = { createTime: 'create_time', name: 'name', size: 'size' } as const;

export class OssFileRepository {
  constructor(private readonly db: Db) {}

  page(companyId: string, query: TOssFileQuery) {
    let base = scoped(this.db, companyId).selectFrom('sys_oss_file');
    if (query.name) {
      // Case-insensitive on both databases (PostgreSQL's like is not).
      base = base.where(
        sql<boolean>`lower(name) like ${containing(query.name.toLowerCase())} escape '\\'`,
      );
    }
    if (query.contentType) base = base.where('content_type', '=', query.contentType);
    return selectPage(base, query, (q) =>
      q.selectAll().orderBy(SORT_COLUMNS[query.column], query.order).orderBy('id', query.order),
    );
  }

  find(companyId: string, id: string): Promise<SysOssFileTable | undefined> {
    return scoped(this.db, companyId)
      .selectFrom('sys_oss_file')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async insert(row: SysOssFileTable): Promise<void> {
    const { company_id: companyId, ...rest } = row;
    await scoped(this.db, companyId).insertInto('sys_oss_file', rest).execute();
  }

  /** Whether a row was deleted (false: not the company's, or already gone). */
  async delete(companyId: string, id: string): Promise<boolean> {
    const result = await scoped(this.db, companyId)
      .deleteFrom('sys_oss_file')
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  sharedSecret(key: string, now: number): Promise<string> {
    return sharedSecret(this.db, key, now);
  }
}
