import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/** The platform company's role of this code makes its holders platform administrators. */
const PLATFORM_ADMIN_CODE = 'admin';

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
      .where('r.role_code', '=', PLATFORM_ADMIN_CODE)
      .where('c.is_platform', '=', 1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * The roles through which a user holds permissions in one company: their company roles and the
   * roles of departments of the company (`kind` 'r' and 'd'), and, in the same statement, whether
   * they hold the platform company's `admin` role (returned as well when the company is another).
   * One round trip: what each role grants is cached per role (see PermissionService).
   */
  async heldRoles(userId: string, companyId: string): Promise<HeldRoles> {
    const rows = await this.db
      .selectFrom('sys_user_role as ur')
      .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
      .innerJoin('sys_company as c', 'c.id', 'r.company_id')
      .select([
        'r.id',
        'r.company_id',
        'r.role_code',
        'c.is_platform',
        sql<RoleKind>`'r'`.as('kind'),
      ])
      .where('ur.user_id', '=', userId)
      .where((eb) =>
        eb.or([
          eb('r.company_id', '=', companyId),
          eb.and([eb('r.role_code', '=', PLATFORM_ADMIN_CODE), eb('c.is_platform', '=', 1)]),
        ]),
      )
      .unionAll(
        this.db
          .selectFrom('sys_depart_role_user as dru')
          .innerJoin('sys_depart_role as dr', 'dr.id', 'dru.drole_id')
          .innerJoin('sys_depart as d', 'd.id', 'dr.depart_id')
          .select([
            'dr.id',
            'd.company_id',
            'dr.role_code',
            sql<number>`0`.as('is_platform'),
            sql<RoleKind>`'d'`.as('kind'),
          ])
          .where('dru.user_id', '=', userId)
          .where('d.company_id', '=', companyId),
      )
      .execute();
    const held: HeldRoles = { roles: [], platformAdmin: false };
    for (const row of rows) {
      if (row.kind === 'r' && row.role_code === PLATFORM_ADMIN_CODE && Number(row.is_platform)) {
        held.platformAdmin = true;
      }
      // The platform admin role of another company grants nothing here beyond `platformAdmin`.
      if (row.company_id === companyId) held.roles.push({ id: row.id, kind: row.kind });
    }
    return held;
  }

  /** What each of these roles grants: permission ids per role, every role listed (maybe empty). */
  async grantsOfRoles(roles: readonly HeldRole[]): Promise<Map<string, string[]>> {
    const ids = (kind: RoleKind) => roles.filter((r) => r.kind === kind).map((r) => r.id);
    const [company, depart] = [ids('r'), ids('d')];
    const byRole = new Map<string, string[]>(roles.map((r) => [roleKey(r), []]));
    const fromCompany =
      company.length > 0
        ? this.db
            .selectFrom('sys_role_permission')
            .select(['role_id', 'permission_id', sql<RoleKind>`'r'`.as('kind')])
            .where('role_id', 'in', company)
        : undefined;
    const fromDepart =
      depart.length > 0
        ? this.db
            .selectFrom('sys_depart_role_permission')
            .select(['role_id', 'permission_id', sql<RoleKind>`'d'`.as('kind')])
            .where('role_id', 'in', depart)
        : undefined;
    const query =
      fromCompany && fromDepart ? fromCompany.unionAll(fromDepart) : (fromCompany ?? fromDepart);
    if (!query) return byRole;
    for (const row of await query.execute()) {
      byRole.get(roleKey({ id: row.role_id, kind: row.kind }))?.push(row.permission_id);
    }
    return byRole;
  }
}

/** 'r': a company role (`sys_role`); 'd': a department role (`sys_depart_role`). */
export type RoleKind = 'r' | 'd';

export interface HeldRole {
  id: string;
  kind: RoleKind;
}

export interface HeldRoles {
  /** The roles of the company the user holds, company roles first. */
  roles: HeldRole[];
  /** Holds the platform company's `admin` role: every permission, in every company. */
  platformAdmin: boolean;
}

/** The key of a role in caches: ids of the two tables are not promised to be distinct. */
export const roleKey = (role: HeldRole): string => `${role.kind}:${role.id}`;
