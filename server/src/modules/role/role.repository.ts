import type { TRoleQuery } from '@blrms/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { SysRoleTable } from '../../platform/db/schema.js';
import { scoped } from '../../platform/db/scoped.js';
import { containing } from '../../platform/db/like.js';
import { selectPage } from '../../platform/db/page.js';

const SORT_COLUMNS = {
  createTime: 'create_time',
  roleCode: 'role_code',
  roleName: 'role_name',
} as const;

export class RoleRepository {
  constructor(private readonly db: Db) {}

  /** The company's roles among `ids`, each with its users (a row with a null user when none). */
  members(companyId: string, ids: readonly string[]) {
    return scoped(this.db, companyId)
      .selectFrom('sys_role')
      .leftJoin('sys_user_role', 'sys_user_role.role_id', 'sys_role.id')
      .select(['sys_role.id as roleId', 'sys_user_role.user_id as userId'])
      .where('sys_role.id', 'in', ids)
      .execute();
  }

  async page(companyId: string, query: TRoleQuery) {
    let base = scoped(this.db, companyId).selectFrom('sys_role');
    if (query.roleName) {
      const pattern = containing(query.roleName);
      base = base.where((eb) =>
        eb.or([
          sql<boolean>`${eb.ref('role_name')} like ${pattern} escape '\\'`,
          sql<boolean>`${eb.ref('role_code')} like ${pattern} escape '\\'`,
        ]),
      );
    }
    return selectPage(base, query, (rows) =>
      rows.selectAll().orderBy(SORT_COLUMNS[query.column], query.order).orderBy('id', query.order),
    );
  }

  /** How many users hold each of the roles (roles nobody holds are absent). */
  async userCounts(ids: string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('sys_user_role')
      .select(['role_id', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('role_id', 'in', ids)
      .groupBy('role_id')
      .execute();
    return new Map(rows.map((r) => [r.role_id, Number(r.n)]));
  }

  all(companyId: string) {
    return scoped(this.db, companyId)
      .selectFrom('sys_role')
      .selectAll()
      .orderBy('role_code')
      .execute();
  }

  findById(companyId: string, id: string) {
    return scoped(this.db, companyId)
      .selectFrom('sys_role')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async codeTaken(companyId: string, code: string, exceptId: string | undefined): Promise<boolean> {
    let query = scoped(this.db, companyId)
      .selectFrom('sys_role')
      .select('id')
      .where('role_code', '=', code);
    if (exceptId) query = query.where('id', '!=', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  async insert(row: SysRoleTable): Promise<void> {
    await scoped(this.db, row.company_id).insertInto('sys_role', row).execute();
  }

  /** A role with its grants, in the caller's transaction (a company is created with its admin role). */
  async insertWithGrants(row: SysRoleTable, permissionIds: string[], trx: Db): Promise<void> {
    await scoped(trx, row.company_id).insertInto('sys_role', row).execute();
    if (permissionIds.length > 0) {
      await trx
        .insertInto('sys_role_permission')
        .values(
          permissionIds.map((permission_id) => ({
            role_id: row.id,
            permission_id,
            data_rule_ids: null,
          })),
        )
        .execute();
    }
  }

  async update(
    companyId: string,
    id: string,
    fields: Pick<SysRoleTable, 'role_code' | 'role_name' | 'role_name_en' | 'description'>,
  ): Promise<void> {
    await scoped(this.db, companyId)
      .updateTable('sys_role')
      .set(fields)
      .where('id', '=', id)
      .execute();
  }

  async delete(companyId: string, ids: string[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('sys_role_permission').where('role_id', 'in', ids).execute();
      await trx.deleteFrom('sys_user_role').where('role_id', 'in', ids).execute();
      await scoped(trx, companyId).deleteFrom('sys_role').where('id', 'in', ids).execute();
    });
  }

  /**
   * Replaces the user's roles of the company (another company's stay), in the caller's
   * transaction. The caller has checked that the roles are the company's.
   */
  async setUserRoles(userId: string, companyId: string, roleIds: string[], trx: Db) {
    await trx
      .deleteFrom('sys_user_role')
      .where('user_id', '=', userId)
      .where('role_id', 'in', scoped(trx, companyId).selectFrom('sys_role').select('sys_role.id'))
      .execute();
    if (roleIds.length > 0) {
      await trx
        .insertInto('sys_user_role')
        .values(roleIds.map((role_id) => ({ user_id: userId, role_id })))
        .execute();
    }
  }

  async userIdsOf(roleIds: string[]): Promise<string[]> {
    if (roleIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('sys_user_role')
      .select('user_id')
      .distinct()
      .where('role_id', 'in', roleIds)
      .execute();
    return rows.map((r) => r.user_id);
  }

  grantsOf(roleIds: string[]) {
    if (roleIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('sys_role_permission')
      .select(['role_id', 'permission_id', 'data_rule_ids'])
      .where('role_id', 'in', roleIds)
      .execute();
  }

  /** Replaces the role's grants; kept grants keep their data rules. */
  async replaceGrants(roleId: string, permissionIds: string[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const current = await trx
        .selectFrom('sys_role_permission')
        .select('permission_id')
        .where('role_id', '=', roleId)
        .execute();
      const have = new Set(current.map((r) => r.permission_id));
      const want = new Set(permissionIds);
      const removed = [...have].filter((id) => !want.has(id));
      const added = [...want].filter((id) => !have.has(id));
      if (removed.length > 0) {
        await trx
          .deleteFrom('sys_role_permission')
          .where('role_id', '=', roleId)
          .where('permission_id', 'in', removed)
          .execute();
      }
      if (added.length > 0) {
        await trx
          .insertInto('sys_role_permission')
          .values(
            added.map((permission_id) => ({ role_id: roleId, permission_id, data_rule_ids: null })),
          )
          .execute();
      }
    });
  }

  async setDataRules(roleId: string, permissionId: string, ruleIds: string | null): Promise<void> {
    await this.db
      .updateTable('sys_role_permission')
      .set({ data_rule_ids: ruleIds })
      .where('role_id', '=', roleId)
      .where('permission_id', '=', permissionId)
      .execute();
  }

  /** The codes a catalogue row carries. */
  async permsOf(permissionId: string): Promise<string[]> {
    const row = await this.db
      .selectFrom('sys_permission')
      .select('perms')
      .where('id', '=', permissionId)
      .executeTakeFirst();
    return (row?.perms ?? '')
      .split(',')
      .map((code) => code.trim())
      .filter(Boolean);
  }

  rulesOf(permissionId: string) {
    return this.db
      .selectFrom('sys_permission_data_rule')
      .selectAll()
      .where('permission_id', '=', permissionId)
      .orderBy('create_time')
      .orderBy('id')
      .execute();
  }

  /** Of the given ids, those of live catalogue rows the company sees (shared or its own). */
  async livePermissionIds(ids: string[], companyId: string): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('sys_permission')
      .select('id')
      .where('id', 'in', ids)
      .where('del_flag', '=', 0)
      .where((eb) => eb.or([eb('company_id', 'is', null), eb('company_id', '=', companyId)]))
      .execute();
    return new Set(rows.map((r) => r.id));
  }
}
