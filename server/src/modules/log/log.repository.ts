import { LOG_TYPE, type TSysLogQuery } from '@blrms/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { SysLogTable } from '../../platform/db/schema.js';
import { containing } from '../../platform/db/like.js';
import { selectPage } from '../../platform/db/page.js';
import { scoped } from '../../platform/db/scoped.js';
import type { RecordSource } from './operation.rules.js';

const SORT_COLUMNS = {
  createTime: 'create_time',
  costTime: 'cost_time',
  username: 'username',
} as const;

export interface LogFilter {
  logType: number;
  keyWord?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
}

export class LogRepository {
  constructor(private readonly db: Db) {}

  async insert(row: SysLogTable): Promise<void> {
    await this.db.insertInto('sys_log').values(row).execute();
  }

  /**
   * The display names of records by id, in the order of `ids`, for the operation log. Table and
   * column come from the log's fixed list (never from a request); records of another company
   * are left out.
   */
  async recordNames(source: RecordSource, ids: string[], companyId: string): Promise<string[]> {
    const t = sql.table(source.table);
    const owned = {
      company: sql`and t.company_id = ${companyId}`,
      userCompany: sql`and exists (select 1 from sys_user_company uc where uc.user_id = t.id and uc.company_id = ${companyId})`,
      departCompany: sql`and exists (select 1 from sys_depart d where d.id = t.depart_id and d.company_id = ${companyId})`,
      global: sql``,
    }[source.tenancy];
    const { rows } = await sql<{ id: string; name: string }>`
      select t.id as id, ${sql.ref(`t.${source.column}`)} as name from ${t} as t
      where t.id in (${sql.join(ids)}) ${owned}`.execute(this.db);
    const byId = new Map(rows.map((r) => [r.id, r.name]));
    return ids.flatMap((id) => {
      const name = byId.get(id);
      return name ? [name] : [];
    });
  }

  private filtered(companyId: string, filter: LogFilter) {
    let query = scoped(this.db, companyId)
      .selectFrom('sys_log')
      .where('log_type', '=', filter.logType);
    if (filter.keyWord) {
      const pattern = containing(filter.keyWord);
      query = query.where((eb) =>
        eb.or([
          sql<boolean>`${eb.ref('log_content')} like ${pattern} escape '\\'`,
          sql<boolean>`${eb.ref('username')} like ${pattern} escape '\\'`,
          sql<boolean>`${eb.ref('request_url')} like ${pattern} escape '\\'`,
        ]),
      );
    }
    if (filter.from !== undefined) query = query.where('create_time', '>=', filter.from);
    if (filter.to !== undefined) query = query.where('create_time', '<=', filter.to);
    return query;
  }

  page(
    companyId: string,
    filter: LogFilter,
    page: Pick<TSysLogQuery, 'pageNo' | 'pageSize' | 'column' | 'order'>,
  ) {
    return selectPage(this.filtered(companyId, filter), page, (query) =>
      query.selectAll().orderBy(SORT_COLUMNS[page.column], page.order).orderBy('id', page.order),
    );
  }

  /** Logins and distinct IPs of a company in [from, to). */
  async loginStats(companyId: string, from: number | null, to: number | null) {
    let query = scoped(this.db, companyId)
      .selectFrom('sys_log')
      .where('log_type', '=', LOG_TYPE.login);
    if (from !== null) query = query.where('create_time', '>=', from);
    if (to !== null) query = query.where('create_time', '<', to);
    const row = await query
      .select((eb) => [
        eb.fn.countAll<number>().as('visits'),
        eb.fn.count<number>('ip').distinct().as('ips'),
      ])
      .executeTakeFirst();
    return { visits: Number(row?.visits ?? 0), ips: Number(row?.ips ?? 0) };
  }

  lastLoginsOf(userId: string, limit: number) {
    return this.db
      .selectFrom('sys_log')
      .selectAll()
      .where('user_id', '=', userId)
      .where('log_type', '=', LOG_TYPE.login)
      .orderBy('create_time', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }
}
