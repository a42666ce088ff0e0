import type { Db } from '../db/database.js';
import type { SysSessionTable } from '../db/schema.js';

export class SessionRepository {
  constructor(private readonly db: Db) {}

  async insert(row: SysSessionTable): Promise<void> {
    await this.db.insertInto('sys_session').values(row).execute();
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

  async companyIdsOf(userId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('sys_user_company')
      .select('company_id')
      .where('user_id', '=', userId)
      .execute();
    return rows.map((r) => r.company_id);
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
}
