import type { Db } from '../../platform/db/database.js';
import type { SysLoginChallengeTable, SysLoginFailureTable } from '../../platform/db/schema.js';

const SESSION_ADDRESSES_MAX = 200;

export class AuthRepository {
  constructor(private readonly db: Db) {}

  /** Replaces any earlier captcha of the same key, and sweeps expired ones on the way. */
  async saveCaptcha(
    checkKey: string,
    codeHash: string,
    expireTime: number,
    now: number,
  ): Promise<void> {
    await this.db.deleteFrom('sys_captcha').where('expire_time', '<', now).execute();
    await this.db
      .insertInto('sys_captcha')
      .values({ check_key: checkKey, code_hash: codeHash, expire_time: expireTime })
      .onConflict((oc) =>
        oc.column('check_key').doUpdateSet({ code_hash: codeHash, expire_time: expireTime }),
      )
      .execute();
  }

  /** Deletes and returns the captcha in one step, so a code can be used once only. */
  async takeCaptcha(checkKey: string) {
    return this.db
      .deleteFrom('sys_captcha')
      .where('check_key', '=', checkKey)
      .returning(['code_hash', 'expire_time'])
      .executeTakeFirst();
  }

  /** Failure counters of a username, one per source address. */
  loginFailures(usernames: string[]) {
    if (usernames.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('sys_login_failure')
      .selectAll()
      .where('username', 'in', usernames)
      .execute();
  }

  async saveLoginFailure(row: SysLoginFailureTable): Promise<void> {
    await this.db
      .insertInto('sys_login_failure')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['username', 'ip']).doUpdateSet({
          fail_count: row.fail_count,
          locked_until: row.locked_until,
          update_time: row.update_time,
        }),
      )
      .execute();
  }

  /** One source's counter, or with no address every counter of the username. */
  async clearLoginFailures(username: string, ip?: string): Promise<number> {
    let query = this.db.deleteFrom('sys_login_failure').where('username', '=', username);
    if (ip !== undefined) query = query.where('ip', '=', ip);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * Addresses the user's sessions came from, the most recently used first; past the bound the
   * oldest places are left out (a user has a handful of places, a long-lived mobile one more).
   */
  async sessionAddresses(userId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('sys_session')
      .select('ip')
      .where('user_id', '=', userId)
      .where('ip', 'is not', null)
      .groupBy('ip')
      .orderBy((eb) => eb.fn.max('create_time'), 'desc')
      .limit(SESSION_ADDRESSES_MAX)
      .execute();
    return rows.flatMap((row) => (row.ip === null ? [] : [row.ip]));
  }

  async saveChallenge(row: SysLoginChallengeTable, now: number): Promise<void> {
    await this.db.deleteFrom('sys_login_challenge').where('expire_time', '<', now).execute();
    await this.db.insertInto('sys_login_challenge').values(row).execute();
  }

  findChallenge(tokenHash: string) {
    return this.db
      .selectFrom('sys_login_challenge')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  async setChallengeSecret(tokenHash: string, secretEnc: string): Promise<void> {
    await this.db
      .updateTable('sys_login_challenge')
      .set({ secret_enc: secretEnc })
      .where('token_hash', '=', tokenHash)
      .execute();
  }

  /** Counts a wrong code; returns the attempts made so far (0: the challenge is gone). */
  async countChallengeAttempt(tokenHash: string): Promise<number> {
    const row = await this.db
      .updateTable('sys_login_challenge')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('token_hash', '=', tokenHash)
      .returning('attempts')
      .executeTakeFirst();
    return row?.attempts ?? 0;
  }

  /** Deletes the challenge; false when another request already used it. */
  async takeChallenge(tokenHash: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('sys_login_challenge')
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** A live user of the company (any company with null), for an administrator's action. */
  findUser(id: string, companyId: string | null) {
    let query = this.db
      .selectFrom('sys_user')
      .selectAll()
      .where('id', '=', id)
      .where('del_flag', '=', 0);
    if (companyId !== null) query = query.where('company_id', '=', companyId);
    return query.executeTakeFirst();
  }

  usersByIds(ids: string[], companyId: string | null) {
    let query = this.db
      .selectFrom('sys_user')
      .select(['id', 'username'])
      .where('id', 'in', ids)
      .where('del_flag', '=', 0);
    if (companyId !== null) query = query.where('company_id', '=', companyId);
    return query.execute();
  }
}
