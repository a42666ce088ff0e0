import type { Db } from '../../platform/db/database.js';
import type { SysSsoStateTable } from '../../platform/db/schema.js';

export class SsoRepository {
  constructor(private readonly db: Db) {}

  companyByCode(code: string) {
    return this.db
      .selectFrom('sys_company')
      .select(['id', 'status'])
      .where('code', '=', code)
      .executeTakeFirst();
  }

  /** Stores a pending sign-in and drops the ones nobody finished. */
  async saveState(row: SysSsoStateTable, now: number): Promise<void> {
    await this.db.deleteFrom('sys_sso_state').where('expire_time', '<=', now).execute();
    await this.db.insertInto('sys_sso_state').values(row).execute();
  }

  /** Deletes and returns the pending sign-in: of two callbacks with one state, one gets it. */
  takeState(state: string): Promise<SysSsoStateTable | undefined> {
    return this.db
      .deleteFrom('sys_sso_state')
      .where('state', '=', state)
      .returningAll()
      .executeTakeFirst();
  }

  /** Whether the ticket was new: false when it had been presented before. */
  async spendTicket(ticketHash: string, expireTime: number, now: number): Promise<boolean> {
    await this.db.deleteFrom('sys_sso_ticket').where('expire_time', '<=', now).execute();
    const result = await this.db
      .insertInto('sys_sso_ticket')
      .values({ ticket_hash: ticketHash, expire_time: expireTime })
      .onConflict((oc) => oc.column('ticket_hash').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }
}
