import type { Db } from '../../platform/db/database.js';
import type { DeviceCommandTable } from '../../platform/db/schema.js';
import { scoped } from '../../platform/db/scoped.js';
import { selectPage, type PageRequest } from '../../platform/db/page.js';

export interface CommandOutcome {
  state: 'succeeded' | 'failed' | 'timeout';
  resultJson: string | null;
  error: string | null;
  at: number;
}

export class DeviceCommandRepository {
  constructor(private readonly db: Db) {}

  async insert(row: DeviceCommandTable): Promise<void> {
    await scoped(this.db, row.company_id).insertInto('device_command', row).execute();
  }

  find(companyId: string, id: string): Promise<DeviceCommandTable | undefined> {
    return scoped(this.db, companyId)
      .selectFrom('device_command')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /**
   * Ends a command that is still waiting; false when it already ended (a late reply after its
   * timeout, a second reply, or the sweep of another node). One conditional statement, so that
   * exactly one of them wins.
   */
  async finish(
    companyId: string,
    deviceId: string,
    id: string,
    outcome: CommandOutcome,
  ): Promise<boolean> {
    const result = await scoped(this.db, companyId)
      .updateTable('device_command')
      .set({
        state: outcome.state,
        result_json: outcome.resultJson,
        error: outcome.error,
        reply_time: outcome.state === 'timeout' ? null : outcome.at,
      })
      .where('id', '=', id)
      .where('device_id', '=', deviceId)
      .where('state', '=', 'sent')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Keeps an answer that came after the command's timeout; false when the command did not time
   * out or already has one (the first late answer is kept).
   */
  async noteLateReply(companyId: string, id: string, lateReplyJson: string): Promise<boolean> {
    const result = await scoped(this.db, companyId)
      .updateTable('device_command')
      .set({ late_reply_json: lateReplyJson })
      .where('id', '=', id)
      .where('state', '=', 'timeout')
      .where('late_reply_json', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Commands of every company still waiting past their deadline (the timeout sweep). */
  expired(now: number, limit: number): Promise<DeviceCommandTable[]> {
    return this.db
      .selectFrom('device_command')
      .selectAll()
      .where('state', '=', 'sent')
      .where('deadline', '<=', now)
      .orderBy('deadline')
      .limit(limit)
      .execute();
  }

  /** Commands of any company still waiting for an answer from one of these devices. */
  waitingFor(deviceIds: string[], now: number): Promise<DeviceCommandTable[]> {
    if (deviceIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('device_command')
      .selectAll()
      .where('state', '=', 'sent')
      .where('deadline', '>', now)
      .where('device_id', 'in', deviceIds)
      .orderBy('create_time')
      .execute();
  }

  page(companyId: string, deviceId: string, page: PageRequest & { order: 'asc' | 'desc' }) {
    const base = scoped(this.db, companyId)
      .selectFrom('device_command')
      .where('device_id', '=', deviceId);
    return selectPage(base, page, (query) =>
      query.selectAll().orderBy('create_time', page.order).orderBy('id', page.order),
    );
  }
}
