import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { SysDepartRoleTable, SysDepartTable } from '../../platform/db/schema.js';
import { scoped } from '../../platform/db/scoped.js';
import { containing } from '../../platform/db/like.js';
import { selectPage } from '../../platform/db/page.js';

const MEMBER_SORT = {
  username: 'u.username',
  realname: 'u.realname',
  createTime: 'u.create_time',
} as const;
const ROLE_SORT = {
  roleName: 'r.role_name',
  roleCode: 'r.role_code',
  createTime: 'r.create_time',
} as const;

export interface Paging<C extends string> {
  pageNo: number;
  pageSize: number;
  column: C;
  order: 'asc' | 'desc';
}

const MEMBER_COLUMNS = [
  'u.id',
  'u.username',
  'u.realname',
  'u.phone',
  'u.email',
  'u.status',
] as const;

export class DepartRepository {
  constructor(private readonly db: Db) {}

  /** The company's departments among `ids`, each with its members (a null user when none). */
  membersOfDeparts(companyId: string, ids: readonly string[]) {
    return scoped(this.db, companyId)
      .selectFrom('sys_depart')
      .leftJoin('sys_user_depart', 'sys_user_depart.depart_id', 'sys_depart.id')
      .select(['sys_depart.id as departId', 'sys_user_depart.user_id as userId'])
      .where('sys_depart.id', 'in', ids)
      .execute();
  }

  all(companyId: string) {
    return scoped(this.db, companyId)
      .selectFrom('sys_depart')
      .selectAll()
      .orderBy('depart_order')
      .orderBy('org_code')
      .execute();
  }

  find(companyId: string, id: string) {
    return scoped(this.db, companyId)
      .selectFrom('sys_depart')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  search(companyId: string, keyWord: string) {
    const pattern = containing(keyWord);
    return scoped(this.db, companyId)
      .selectFrom('sys_depart')
      .selectAll()
      .where(
        sql<boolean>`(depart_name like ${pattern} escape '\\' or depart_name_en like ${pattern} escape '\\')`,
      )
      .orderBy('org_code')
      .limit(200)
      .execute();
  }

  /** Codes of a department's direct children. */
  async childCodes(companyId: string, parentId: string): Promise<string[]> {
    const rows = await scoped(this.db, companyId)
      .selectFrom('sys_depart')
      .select('org_code')
      .where('parent_id', '=', parentId)
      .execute();
    return rows.map((r) => r.org_code);
  }

  /**
   * Top-level codes of every company: org codes are unique across companies (a child's code
   * extends its parent's), so a new top-level code must be free everywhere. Only codes are read.
   */
  async topLevelCodes(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('sys_depart')
      .select('org_code')
      .where('parent_id', 'is', null)
      .execute();
    return rows.map((r) => r.org_code);
  }

  /** In the caller's transaction when `executor` is one (a company is created with its root). */
  async insert(row: SysDepartTable, executor: Db = this.db): Promise<void> {
    await scoped(executor, row.company_id).insertInto('sys_depart', row).execute();
  }

  async update(
    companyId: string,
    id: string,
    values: Pick<
      SysDepartTable,
      'depart_name' | 'depart_name_en' | 'org_category' | 'depart_order'
    >,
  ): Promise<void> {
    await scoped(this.db, companyId)
      .updateTable('sys_depart')
      .set(values)
      .where('id', '=', id)
      .execute();
  }

  async countChildren(companyId: string, id: string): Promise<number> {
    const row = await scoped(this.db, companyId)
      .selectFrom('sys_depart')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('parent_id', '=', id)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async countMembers(departId: string): Promise<number> {
    const row = await this.db
      .selectFrom('sys_user_depart as ud')
      .innerJoin('sys_user as u', 'u.id', 'ud.user_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('ud.depart_id', '=', departId)
      .where('u.del_flag', '=', 0)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /**
   * Its grants, roles and their grants go with it (foreign key cascade). Returns the ids of the
   * department roles that went, for the permission caches.
   */
  async delete(companyId: string, id: string): Promise<string[]> {
    return this.db.transaction().execute(async (trx) => {
      const roles = await trx
        .selectFrom('sys_depart_role')
        .select('id')
        .where('depart_id', '=', id)
        .execute();
      // Links of deleted users keep the row alive otherwise: those users are gone for good.
      await trx.deleteFrom('sys_user_depart').where('depart_id', '=', id).execute();
      await scoped(trx, companyId).deleteFrom('sys_depart').where('id', '=', id).execute();
      return roles.map((r) => r.id);
    });
  }

  /** Departments a user belongs to in a company. */
  departsOfUser(companyId: string, userId: string) {
    return scoped(this.db, companyId)
      .selectFrom('sys_depart')
      .innerJoin('sys_user_depart as ud', 'ud.depart_id', 'sys_depart.id')
      .select('sys_depart.id')
      .where('ud.user_id', '=', userId)
      .execute();
  }

  private members(departId: string, filter: string | undefined) {
    let query = this.db
      .selectFrom('sys_user_depart as ud')
      .innerJoin('sys_user as u', 'u.id', 'ud.user_id')
      .where('ud.depart_id', '=', departId)
      .where('u.del_flag', '=', 0);
    if (filter) {
      const pattern = containing(filter);
      query = query.where(
        sql<boolean>`(u.username like ${pattern} escape '\\' or u.realname like ${pattern} escape '\\')`,
      );
    }
    return query;
  }

  async memberPage(
    departId: string,
    filter: string | undefined,
    page: Paging<keyof typeof MEMBER_SORT>,
  ) {
    const base = this.members(departId, filter);
    return selectPage(base, page, (query) =>
      query
        .select([...MEMBER_COLUMNS])
        .orderBy(MEMBER_SORT[page.column], page.order)
        .orderBy('u.id', page.order),
    );
  }

  /** Users of the company (default company or member) who are not in the department yet. */
  candidates(companyId: string, departId: string, keyWord: string | undefined) {
    let query = this.companyUsers(companyId)
      .where('u.id', 'not in', (eb) =>
        eb.selectFrom('sys_user_depart').select('user_id').where('depart_id', '=', departId),
      )
      .select([...MEMBER_COLUMNS]);
    if (keyWord) {
      const pattern = containing(keyWord);
      query = query.where(
        sql<boolean>`(u.username like ${pattern} escape '\\' or u.realname like ${pattern} escape '\\')`,
      );
    }
    return query.orderBy('u.username').limit(50).execute();
  }

  private companyUsers(companyId: string) {
    return this.db
      .selectFrom('sys_user as u')
      .where('u.del_flag', '=', 0)
      .where((eb) =>
        eb.or([
          eb('u.company_id', '=', companyId),
          eb(
            'u.id',
            'in',
            eb.selectFrom('sys_user_company').select('user_id').where('company_id', '=', companyId),
          ),
        ]),
      );
  }

  /** The ids among `userIds` that are users of the company. */
  async usersOfCompany(companyId: string, userIds: string[]): Promise<string[]> {
    const rows = await this.companyUsers(companyId)
      .where('u.id', 'in', userIds)
      .select('u.id')
      .execute();
    return rows.map((r) => r.id);
  }

  /** The ids among `userIds` that are members of the department. */
  async membersAmong(departId: string, userIds: string[]): Promise<string[]> {
    if (userIds.length === 0) return [];
    const rows = await this.members(departId, undefined)
      .where('u.id', 'in', userIds)
      .select('u.id')
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * Replaces the user's departments of the company (another company's stay), in the caller's
   * transaction. As when a member is removed from a department, its department roles end with it.
   */
  async setUserDeparts(userId: string, companyId: string, departIds: string[], trx: Db) {
    const company = scoped(trx, companyId);
    await trx
      .deleteFrom('sys_user_depart')
      .where('user_id', '=', userId)
      .where('depart_id', 'in', company.selectFrom('sys_depart').select('sys_depart.id'))
      .execute();
    if (departIds.length > 0) {
      await trx
        .insertInto('sys_user_depart')
        .values(departIds.map((depart_id) => ({ user_id: userId, depart_id })))
        .execute();
    }
    let left = company
      .selectFrom('sys_depart')
      .innerJoin('sys_depart_role', 'sys_depart_role.depart_id', 'sys_depart.id')
      .select('sys_depart_role.id');
    if (departIds.length > 0) left = left.where('sys_depart.id', 'not in', departIds);
    await trx
      .deleteFrom('sys_depart_role_user')
      .where('user_id', '=', userId)
      .where('drole_id', 'in', left)
      .execute();
  }

  async addMembers(departId: string, userIds: string[]): Promise<void> {
    await this.db
      .insertInto('sys_user_depart')
      .values(userIds.map((user_id) => ({ user_id, depart_id: departId })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  /**
   * Leaving a department also ends its department roles; `alsoInTransaction` (the leave handlers:
   * the user module clears the department as the members' current one) runs in the same
   * transaction.
   */
  async removeMembers(
    departId: string,
    userIds: string[],
    alsoInTransaction: (trx: Db) => Promise<void>,
  ) {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('sys_depart_role_user')
        .where('user_id', 'in', userIds)
        .where('drole_id', 'in', (eb) =>
          eb.selectFrom('sys_depart_role').select('id').where('depart_id', '=', departId),
        )
        .execute();
      await trx
        .deleteFrom('sys_user_depart')
        .where('depart_id', '=', departId)
        .where('user_id', 'in', userIds)
        .execute();
      await alsoInTransaction(trx);
    });
  }

  async departPermissionIds(departId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('sys_depart_permission')
      .select('permission_id')
      .where('depart_id', '=', departId)
      .execute();
    return rows.map((r) => r.permission_id);
  }

  /**
   * Replaces a department's grants. Its roles lose whatever falls outside the new ceiling; those
   * roles and their users are returned so that permissions can be resolved again.
   */
  async saveDepartPermissions(
    departId: string,
    permissionIds: string[],
  ): Promise<{ roleIds: string[]; userIds: string[] }> {
    return this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('sys_depart_permission').where('depart_id', '=', departId).execute();
      if (permissionIds.length > 0) {
        await trx
          .insertInto('sys_depart_permission')
          .values(
            permissionIds.map((permission_id) => ({
              depart_id: departId,
              permission_id,
              data_rule_ids: null,
            })),
          )
          .execute();
      }
      let trim = trx.deleteFrom('sys_depart_role_permission').where('depart_id', '=', departId);
      if (permissionIds.length > 0) trim = trim.where('permission_id', 'not in', permissionIds);
      await trim.execute();
      const roles = await trx
        .selectFrom('sys_depart_role')
        .select('id')
        .where('depart_id', '=', departId)
        .execute();
      const users = await trx
        .selectFrom('sys_depart_role_user as dru')
        .innerJoin('sys_depart_role as dr', 'dr.id', 'dru.drole_id')
        .select('dru.user_id')
        .distinct()
        .where('dr.depart_id', '=', departId)
        .execute();
      return { roleIds: roles.map((r) => r.id), userIds: users.map((u) => u.user_id) };
    });
  }

  /* Department roles: they have no company column, so every query goes through their department. */

  private rolesOfCompany(companyId: string) {
    return scoped(this.db, companyId)
      .selectFrom('sys_depart')
      .innerJoin('sys_depart_role as r', 'r.depart_id', 'sys_depart.id');
  }

  async rolePage(
    companyId: string,
    departId: string,
    roleName: string | undefined,
    page: Paging<keyof typeof ROLE_SORT>,
  ) {
    let base = this.rolesOfCompany(companyId).where('r.depart_id', '=', departId);
    if (roleName) {
      const pattern = containing(roleName);
      base = base.where(sql<boolean>`r.role_name like ${pattern} escape '\\'`);
    }
    return selectPage(base, page, (query) =>
      query
        .select(['r.id', 'r.depart_id', 'r.role_name', 'r.role_code', 'r.create_time'])
        .orderBy(ROLE_SORT[page.column], page.order)
        .orderBy('r.id', page.order),
    );
  }

  findRole(companyId: string, roleId: string): Promise<SysDepartRoleTable | undefined> {
    return this.rolesOfCompany(companyId)
      .select(['r.id', 'r.depart_id', 'r.role_name', 'r.role_code', 'r.create_time'])
      .where('r.id', '=', roleId)
      .executeTakeFirst();
  }

  async roleCodeTaken(departId: string, roleCode: string, exceptId: string | null) {
    let query = this.db
      .selectFrom('sys_depart_role')
      .select('id')
      .where('depart_id', '=', departId)
      .where('role_code', '=', roleCode);
    if (exceptId) query = query.where('id', '!=', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  async insertRole(row: SysDepartRoleTable): Promise<void> {
    await this.db.insertInto('sys_depart_role').values(row).execute();
  }

  async updateRole(roleId: string, values: Pick<SysDepartRoleTable, 'role_name' | 'role_code'>) {
    await this.db.updateTable('sys_depart_role').set(values).where('id', '=', roleId).execute();
  }

  /** Deletes roles already checked to be the company's; returns the users who held them. */
  async deleteRoles(roleIds: string[]): Promise<string[]> {
    return this.db.transaction().execute(async (trx) => {
      const users = await trx
        .selectFrom('sys_depart_role_user')
        .select('user_id')
        .distinct()
        .where('drole_id', 'in', roleIds)
        .execute();
      await trx.deleteFrom('sys_depart_role').where('id', 'in', roleIds).execute();
      return users.map((u) => u.user_id);
    });
  }

  async roleUserIds(roleId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('sys_depart_role_user')
      .select('user_id')
      .where('drole_id', '=', roleId)
      .execute();
    return rows.map((r) => r.user_id);
  }

  async saveRoleUsers(roleId: string, userIds: string[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('sys_depart_role_user').where('drole_id', '=', roleId).execute();
      if (userIds.length > 0) {
        await trx
          .insertInto('sys_depart_role_user')
          .values(userIds.map((user_id) => ({ user_id, drole_id: roleId })))
          .execute();
      }
    });
  }

  async rolePermissionIds(roleId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('sys_depart_role_permission')
      .select('permission_id')
      .where('role_id', '=', roleId)
      .execute();
    return rows.map((r) => r.permission_id);
  }

  async saveRolePermissions(roleId: string, departId: string, permissionIds: string[]) {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('sys_depart_role_permission').where('role_id', '=', roleId).execute();
      if (permissionIds.length > 0) {
        await trx
          .insertInto('sys_depart_role_permission')
          .values(
            permissionIds.map((permission_id) => ({
              depart_id: departId,
              role_id: roleId,
              permission_id,
              data_rule_ids: null,
            })),
          )
          .execute();
      }
    });
  }
}
