import type { Db } from '../../platform/db/database.js';
import type { SysPermissionDataRuleTable, SysPermissionTable } from '../../platform/db/schema.js';

/** What the catalogue editor writes: shared rows only (company rows come from online forms). */
export type PermissionFields = Omit<
  SysPermissionTable,
  'id' | 'create_time' | 'del_flag' | 'is_leaf' | 'company_id'
>;

export class PermissionAdminRepository {
  constructor(private readonly db: Db) {}

  /** The shared rows, and with `companyId` that company's own rows too (published forms). */
  live(companyId?: string) {
    return this.db
      .selectFrom('sys_permission')
      .selectAll()
      .where('del_flag', '=', 0)
      .where((eb) =>
        companyId === undefined
          ? eb('company_id', 'is', null)
          : eb.or([eb('company_id', 'is', null), eb('company_id', '=', companyId)]),
      )
      .orderBy('sort_no')
      .orderBy('create_time')
      .orderBy('id')
      .execute();
  }

  findLive(id: string) {
    return (
      this.db
        .selectFrom('sys_permission')
        .selectAll()
        .where('id', '=', id)
        .where('del_flag', '=', 0)
        // A company's rows belong to its online forms: publishing writes them, not the editor.
        .where('company_id', 'is', null)
        .executeTakeFirst()
    );
  }

  async ruleCounts(): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('sys_permission_data_rule')
      .select((eb) => ['permission_id', eb.fn.countAll<number>().as('n')])
      .groupBy('permission_id')
      .execute();
    return new Map(rows.map((r) => [r.permission_id, Number(r.n)]));
  }

  async permsTaken(perms: string, exceptId: string | undefined): Promise<boolean> {
    let query = this.db
      .selectFrom('sys_permission')
      .select('id')
      .where('perms', '=', perms)
      .where('del_flag', '=', 0);
    if (exceptId) query = query.where('id', '!=', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  async insert(id: string, fields: PermissionFields, now: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('sys_permission')
        .values({ ...fields, id, create_time: now, del_flag: 0, is_leaf: 1 })
        .execute();
      if (fields.parent_id) await setLeaf(trx, fields.parent_id);
    });
  }

  async update(id: string, oldParentId: string | null, fields: PermissionFields): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('sys_permission').set(fields).where('id', '=', id).execute();
      for (const parent of new Set([oldParentId, fields.parent_id])) {
        if (parent) await setLeaf(trx, parent);
      }
    });
  }

  /** Marks the rows deleted; grants of deleted rows no longer match anything in the catalogue. */
  async softDelete(ids: string[], parentId: string | null): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('sys_permission').set({ del_flag: 1 }).where('id', 'in', ids).execute();
      if (parentId) await setLeaf(trx, parentId);
    });
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

  findRule(id: string) {
    return this.db
      .selectFrom('sys_permission_data_rule')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async insertRule(row: SysPermissionDataRuleTable): Promise<void> {
    await this.db.insertInto('sys_permission_data_rule').values(row).execute();
  }

  async updateRule(
    id: string,
    fields: Pick<
      SysPermissionDataRuleTable,
      'rule_name' | 'rule_column' | 'rule_conditions' | 'rule_value' | 'status'
    >,
  ): Promise<void> {
    await this.db
      .updateTable('sys_permission_data_rule')
      .set(fields)
      .where('id', '=', id)
      .execute();
  }

  /** Deletes the rule and takes it out of every grant that carried it. */
  async deleteRule(id: string, permissionId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('sys_permission_data_rule').where('id', '=', id).execute();
      for (const table of [
        'sys_role_permission',
        'sys_depart_permission',
        'sys_depart_role_permission',
      ] as const) {
        const grants = await trx
          .selectFrom(table)
          .select(['data_rule_ids'])
          .select((eb) =>
            eb.ref(table === 'sys_depart_permission' ? 'depart_id' : 'role_id').as('owner'),
          )
          .where('permission_id', '=', permissionId)
          .where('data_rule_ids', 'is not', null)
          .execute();
        for (const g of grants) {
          const rest = (g.data_rule_ids ?? '').split(',').filter((r) => r !== '' && r !== id);
          const ownerColumn = table === 'sys_depart_permission' ? 'depart_id' : 'role_id';
          await trx
            .updateTable(table)
            .set({ data_rule_ids: rest.length > 0 ? rest.join(',') : null })
            .where('permission_id', '=', permissionId)
            .where(ownerColumn, '=', g.owner)
            .execute();
        }
      }
    });
  }
}

/** `is_leaf` of a row follows whether it has live children. */
async function setLeaf(trx: Db, id: string): Promise<void> {
  const child = await trx
    .selectFrom('sys_permission')
    .select('id')
    .where('parent_id', '=', id)
    .where('del_flag', '=', 0)
    .executeTakeFirst();
  await trx
    .updateTable('sys_permission')
    .set({ is_leaf: child ? 0 : 1 })
    .where('id', '=', id)
    .execute();
}
