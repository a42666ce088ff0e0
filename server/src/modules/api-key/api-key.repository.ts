import { ADMIN_USER_STATUS } from '@blrms/contracts';
import type { Db } from '../../platform/db/database.js';
import type { SysApiKeyTable } from '../../platform/db/schema.js';
import { scoped } from '../../platform/db/scoped.js';

/** A key row with its owner's name, for lists. */
export type ApiKeyRow = SysApiKeyTable & { username: string };

export class ApiKeyRepository {
  constructor(private readonly db: Db) {}

  async insert(row: SysApiKeyTable): Promise<void> {
    await scoped(this.db, row.company_id).insertInto('sys_api_key', row).execute();
  }

  private listQuery() {
    return this.db
      .selectFrom('sys_api_key as k')
      .innerJoin('sys_user as u', 'u.id', 'k.user_id')
      .selectAll('k')
      .select('u.username');
  }

  listOfUser(userId: string): Promise<ApiKeyRow[]> {
    return this.listQuery()
      .where('k.user_id', '=', userId)
      .orderBy('k.create_time', 'desc')
      .orderBy('k.id')
      .execute();
  }

  /** Every key of a company, or of every company when `companyId` is null (platform). */
  listOfCompany(companyId: string | null, userId: string | undefined): Promise<ApiKeyRow[]> {
    let query = this.listQuery();
    if (companyId !== null) query = query.where('k.company_id', '=', companyId);
    if (userId !== undefined) query = query.where('k.user_id', '=', userId);
    return query.orderBy('k.create_time', 'desc').orderBy('k.id').limit(1000).execute();
  }

  byId(id: string): Promise<ApiKeyRow | undefined> {
    return this.listQuery().where('k.id', '=', id).executeTakeFirst();
  }

  /** The key with what the guard needs about its user and company. */
  forAuthentication(id: string) {
    return this.db
      .selectFrom('sys_api_key as k')
      .innerJoin('sys_user as u', 'u.id', 'k.user_id')
      .innerJoin('sys_company as c', 'c.id', 'k.company_id')
      .select([
        'k.id',
        'k.name',
        'k.user_id as userId',
        'k.company_id as companyId',
        'k.secret_hash as secretHash',
        'k.permissions',
        'k.expire_time as expireTime',
        'k.revoke_time as revokeTime',
        'u.username',
        'u.org_code as orgCode',
        'u.status as userStatus',
        'u.del_flag as userDeleted',
        'c.status as companyStatus',
      ])
      .where('k.id', '=', id)
      .executeTakeFirst();
  }

  /** Whether the user still belongs to the company (default company or membership). */
  async isMember(userId: string, companyId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('sys_user as u')
      .select('u.id')
      .where('u.id', '=', userId)
      .where((eb) =>
        eb.or([
          eb('u.company_id', '=', companyId),
          eb.exists(
            eb
              .selectFrom('sys_user_company as m')
              .select('m.user_id')
              .where('m.user_id', '=', userId)
              .where('m.company_id', '=', companyId),
          ),
        ]),
      )
      .executeTakeFirst();
    return row !== undefined;
  }

  async revoke(id: string, reason: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('sys_api_key')
      .set({ revoke_time: now, revoke_reason: reason })
      .where('id', '=', id)
      .where('revoke_time', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Revokes the live keys of a user who is frozen or deleted; a user in good standing keeps them. */
  async revokeIfUserInactive(userId: string, now: number): Promise<void> {
    const user = await this.db
      .selectFrom('sys_user')
      .select(['status', 'del_flag'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!user) return;
    const reason =
      user.del_flag !== 0 ? 'deleted' : user.status === ADMIN_USER_STATUS.frozen ? 'frozen' : null;
    if (!reason) return;
    await this.db
      .updateTable('sys_api_key')
      .set({ revoke_time: now, revoke_reason: reason })
      .where('user_id', '=', userId)
      .where('revoke_time', 'is', null)
      .execute();
  }

  async touch(id: string, now: number, ip: string): Promise<void> {
    await this.db
      .updateTable('sys_api_key')
      .set({ last_used_time: now, last_used_ip: ip.slice(0, 64) })
      .where('id', '=', id)
      .execute();
  }
}
