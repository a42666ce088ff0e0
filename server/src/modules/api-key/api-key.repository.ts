import { ADMIN_USER_STATUS } from '@blrms/contracts';
import type { SelectQueryBuilder } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { Database, SysApiKeyTable } from '../../platform/db/schema.js';
import { scoped } from '../../platform/db/scoped.js';

/** A key row with its owner's name, for lists. */
export type ApiKeyRow = SysApiKeyTable & { username: string };

export class ApiKeyRepository {
  constructor(private readonly db: Db) {}

  async insert(row: SysApiKeyTable): Promise<void> {
    await scoped(this.db, row.company_id).insertInto('sys_api_key', row).execute();
  }

  /** A user's keys, in every company they made some. */
  listOfUser(userId: string): Promise<ApiKeyRow[]> {
    return withUsername(this.db.selectFrom('sys_api_key'))
      .where('sys_api_key.user_id', '=', userId)
      .orderBy('sys_api_key.create_time', 'desc')
      .orderBy('sys_api_key.id')
      .execute();
  }

  /** Every key of a company, or of its user `userId` only. */
  listOfCompany(companyId: string, userId: string | undefined): Promise<ApiKeyRow[]> {
    return listPage(scoped(this.db, companyId).selectFrom('sys_api_key'), userId);
  }

  /** Like {@link listOfCompany}, over every company (platform administrators). */
  listOfEveryCompany(userId: string | undefined): Promise<ApiKeyRow[]> {
    return listPage(this.db.selectFrom('sys_api_key'), userId);
  }

  /** A key of any company: a user revokes their own in every company, the platform any. */
  byId(id: string): Promise<ApiKeyRow | undefined> {
    return withUsername(this.db.selectFrom('sys_api_key'))
      .where('sys_api_key.id', '=', id)
      .executeTakeFirst();
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

  async revoke(companyId: string, id: string, reason: string, now: number): Promise<boolean> {
    const result = await scoped(this.db, companyId)
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

  async touch(companyId: string, id: string, now: number, ip: string): Promise<void> {
    await scoped(this.db, companyId)
      .updateTable('sys_api_key')
      .set({ last_used_time: now, last_used_ip: ip.slice(0, 64) })
      .where('id', '=', id)
      .execute();
  }
}

type KeyQuery = SelectQueryBuilder<Database, 'sys_api_key', object>;

/** The key rows of `query` with their owner's name. */
function withUsername(query: KeyQuery) {
  return query
    .innerJoin('sys_user as u', 'u.id', 'sys_api_key.user_id')
    .selectAll('sys_api_key')
    .select('u.username');
}

/** A list of keys, newest first, of one user when `userId` is given. */
function listPage(query: KeyQuery, userId: string | undefined): Promise<ApiKeyRow[]> {
  let list = withUsername(query);
  if (userId !== undefined) list = list.where('sys_api_key.user_id', '=', userId);
  return list
    .orderBy('sys_api_key.create_time', 'desc')
    .orderBy('sys_api_key.id')
    .limit(1000)
    .execute();
}
