import { COMPANY_STATUS, type TAdminUserQuery } from '@blrms/contracts';
import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { Database, SysUserTable } from '../../platform/db/schema.js';
import { scoped } from '../../platform/db/scoped.js';
import { containing } from '../../platform/db/like.js';
import { selectPage } from '../../platform/db/page.js';
import { inTransaction } from '../../platform/db/transaction.js';

const SORT_COLUMNS = {
  createTime: 'u.create_time',
  username: 'u.username',
  realname: 'u.realname',
} as const;

export interface UserFilter {
  /** null: every company (platform administrators without a company filter). */
  companyId: string | null;
  username?: string | undefined;
  realname?: string | undefined;
  phone?: string | undefined;
  status?: number | undefined;
  departId?: string | undefined;
}

export interface UserLinks {
  roleIds: string[];
  departIds: string[];
  positionIds: string[];
}

export interface NamedRow {
  id: string;
  name: string;
  nameEn: string | null;
}

export interface UserLinkRows {
  roles: NamedRow[];
  departs: NamedRow[];
  positionIds: string[];
}

type Page = Pick<TAdminUserQuery, 'pageNo' | 'pageSize' | 'column' | 'order'>;

/**
 * The one writer of `sys_user`, `sys_user_company` and `sys_user_position`: other modules go
 * through `UserService`. A user's roles and departments are written by the role and depart modules.
 */
export class UserRepository {
  constructor(private readonly db: Db) {}

  /** A live user by a unique login field. */
  findBy(field: 'username' | 'phone' | 'email', value: string) {
    return this.db
      .selectFrom('sys_user')
      .selectAll()
      .where(field, '=', value)
      .where('del_flag', '=', 0)
      .executeTakeFirst();
  }

  findById(id: string) {
    return this.db
      .selectFrom('sys_user')
      .selectAll()
      .where('id', '=', id)
      .where('del_flag', '=', 0)
      .executeTakeFirst();
  }

  /** The user's departments inside one company, in tree order. */
  departsOf(userId: string, companyId: string) {
    return this.db
      .selectFrom('sys_user_depart as ud')
      .innerJoin('sys_depart as d', 'd.id', 'ud.depart_id')
      .select(['d.id', 'd.org_code', 'd.depart_name', 'd.depart_name_en', 'd.parent_id'])
      .where('ud.user_id', '=', userId)
      .where('d.company_id', '=', companyId)
      .orderBy('d.org_code')
      .execute();
  }

  /** Companies the user may act in: the default one and any extra memberships. */
  companiesOf(userId: string, defaultCompanyId: string) {
    return (
      this.db
        .selectFrom('sys_company as c')
        .select(['c.id', 'c.name'])
        // A frozen company cannot be acted in, so it is not offered.
        .where('c.status', '=', COMPANY_STATUS.active)
        .where((eb) =>
          eb.or([
            eb('c.id', '=', defaultCompanyId),
            eb(
              'c.id',
              'in',
              eb.selectFrom('sys_user_company').select('company_id').where('user_id', '=', userId),
            ),
          ]),
        )
        .orderBy('c.create_time')
        .execute()
    );
  }

  async setOrgCode(userId: string, orgCode: string, now: number): Promise<void> {
    await this.db
      .updateTable('sys_user')
      .set({ org_code: orgCode, update_time: now })
      .where('id', '=', userId)
      .execute();
  }
  private filtered(filter: UserFilter) {
    let query = this.db
      .selectFrom('sys_user as u')
      .innerJoin('sys_company as c', 'c.id', 'u.company_id')
      .where('u.del_flag', '=', 0);
    if (filter.companyId !== null) query = query.where('u.company_id', '=', filter.companyId);
    for (const [column, text] of [
      ['u.username', filter.username],
      ['u.realname', filter.realname],
      ['u.phone', filter.phone],
    ] as const) {
      if (text) {
        query = query.where(
          (eb) => sql<boolean>`${eb.ref(column)} like ${containing(text)} escape '\\'`,
        );
      }
    }
    if (filter.status !== undefined) query = query.where('u.status', '=', filter.status);
    if (filter.departId) {
      const departId = filter.departId;
      query = query.where('u.id', 'in', (eb) =>
        eb.selectFrom('sys_user_depart').select('user_id').where('depart_id', '=', departId),
      );
    }
    return query;
  }

  async page(filter: UserFilter, page: Page) {
    const base = this.filtered(filter);
    return selectPage(base, page, (query) =>
      query
        .selectAll('u')
        .select('c.name as company_name')
        .orderBy(SORT_COLUMNS[page.column], page.order)
        .orderBy('u.id', page.order),
    );
  }

  /** Every match, for the export; capped by the caller. */
  all(filter: UserFilter, limit: number) {
    return this.filtered(filter)
      .selectAll('u')
      .select('c.name as company_name')
      .orderBy('u.create_time', 'desc')
      .orderBy('u.id', 'desc')
      .limit(limit)
      .execute();
  }

  /** A live user by id with its company's name, in one company, or in any when `companyId` is null. */
  findWithCompany(id: string, companyId: string | null) {
    return this.filtered({ companyId })
      .selectAll('u')
      .select('c.name as company_name')
      .where('u.id', '=', id)
      .executeTakeFirst();
  }

  /** Whether another row (deleted ones included: their names stay reserved) has the value. */
  async taken(
    field: 'username' | 'phone' | 'email',
    value: string,
    exceptId: string | undefined,
  ): Promise<boolean> {
    let query = this.db.selectFrom('sys_user').select('id').where(field, '=', value);
    if (exceptId) query = query.where('id', '!=', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  async linksOf(userIds: string[]): Promise<Map<string, UserLinkRows>> {
    const result = new Map<string, UserLinkRows>(
      userIds.map((id) => [id, { roles: [], departs: [], positionIds: [] }]),
    );
    if (userIds.length === 0) return result;
    const [roles, departs, positions] = await Promise.all([
      this.db
        .selectFrom('sys_user_role as ur')
        .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
        .select(['ur.user_id', 'r.id', 'r.role_name as name', 'r.role_name_en as nameEn'])
        .where('ur.user_id', 'in', userIds)
        .orderBy('r.role_code')
        .execute(),
      this.db
        .selectFrom('sys_user_depart as ud')
        .innerJoin('sys_depart as d', 'd.id', 'ud.depart_id')
        .select(['ud.user_id', 'd.id', 'd.depart_name as name', 'd.depart_name_en as nameEn'])
        .where('ud.user_id', 'in', userIds)
        .orderBy('d.org_code')
        .execute(),
      this.db
        .selectFrom('sys_user_position')
        .select(['user_id', 'position_id'])
        .where('user_id', 'in', userIds)
        .execute(),
    ]);
    for (const { user_id, ...role } of roles) result.get(user_id)?.roles.push(role);
    for (const { user_id, ...depart } of departs) result.get(user_id)?.departs.push(depart);
    for (const p of positions) result.get(p.user_id)?.positionIds.push(p.position_id);
    return result;
  }

  /** Of the given ids, those that are rows of the company in the table. */
  async ownedIds(
    table: 'sys_role' | 'sys_depart' | 'sys_position',
    companyId: string,
    ids: string[],
  ): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await scoped(this.db, companyId)
      .selectFrom(table)
      .select(`${table}.id as id`)
      .where(`${table}.id`, 'in', ids)
      .execute();
    return new Set(rows.map((r) => (r as { id: string }).id));
  }

  /** Company row, to check that it exists before a user is added to it. */
  company(id: string) {
    return this.db
      .selectFrom('sys_company')
      .select(['id', 'name'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /**
   * The user with its company membership and positions. `writeLinks` (the role and depart modules
   * write the user's roles and departments) runs in the same transaction: the caller's when
   * `executor` is one (a company and its first administrator).
   */
  async insert(
    user: SysUserTable,
    positionIds: string[],
    writeLinks: (trx: Db) => Promise<void>,
    executor: Db = this.db,
  ): Promise<void> {
    await inTransaction(executor, async (trx) => {
      await trx.insertInto('sys_user').values(user).execute();
      await trx
        .insertInto('sys_user_company')
        .values({ user_id: user.id, company_id: user.company_id })
        .execute();
      await writeLinks(trx);
      await insertPositions(trx, user.id, positionIds);
    });
  }

  /**
   * Only the links inside the user's company are the form's to replace; `writeLinks` (roles and
   * departments, written by their modules) runs in the same transaction.
   */
  async update(
    id: string,
    fields: Pick<SysUserTable, 'realname' | 'phone' | 'email' | 'update_time'>,
    links: Pick<UserLinks, 'departIds' | 'positionIds'>,
    companyId: string,
    writeLinks: (trx: Db) => Promise<void>,
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const company = scoped(trx, companyId);
      await trx.updateTable('sys_user').set(fields).where('id', '=', id).execute();
      await writeLinks(trx);
      await trx
        .deleteFrom('sys_user_position')
        .where('user_id', '=', id)
        .where('position_id', 'in', company.selectFrom('sys_position').select('sys_position.id'))
        .execute();
      await insertPositions(trx, id, links.positionIds);
      // As when a member leaves a department: a department left stops being the current one.
      const left = (eb: ExpressionBuilder<Database, 'sys_depart'>) =>
        eb.and([
          eb('sys_depart.company_id', '=', companyId),
          ...(links.departIds.length > 0 ? [eb('sys_depart.id', 'not in', links.departIds)] : []),
        ]);
      await trx
        .updateTable('sys_user')
        .set({ org_code: null })
        .where('id', '=', id)
        .where('org_code', 'in', (eb) =>
          eb.selectFrom('sys_depart').select('sys_depart.org_code').where(left),
        )
        .execute();
    });
  }

  /**
   * The users stop having the department as their current one, in the caller's transaction when
   * `executor` is one (leaving a department).
   */
  async clearCurrentDepart(
    userIds: string[],
    orgCode: string,
    now: number,
    executor: Db = this.db,
  ): Promise<void> {
    await executor
      .updateTable('sys_user')
      .set({ org_code: null, update_time: now })
      .where('id', 'in', userIds)
      .where('org_code', '=', orgCode)
      .execute();
  }

  async setStatus(ids: string[], status: number, now: number): Promise<void> {
    await this.db
      .updateTable('sys_user')
      .set({ status, update_time: now })
      .where('id', 'in', ids)
      .execute();
  }

  async softDelete(ids: string[], now: number): Promise<void> {
    await this.db
      .updateTable('sys_user')
      .set({ del_flag: 1, update_time: now })
      .where('id', 'in', ids)
      .execute();
  }

  async setPasswordHash(id: string, hash: string, now: number): Promise<void> {
    await this.db
      .updateTable('sys_user')
      .set({ password_hash: hash, update_time: now })
      .where('id', '=', id)
      .execute();
  }

  /** Live, active holders of the company's `admin` role. */
  async activeAdminIds(companyId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('sys_user_role as ur')
      .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
      .innerJoin('sys_user as u', 'u.id', 'ur.user_id')
      .select('u.id')
      .where('r.company_id', '=', companyId)
      .where('r.role_code', '=', 'admin')
      .where('u.del_flag', '=', 0)
      .where('u.status', '=', 1)
      .execute();
    return rows.map((r) => r.id);
  }

  async adminRoleId(companyId: string): Promise<string | undefined> {
    const row = await scoped(this.db, companyId)
      .selectFrom('sys_role')
      .select('id')
      .where('role_code', '=', 'admin')
      .executeTakeFirst();
    return row?.id;
  }

  /** Permission ids the roles grant. */
  async permissionIdsOfRoles(roleIds: string[]): Promise<Set<string>> {
    if (roleIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('sys_role_permission')
      .select('permission_id')
      .where('role_id', 'in', roleIds)
      .execute();
    return new Set(rows.map((r) => r.permission_id));
  }

  usersOfDepart(departId: string, companyId: string) {
    return this.filtered({ companyId, departId })
      .selectAll('u')
      .select('c.name as company_name')
      .orderBy('u.username')
      .limit(1000)
      .execute();
  }
}

async function insertPositions(trx: Db, userId: string, positionIds: string[]): Promise<void> {
  if (positionIds.length > 0) {
    await trx
      .insertInto('sys_user_position')
      .values(positionIds.map((position_id) => ({ user_id: userId, position_id })))
      .execute();
  }
}
