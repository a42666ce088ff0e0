import type { Db } from '../../platform/db/database.js';
import type { SysMessageTable } from '../../platform/db/schema.js';

/*
 * The delivery job's side of `sys_message`: it sends the due messages of every company, so its
 * queries cross companies by design (each row carries its company, and what a delivery reads for
 * it, such as a webhook's secret, is read in that company): `eslint.config.js` lists the class.
 */

export type QueuedRow = SysMessageTable;

/** What finishing an attempt writes. */
export type Outcome = Pick<
  SysMessageTable,
  'status' | 'next_attempt_time' | 'last_error' | 'send_time'
>;

export class MessageQueueRepository {
  constructor(private readonly db: Db) {}

  /** Queued messages whose next attempt is due, oldest first. */
  due(now: number, limit: number): Promise<QueuedRow[]> {
    return this.db
      .selectFrom('sys_message')
      .selectAll()
      .where('status', '=', 'queued')
      .where('next_attempt_time', '<=', now)
      .orderBy('next_attempt_time')
      .limit(limit)
      .execute();
  }

  /** The rows just enqueued, for their first attempt. */
  byIds(ids: string[]): Promise<QueuedRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('sys_message').selectAll().where('id', 'in', ids).execute();
  }

  /**
   * Takes a message for one attempt: only while it is still queued with the due time this node
   * saw, so of two nodes (or the job and an immediate send) exactly one wins. The due time moves
   * a lease ahead: a node that dies mid-attempt leaves the message due again after the lease.
   */
  async claim(id: string, seenDue: number, leaseUntil: number): Promise<boolean> {
    const result = await this.db
      .updateTable('sys_message')
      .set((eb) => ({ attempts: eb('attempts', '+', 1), next_attempt_time: leaseUntil }))
      .where('id', '=', id)
      .where('status', '=', 'queued')
      .where('next_attempt_time', '=', seenDue)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async finish(id: string, outcome: Outcome): Promise<void> {
    await this.db
      .updateTable('sys_message')
      .set(outcome)
      .where('id', '=', id)
      .where('status', '=', 'queued')
      .execute();
  }
}
