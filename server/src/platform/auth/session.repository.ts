import { ADMIN_USER_STATUS, COMPANY_STATUS } from '@blrms/contracts';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { containing } from '../db/like.js';
import type { SysSessionTable } from '../db/schema.js';

export class SessionRepository {
  constructor(private readonly db: Db) {}

  async insert(row: SysSessionTable): Promise<void> {
    await this.db.insertInto('sys_session').values(row).execute();
  }

  /** Whether the token was a session of a user who is now frozen (freezing ends sessions). */
  async ownerIsFrozen(tokenHash: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('sys_session as s')
      .innerJoin('sys_user as u', 'u.id', 's.user_id')
      .select('u.status')
      .where('s.token_hash', '=', tokenHash)
      .executeTakeFirst();
    return row?.status === ADMIN_USER_STATUS.frozen;
  }

  /** The live session of a token, with what the request scope needs about its user. */
  findLive(tokenHash: string, now: number) {
    return this.db
      .selectFrom('sys_session as s')
      .innerJoin('sys_user as u', 'u.id', 's.user_id')
      .select([
        's.id as sessionId',
        's.user_id as userId',
        's.expire_time as expireTime',
        'u.username',
        'u.company_id as companyId',
        'u.org_code as orgCode',
      ])
      .where('s.token_hash', '=', tokenHash)
      .where('s.revoked_time', 'is', null)
      .where('s.expire_time', '>', now)
      .where('u.del_flag', '=', 0)
      .where('u.status', '=', 1)
      .executeTakeFirst();
  }

  /** The companies a user may act in: their default one and memberships, frozen ones left out. */
  async activeCompanyIdsOf(userId: string, defaultCompanyId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('sys_company')
      .select('id')
      .where('status', '=', COMPANY_STATUS.active)
      .where((eb) =>
        eb.or([
          eb('id', '=', defaultCompanyId),
          eb(
            'id',
            'in',
            eb.selectFrom('sys_user_company').select('company_id').where('user_id', '=', userId),
          ),
        ]),
      )
      .execute();
    return rows.map((r) => r.id);
  }

  async companyIsActive(companyId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('sys_company')
      .select('id')
      .where('id', '=', companyId)
      .where('status', '=', COMPANY_STATUS.active)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Ends the sessions opened in a company; returns the users of the company and of those sessions. */
  async revokeAllInCompany(companyId: string, now: number): Promise<string[]> {
    const users = await this.db
      .selectFrom('sys_user')
      .select('id')
      .where('company_id', '=', companyId)
      .union(
        this.db
          .selectFrom('sys_user_company')
          .select('user_id as id')
          .where('company_id', '=', companyId),
      )
      .union(
        this.db
          .selectFrom('sys_session')
          .select('user_id as id')
          .where('company_id', '=', companyId)
          .where('revoked_time', 'is', null),
      )
      .execute();
    await this.db
      .updateTable('sys_session')
      .set({ revoked_time: now })
      .where('company_id', '=', companyId)
      .where('revoked_time', 'is', null)
      .execute();
    return users.map((u) => u.id);
  }

  async touch(sessionId: string, now: number): Promise<void> {
    await this.db
      .updateTable('sys_session')
      .set({ last_seen_time: now })
      .where('id', '=', sessionId)
      .execute();
  }

  async revokeByHash(tokenHash: string, now: number): Promise<void> {
    await this.db
      .updateTable('sys_session')
      .set({ revoked_time: now })
      .where('token_hash', '=', tokenHash)
      .where('revoked_time', 'is', null)
      .execute();
  }

  async revokeAllOf(userId: string, now: number): Promise<void> {
    await this.db
      .updateTable('sys_session')
      .set({ revoked_time: now })
      .where('user_id', '=', userId)
      .where('revoked_time', 'is', null)
      .execute();
  }

  /**
   * The sessions that can still be used (neither revoked nor expired) of every company, most
   * recently seen first: the online-users screen of platform administrators.
   */
  async listLive(input: { now: number; username?: string; offset: number; limit: number }) {
    let query = this.db
      .selectFrom('sys_session as s')
      .innerJoin('sys_user as u', 'u.id', 's.user_id')
      .innerJoin('sys_company as c', 'c.id', 's.company_id')
      .where('s.revoked_time', 'is', null)
      .where('s.expire_time', '>', input.now)
      .where('u.del_flag', '=', 0);
    if (input.username) {
      query = query.where(
        sql<boolean>`lower(u.username) like lower(${containing(input.username)}) escape '\\'`,
      );
    }
    const total = await query
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const rows = await query
      .select([
        's.id',
        's.user_id as userId',
        'u.username',
        'u.realname',
        's.company_id as companyId',
        'c.name as companyName',
        's.ip',
        's.user_agent as userAgent',
        's.create_time as createTime',
        's.last_seen_time as lastSeenTime',
        's.expire_time as expireTime',
      ])
      .orderBy(sql`coalesce(s.last_seen_time, s.create_time)`, 'desc')
      .orderBy('s.id')
      .offset(input.offset)
      .limit(input.limit)
      .execute();
    return { total: Number(total.n), rows };
  }

  /** Revokes one live session by its id; returns its token hash, or null when none was live. */
  async revokeById(sessionId: string, now: number): Promise<string | null> {
    const row = await this.db
      .updateTable('sys_session')
      .set({ revoked_time: now })
      .where('id', '=', sessionId)
      .where('revoked_time', 'is', null)
      .where('expire_time', '>', now)
      .returning('token_hash')
      .executeTakeFirst();
    return row?.token_hash ?? null;
  }
}
