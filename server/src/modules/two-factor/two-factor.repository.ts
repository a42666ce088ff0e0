import type { Db } from '../../platform/db/database.js';
import { readSetting, sharedSecret, writeSetting } from '../../platform/db/settings.js';

const PLATFORM_REQUIRED = 'twoFactor.requiredForAll';
/** Followed by the company id. */
const COMPANY_REQUIRED = 'twoFactor.requiredInCompany.';
const ENCRYPTION_KEY = 'twoFactor.encryptionKey';

export class TwoFactorRepository {
  constructor(private readonly db: Db) {}

  encryptionKey(now: number): Promise<string> {
    return sharedSecret(this.db, ENCRYPTION_KEY, now);
  }

  async passwordHashOf(userId: string): Promise<string> {
    const row = await this.db
      .selectFrom('sys_user')
      .select('password_hash')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    return row.password_hash;
  }

  find(userId: string) {
    return this.db
      .selectFrom('sys_user_two_factor')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  enabledAmong(userIds: string[]) {
    if (userIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('sys_user_two_factor')
      .select('user_id')
      .where('user_id', 'in', userIds)
      .where('enabled', '=', 1)
      .execute();
  }

  /** A secret waiting for its first code; replaces an earlier unfinished one. */
  async savePending(userId: string, secretEnc: string, now: number): Promise<void> {
    await this.db
      .insertInto('sys_user_two_factor')
      .values({
        user_id: userId,
        secret_enc: secretEnc,
        enabled: 0,
        last_step: null,
        create_time: now,
        enabled_time: null,
      })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({ secret_enc: secretEnc, enabled: 0, create_time: now }),
      )
      .execute();
  }

  /** Turns the factor on with its recovery codes, in one transaction. */
  async enable(
    userId: string,
    secretEnc: string,
    step: number,
    recoveryHashes: string[],
    now: number,
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('sys_user_two_factor')
        .values({
          user_id: userId,
          secret_enc: secretEnc,
          enabled: 1,
          last_step: step,
          create_time: now,
          enabled_time: now,
        })
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet({
            secret_enc: secretEnc,
            enabled: 1,
            last_step: step,
            enabled_time: now,
          }),
        )
        .execute();
      await trx.deleteFrom('sys_two_factor_recovery').where('user_id', '=', userId).execute();
      await trx
        .insertInto('sys_two_factor_recovery')
        .values(
          recoveryHashes.map((code_hash) => ({ user_id: userId, code_hash, used_time: null })),
        )
        .execute();
    });
  }

  /**
   * Records that the code of `step` was used, only if no code of this or a later step was: the
   * conditional update makes a replayed code lose even when two requests race.
   */
  async claimStep(userId: string, step: number): Promise<boolean> {
    const result = await this.db
      .updateTable('sys_user_two_factor')
      .set({ last_step: step })
      .where('user_id', '=', userId)
      .where('enabled', '=', 1)
      .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Spends a recovery code; false when it is unknown or already used. */
  async useRecoveryCode(userId: string, codeHash: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('sys_two_factor_recovery')
      .set({ used_time: now })
      .where('user_id', '=', userId)
      .where('code_hash', '=', codeHash)
      .where('used_time', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async recoveryCodesLeft(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('sys_two_factor_recovery')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('used_time', 'is', null)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async remove(userId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('sys_two_factor_recovery').where('user_id', '=', userId).execute();
      await trx.deleteFrom('sys_user_two_factor').where('user_id', '=', userId).execute();
    });
  }

  async companyRequired(companyId: string): Promise<boolean> {
    return (await readSetting(this.db, COMPANY_REQUIRED + companyId)) === '1';
  }

  async setCompanyRequired(companyId: string, required: boolean, now: number): Promise<void> {
    await writeSetting(this.db, COMPANY_REQUIRED + companyId, required ? '1' : '0', now);
  }

  async platformRequired(): Promise<boolean> {
    return (await readSetting(this.db, PLATFORM_REQUIRED)) === '1';
  }

  async setPlatformRequired(required: boolean, now: number): Promise<void> {
    await writeSetting(this.db, PLATFORM_REQUIRED, required ? '1' : '0', now);
  }
}
