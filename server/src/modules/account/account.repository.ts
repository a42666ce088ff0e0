import type { Db } from '../../platform/db/database.js';
import type { SysVerifyCodeTable } from '../../platform/db/schema.js';
import { readSetting, writeSetting } from '../../platform/db/settings.js';

/** Verification codes and the SMS settings of the account flows; users are `UserService`'s. */
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

  readSetting(key: string): Promise<string | undefined> {
    return readSetting(this.db, key);
  }

  writeSetting(key: string, value: string, now: number): Promise<void> {
    return writeSetting(this.db, key, value, now);
  }
}
