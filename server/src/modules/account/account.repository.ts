import type { Db } from '../../platform/db/database.js';
import type { SysVerifyCodeTable } from '../../platform/db/schema.js';

export interface NewAccount {
  companyId: string;
  companyCode: string;
  userId: string;
  username: string;
  phone: string;
  email: string;
  passwordHash: string;
  roleId: string;
  departId: string;
  departName: string;
  orgCode: string;
  /** Permission ids the company's admin role gets. */
  permissionIds: string[];
  now: number;
}

/** Accounts are global (usernames, phones and emails are unique across companies). */
export class AccountRepository {
  constructor(private readonly db: Db) {}

  async insertCode(row: SysVerifyCodeTable): Promise<void> {
    await this.db.insertInto('sys_verify_code').values(row).execute();
  }

  /** How many codes went to the target for this purpose since `since`, and when the last one did. */
  async codeStats(purpose: string, target: string, since: number) {
    const row = await this.db
      .selectFrom('sys_verify_code')
      .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.max('create_time').as('last')])
      .where('purpose', '=', purpose)
      .where('target', '=', target)
      .where('create_time', '>=', since)
      .executeTakeFirst();
    return { count: Number(row?.count ?? 0), last: row?.last == null ? null : Number(row.last) };
  }

  /** The newest code for the target: only it can be used, older ones are superseded. */
  latestCode(purpose: string, target: string) {
    return this.db
      .selectFrom('sys_verify_code')
      .selectAll()
      .where('purpose', '=', purpose)
      .where('target', '=', target)
      .orderBy('create_time', 'desc')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
  }

  /**
   * Spends one attempt of a live code, atomically: under parallel guesses each one takes its own
   * slot, so no more than `max` guesses are ever compared. False when the code has none left.
   */
  async claimAttempt(id: string, max: number): Promise<boolean> {
    const result = await this.db
      .updateTable('sys_verify_code')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .where('attempts', '<', max)
      .where('used_time', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Marks the code used; false when someone else used it first (single use under races). */
  async useCode(id: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('sys_verify_code')
      .set({ used_time: now })
      .where('id', '=', id)
      .where('used_time', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async sweepCodes(before: number): Promise<void> {
    await this.db.deleteFrom('sys_verify_code').where('expire_time', '<', before).execute();
  }

  findUserBy(field: 'username' | 'phone' | 'email', value: string) {
    return this.db
      .selectFrom('sys_user')
      .selectAll()
      .where(field, '=', value)
      .where('del_flag', '=', 0)
      .executeTakeFirst();
  }

  /** Whether the value is used by any user, deleted ones included (the column is unique). */
  async isTaken(field: 'username' | 'phone' | 'email', value: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('sys_user')
      .select('id')
      .where(field, '=', value)
      .executeTakeFirst();
    return row !== undefined;
  }

  async setPasswordHash(userId: string, passwordHash: string, now: number): Promise<void> {
    await this.db
      .updateTable('sys_user')
      .set({ password_hash: passwordHash, update_time: now })
      .where('id', '=', userId)
      .execute();
  }

  /** Permission rows a company administrator gets: everything but the platform-only ones. */
  async companyAdminPermissionIds(platformOnlyPrefixes: readonly string[]): Promise<string[]> {
    const rows = await this.db
      .selectFrom('sys_permission')
      .select(['id', 'perms'])
      .where('del_flag', '=', 0)
      .execute();
    return rows
      .filter((r) => !platformOnlyPrefixes.some((p) => r.perms?.startsWith(p)))
      .map((r) => r.id);
  }

  /** Top-level org codes in use (A01, A02, ...), to pick the next one for a new company. */
  async rootOrgCodes(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('sys_depart')
      .select('org_code')
      .where('parent_id', 'is', null)
      .execute();
    return rows.map((r) => r.org_code);
  }

  /** Company, its root department, its admin role with grants, and the user: all or nothing. */
  async createAccount(a: NewAccount): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('sys_company')
        .values({
          id: a.companyId,
          name: a.username,
          code: a.companyCode,
          status: 1,
          is_platform: 0,
          create_time: a.now,
          update_time: null,
        })
        .execute();
      await trx
        .insertInto('sys_depart')
        .values({
          id: a.departId,
          company_id: a.companyId,
          parent_id: null,
          depart_name: a.departName,
          depart_name_en: a.departName,
          org_code: a.orgCode,
          org_category: 1,
          depart_order: 0,
          status: 1,
          create_time: a.now,
        })
        .execute();
      await trx
        .insertInto('sys_role')
        .values({
          id: a.roleId,
          company_id: a.companyId,
          role_code: 'admin',
          role_name: '管理员',
          role_name_en: 'Administrator',
          description: null,
          create_time: a.now,
        })
        .execute();
      if (a.permissionIds.length > 0) {
        await trx
          .insertInto('sys_role_permission')
          .values(
            a.permissionIds.map((permission_id) => ({
              role_id: a.roleId,
              permission_id,
              data_rule_ids: null,
            })),
          )
          .execute();
      }
      await trx
        .insertInto('sys_user')
        .values({
          id: a.userId,
          company_id: a.companyId,
          username: a.username,
          realname: a.username,
          password_hash: a.passwordHash,
          avatar: null,
          phone: a.phone,
          email: a.email,
          status: 1,
          org_code: a.orgCode,
          del_flag: 0,
          create_by: a.username,
          create_time: a.now,
          update_time: null,
        })
        .execute();
      await trx
        .insertInto('sys_user_company')
        .values({ user_id: a.userId, company_id: a.companyId })
        .execute();
      await trx
        .insertInto('sys_user_role')
        .values({ user_id: a.userId, role_id: a.roleId })
        .execute();
      await trx
        .insertInto('sys_user_depart')
        .values({ user_id: a.userId, depart_id: a.departId })
        .execute();
    });
  }

  async readSetting(key: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('sys_setting')
      .select('setting_value')
      .where('setting_key', '=', key)
      .executeTakeFirst();
    return row?.setting_value;
  }

  async writeSetting(key: string, value: string, now: number): Promise<void> {
    await this.db
      .insertInto('sys_setting')
      .values({ setting_key: key, setting_value: value, update_time: now })
      .onConflict((oc) =>
        oc.column('setting_key').doUpdateSet({ setting_value: value, update_time: now }),
      )
      .execute();
  }
}
