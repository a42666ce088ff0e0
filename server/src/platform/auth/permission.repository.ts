import type { Db } from '../db/database.js';

export class PermissionRepository {
  constructor(private readonly db: Db) {}

  /** Every live menu, page and button row: the catalogue grants refer to. */
  catalogue() {
    return this.db
      .selectFrom('sys_permission')
      .selectAll()
      .where('del_flag', '=', 0)
      .orderBy('sort_no')
      .orderBy('create_time')
      .execute();
  }

  /** Holders of the platform company's `admin` role have every permission in every company. */
  async isPlatformAdmin(userId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('sys_user_role as ur')
      .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
      .innerJoin('sys_company as c', 'c.id', 'r.company_id')
      .select('r.id')
      .where('ur.user_id', '=', userId)
      .where('r.role_code', '=', 'admin')
      .where('c.is_platform', '=', 1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Permission ids granted through the user's roles and department roles in one company. */
  async grantedIds(userId: string, companyId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('sys_role_permission as rp')
      .innerJoin('sys_role as r', 'r.id', 'rp.role_id')
      .innerJoin('sys_user_role as ur', 'ur.role_id', 'r.id')
      .select('rp.permission_id')
      .where('ur.user_id', '=', userId)
      .where('r.company_id', '=', companyId)
      .union(
        this.db
          .selectFrom('sys_depart_role_permission as drp')
          .innerJoin('sys_depart_role as dr', 'dr.id', 'drp.role_id')
          .innerJoin('sys_depart_role_user as dru', 'dru.drole_id', 'dr.id')
          .innerJoin('sys_depart as d', 'd.id', 'dr.depart_id')
          .select('drp.permission_id')
          .where('dru.user_id', '=', userId)
          .where('d.company_id', '=', companyId),
      )
      .execute();
    return rows.map((r) => r.permission_id);
  }
}
