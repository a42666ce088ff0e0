import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import { containing } from '../../platform/db/like.js';
import { selectPage } from '../../platform/db/page.js';
import { storedBytesOf } from '../../platform/files/storage.repository.js';

const SORT_COLUMNS = { createTime: 'c.create_time', name: 'c.name', code: 'c.code' } as const;

export interface CompanyFilter {
  name?: string | undefined;
  status?: number | undefined;
}

export interface CompanyPaging {
  pageNo: number;
  pageSize: number;
  column: keyof typeof SORT_COLUMNS;
  order: 'asc' | 'desc';
}

export interface NewCompany {
  companyId: string;
  name: string;
  code: string;
  now: number;
}

/**
 * Companies are the tenants themselves: these queries span companies on purpose and are reached
 * only by platform administrators (checked by the service).
 */
export class CompanyRepository {
  constructor(private readonly db: Db) {}

  private filtered(filter: CompanyFilter) {
    let query = this.db.selectFrom('sys_company as c');
    if (filter.name) {
      const pattern = containing(filter.name);
      query = query.where(
        sql<boolean>`(c.name like ${pattern} escape '\\' or c.code like ${pattern} escape '\\')`,
      );
    }
    if (filter.status !== undefined) query = query.where('c.status', '=', filter.status);
    return query;
  }

  async page(filter: CompanyFilter, page: CompanyPaging) {
    const base = this.filtered(filter);
    return selectPage(base, page, (query) =>
      query
        .selectAll('c')
        .select((eb) =>
          eb
            .selectFrom('sys_user as u')
            .select(eb.fn.countAll<number>().as('n'))
            .whereRef('u.company_id', '=', 'c.id')
            .where('u.del_flag', '=', 0)
            .as('user_count'),
        )
        .select(storedBytesOf('c.id').as('storage_used'))
        .orderBy(SORT_COLUMNS[page.column], page.order)
        .orderBy('c.id', page.order),
    );
  }

  find(id: string) {
    return this.db
      .selectFrom('sys_company as c')
      .selectAll('c')
      .select((eb) =>
        eb
          .selectFrom('sys_user as u')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('u.company_id', '=', 'c.id')
          .where('u.del_flag', '=', 0)
          .as('user_count'),
      )
      .select(storedBytesOf('c.id').as('storage_used'))
      .where('c.id', '=', id)
      .executeTakeFirst();
  }

  async codeTaken(code: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('sys_company')
      .select('id')
      .where('code', '=', code)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Permission rows a company administrator gets: everything but the platform-only ones. */
  async companyAdminPermissionIds(platformOnlyPrefixes: readonly string[]): Promise<string[]> {
    const rows = await this.db
      .selectFrom('sys_permission')
      .select(['id', 'perms'])
      .where('del_flag', '=', 0)
      // Other companies' rows (their online forms) are theirs alone.
      .where('company_id', 'is', null)
      .execute();
    return rows
      .filter((r) => !platformOnlyPrefixes.some((p) => r.perms?.startsWith(p)))
      .map((r) => r.id);
  }

  /**
   * The company row and, through `alsoInTransaction` (its root department, admin role and first
   * administrator, each written by its own module), the rest: all or nothing.
   */
  async create(c: NewCompany, alsoInTransaction: (trx: Db) => Promise<void>): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('sys_company')
        .values({
          id: c.companyId,
          name: c.name,
          code: c.code,
          status: 1,
          is_platform: 0,
          create_time: c.now,
          update_time: null,
        })
        .execute();
      await alsoInTransaction(trx);
    });
  }

  async rename(id: string, name: string, now: number): Promise<void> {
    await this.db
      .updateTable('sys_company')
      .set({ name, update_time: now })
      .where('id', '=', id)
      .execute();
  }

  async setStorageQuota(id: string, quota: number | null, now: number): Promise<void> {
    await this.db
      .updateTable('sys_company')
      .set({ storage_quota: quota, update_time: now })
      .where('id', '=', id)
      .execute();
  }

  async setStatus(id: string, status: number, now: number): Promise<void> {
    await this.db
      .updateTable('sys_company')
      .set({ status, update_time: now })
      .where('id', '=', id)
      .execute();
  }

  /** Users holding the company's `admin` role. */
  admins(companyId: string) {
    return this.db
      .selectFrom('sys_user as u')
      .innerJoin('sys_user_role as ur', 'ur.user_id', 'u.id')
      .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
      .select(['u.id', 'u.username', 'u.realname', 'u.phone', 'u.email', 'u.status'])
      .where('r.company_id', '=', companyId)
      .where('r.role_code', '=', 'admin')
      .where('u.del_flag', '=', 0)
      .orderBy('u.username')
      .execute();
  }
}
