import type { TMessageQuery } from '@blrms/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import { containing } from '../../platform/db/like.js';
import { selectPage } from '../../platform/db/page.js';
import type { SysMessageTable } from '../../platform/db/schema.js';
import { scoped } from '../../platform/db/scoped.js';

export type MessageRow = SysMessageTable;

/** A user of the company as a receiver: where each channel reaches them. */
export interface Contact {
  id: string;
  username: string;
  email: string | null;
  phone: string | null;
}

const SORT_COLUMNS = {
  createTime: 'create_time',
  sendTime: 'send_time',
} as const satisfies Record<TMessageQuery['column'], keyof SysMessageTable>;

/** Rows are inserted at most this many per statement. */
const INSERT_CHUNK = 500;

/** A company's messages: enqueueing, the history screen and manual resends. */
export class MessageRepository {
  constructor(private readonly db: Db) {}

  async insert(companyId: string, rows: Omit<MessageRow, 'company_id'>[]): Promise<void> {
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      await scoped(this.db, companyId)
        .insertInto('sys_message', rows.slice(i, i + INSERT_CHUNK))
        .execute();
    }
  }

  async page(companyId: string, q: TMessageQuery) {
    let base = scoped(this.db, companyId).selectFrom('sys_message');
    if (q.channel) base = base.where('channel', '=', q.channel);
    if (q.status) base = base.where('status', '=', q.status);
    if (q.templateCode) base = base.where('template_code', '=', q.templateCode);
    if (q.receiver) {
      base = base.where(sql<boolean>`receiver like ${containing(q.receiver)} escape '\\'`);
    }
    if (q.begin) base = base.where('create_time', '>=', Date.parse(q.begin));
    if (q.end) base = base.where('create_time', '<=', Date.parse(q.end));
    return selectPage(base, q, (query) =>
      query.selectAll().orderBy(SORT_COLUMNS[q.column], q.order).orderBy('id', q.order),
    );
  }

  find(companyId: string, id: string): Promise<MessageRow | undefined> {
    return scoped(this.db, companyId)
      .selectFrom('sys_message')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** A failed message queued again, due now, with a fresh count of attempts. */
  async requeue(companyId: string, id: string, now: number): Promise<boolean> {
    const result = await scoped(this.db, companyId)
      .updateTable('sys_message')
      .set({ status: 'queued', attempts: 0, next_attempt_time: now, expire_time: null })
      .where('id', '=', id)
      .where('status', '=', 'failed')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Active users of the company among `ids` and `usernames` (members from other companies too). */
  async contacts(companyId: string, ids: string[], usernames: string[]): Promise<Contact[]> {
    if (ids.length === 0 && usernames.length === 0) return [];
    return scoped(this.db, companyId)
      .selectFrom('sys_user_company')
      .innerJoin('sys_user as u', 'u.id', 'sys_user_company.user_id')
      .select(['u.id', 'u.username', 'u.email', 'u.phone'])
      .where('u.del_flag', '=', 0)
      .where('u.status', '=', 1)
      .where((eb) =>
        eb.or([
          ...(ids.length > 0 ? [eb('u.id', 'in', ids)] : []),
          ...(usernames.length > 0 ? [eb('u.username', 'in', usernames)] : []),
        ]),
      )
      .orderBy('u.username')
      .execute();
  }
}
