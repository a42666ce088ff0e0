import { sql } from 'kysely';
import type { Db } from '../db/database.js';

export interface GrantRules {
  /** The role or department role that grants it: rules are resolved per holder. */
  holder: string;
  permissionId: string;
  /** `data_rule_ids` of the grant, split; empty when the grant has none. */
  ruleIds: string[];
}

export class DataRuleRepository {
  constructor(private readonly db: Db) {}

  /** Live permission rows whose `perms` list holds the code. */
  async permissionIdsOf(code: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('sys_permission')
      .select(['id', 'perms'])
      .where('del_flag', '=', 0)
      .where('perms', 'like', `%${code}%`)
      .execute();
    return rows
      .filter((r) => (r.perms ?? '').split(',').some((p) => p.trim() === code))
      .map((r) => r.id);
  }

  /** The user's grants of these permission rows in one company: through roles and department roles. */
  async grantsOf(
    userId: string,
    companyId: string,
    permissionIds: string[],
  ): Promise<GrantRules[]> {
    if (permissionIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('sys_role_permission as rp')
      .innerJoin('sys_role as r', 'r.id', 'rp.role_id')
      .innerJoin('sys_user_role as ur', 'ur.role_id', 'r.id')
      .select([
        sql<string>`'r:' || rp.role_id`.as('holder'),
        'rp.permission_id',
        'rp.data_rule_ids',
      ])
      .where('ur.user_id', '=', userId)
      .where('r.company_id', '=', companyId)
      .where('rp.permission_id', 'in', permissionIds)
      .unionAll(
        this.db
          .selectFrom('sys_depart_role_permission as drp')
          .innerJoin('sys_depart_role as dr', 'dr.id', 'drp.role_id')
          .innerJoin('sys_depart_role_user as dru', 'dru.drole_id', 'dr.id')
          .innerJoin('sys_depart as d', 'd.id', 'dr.depart_id')
          .select([
            sql<string>`'d:' || drp.role_id`.as('holder'),
            'drp.permission_id',
            'drp.data_rule_ids',
          ])
          .where('dru.user_id', '=', userId)
          .where('d.company_id', '=', companyId)
          .where('drp.permission_id', 'in', permissionIds),
      )
      .execute();
    return rows.map((r) => ({
      holder: r.holder,
      permissionId: r.permission_id,
      ruleIds: (r.data_rule_ids ?? '')
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
    }));
  }

  rulesByIds(ids: string[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('sys_permission_data_rule')
      .selectAll()
      .where('id', 'in', ids)
      .execute();
  }
}
