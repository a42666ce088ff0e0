import type { Db } from '../../platform/db/database.js';
import type { SysLoginFailureTable } from '../../platform/db/schema.js';

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

  findLoginFailure(username: string) {
    return this.db
      .selectFrom('sys_login_failure')
      .selectAll()
      .where('username', '=', username)
      .executeTakeFirst();
  }

  async saveLoginFailure(row: SysLoginFailureTable): Promise<void> {
    await this.db
      .insertInto('sys_login_failure')
      .values(row)
      .onConflict((oc) =>
        oc.column('username').doUpdateSet({
          fail_count: row.fail_count,
          locked_until: row.locked_until,
          update_time: row.update_time,
        }),
      )
      .execute();
  }

  async clearLoginFailures(username: string): Promise<void> {
    await this.db.deleteFrom('sys_login_failure').where('username', '=', username).execute();
  }
}
