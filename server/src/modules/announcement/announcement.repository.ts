import { ANNOUNCEMENT_SEND_STATUS, type TAnnouncementAudience } from '@blrms/contracts';
import { sql } from 'kysely';
import type { Db, Dialect } from '../../platform/db/database.js';
import type { SysAnnouncementTable } from '../../platform/db/schema.js';
import { scoped } from '../../platform/db/scoped.js';
import { containing } from '../../platform/db/like.js';
import { selectPage } from '../../platform/db/page.js';

const SORT_COLUMNS = {
  createTime: 'create_time',
  sendTime: 'send_time',
  priority: 'priority',
} as const;

export interface AnnouncementFilter {
  titile?: string | undefined;
  sendStatus?: string | undefined;
  priority?: string | undefined;
  msgCategory?: string | undefined;
}

export interface InboxFilter {
  titile?: string | undefined;
  msgCategory?: string | undefined;
  readFlag?: number | undefined;
  priority?: string | undefined;
}

export interface Paging {
  pageNo: number;
  pageSize: number;
  order: 'asc' | 'desc';
}

export class AnnouncementRepository {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  async insert(row: SysAnnouncementTable): Promise<void> {
    await scoped(this.db, row.company_id).insertInto('sys_announcement', row).execute();
  }

  find(companyId: string, id: string) {
    return scoped(this.db, companyId)
      .selectFrom('sys_announcement')
      .selectAll()
      .where('id', '=', id)
      .where('del_flag', '=', 0)
      .executeTakeFirst();
  }

  async update(companyId: string, id: string, changes: Partial<SysAnnouncementTable>) {
    const result = await scoped(this.db, companyId)
      .updateTable('sys_announcement')
      .set(changes)
      .where('id', '=', id)
      .where('del_flag', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Soft delete; the delivery rows go, so recipients no longer see it. */
  async delete(companyId: string, ids: string[]): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const result = await scoped(trx, companyId)
        .updateTable('sys_announcement')
        .set({ del_flag: 1 })
        .where('id', 'in', ids)
        .where('del_flag', '=', 0)
        .executeTakeFirst();
      await scoped(trx, companyId)
        .deleteFrom('sys_announcement_send')
        .where('annt_id', 'in', ids)
        .execute();
      return Number(result.numUpdatedRows);
    });
  }

  private filtered(companyId: string, filter: AnnouncementFilter) {
    let query = scoped(this.db, companyId).selectFrom('sys_announcement').where('del_flag', '=', 0);
    if (filter.titile) {
      query = query.where(
        (eb) =>
          sql<boolean>`${eb.ref('titile')} like ${containing(filter.titile ?? '')} escape '\\'`,
      );
    }
    if (filter.sendStatus) query = query.where('send_status', '=', filter.sendStatus);
    if (filter.priority) query = query.where('priority', '=', filter.priority);
    if (filter.msgCategory) query = query.where('msg_category', '=', filter.msgCategory);
    return query;
  }

  async page(
    companyId: string,
    filter: AnnouncementFilter,
    page: Paging & { column: keyof typeof SORT_COLUMNS },
  ) {
    const base = this.filtered(companyId, filter);
    return selectPage(base, page, (query) =>
      query
        .selectAll()
        .select((eb) => [
          eb
            .selectFrom('sys_announcement_send as s')
            .whereRef('s.annt_id', '=', 'sys_announcement.id')
            .select((e) => e.fn.countAll<number>().as('n'))
            .as('recipients'),
          eb
            .selectFrom('sys_announcement_send as s')
            .whereRef('s.annt_id', '=', 'sys_announcement.id')
            .where('s.read_flag', '=', 1)
            .select((e) => e.fn.countAll<number>().as('n'))
            .as('read_count'),
        ])
        .orderBy(SORT_COLUMNS[page.column], page.order)
        .orderBy('id', page.order),
    );
  }

  /** Users of the company, by audience; `ids` must already be known to belong to the company. */
  private audience(companyId: string, audience: TAnnouncementAudience, ids: string[]) {
    let query = scoped(this.db, companyId)
      .selectFrom('sys_user_company')
      .innerJoin('sys_user as u', 'u.id', 'sys_user_company.user_id')
      .where('u.del_flag', '=', 0);
    if (audience === 'user') query = query.where('u.id', 'in', ids);
    if (audience === 'depart') {
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('sys_user_depart as ud')
            .whereRef('ud.user_id', '=', 'u.id')
            .where('ud.depart_id', 'in', ids)
            .select('ud.user_id'),
        ),
      );
    }
    if (audience === 'role') {
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('sys_user_role as ur')
            .whereRef('ur.user_id', '=', 'u.id')
            .where('ur.role_id', 'in', ids)
            .select('ur.user_id'),
        ),
      );
    }
    return query;
  }

  async recipients(
    companyId: string,
    audience: TAnnouncementAudience,
    ids: string[],
  ): Promise<string[]> {
    if (audience !== 'all' && ids.length === 0) return [];
    const rows = await this.audience(companyId, audience, ids).select('u.id').execute();
    return rows.map((r) => r.id);
  }

  /** How many distinct `ids` are users, departments or roles of the company. */
  async countOwned(
    companyId: string,
    kind: Exclude<TAnnouncementAudience, 'all'>,
    ids: string[],
  ): Promise<number> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return 0;
    const table = { user: 'sys_user_company', depart: 'sys_depart', role: 'sys_role' } as const;
    const column = kind === 'user' ? 'user_id' : 'id';
    const row = await this.db
      .selectFrom(table[kind])
      .where(sql.ref(column), 'in', unique)
      .where('company_id', '=', companyId)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Role ids of the company with these codes. */
  async roleIdsByCode(companyId: string, codes: string[]): Promise<string[]> {
    if (codes.length === 0) return [];
    const rows = await scoped(this.db, companyId)
      .selectFrom('sys_role')
      .select('id')
      .where('role_code', 'in', codes)
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * Publishes a draft and makes its delivery rows, all or nothing. The rows are made by one
   * `insert ... select` over the audience, so 10,000 recipients cost one statement, not 10,000
   * bound rows; their ids are 32 random hex characters made by the database.
   */
  async publish(
    companyId: string,
    id: string,
    changes: Pick<SysAnnouncementTable, 'send_status' | 'sender' | 'send_time'>,
    audience: { kind: TAnnouncementAudience; ids: string[] },
  ): Promise<boolean> {
    const randomId =
      this.dialect === 'postgres'
        ? sql<string>`replace(gen_random_uuid()::text, '-', '')`
        : sql<string>`lower(hex(randomblob(16)))`;
    return this.db.transaction().execute(async (trx) => {
      const result = await scoped(trx, companyId)
        .updateTable('sys_announcement')
        .set(changes)
        .where('id', '=', id)
        .where('send_status', '=', ANNOUNCEMENT_SEND_STATUS.draft)
        .where('del_flag', '=', 0)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      if (audience.kind !== 'all' && audience.ids.length === 0) return true;
      const recipients = new AnnouncementRepository(trx, this.dialect)
        .audience(companyId, audience.kind, audience.ids)
        .select([
          randomId.as('id'),
          sql<string>`${companyId}`.as('company_id'),
          sql<string>`${id}`.as('annt_id'),
          'u.id as user_id',
          sql<number>`0`.as('read_flag'),
          sql<number>`${changes.send_time ?? 0}`.as('create_time'),
        ]);
      await trx
        .insertInto('sys_announcement_send')
        .columns(['id', 'company_id', 'annt_id', 'user_id', 'read_flag', 'create_time'])
        .expression(recipients)
        .execute();
      return true;
    });
  }

  async revoke(companyId: string, id: string, now: number): Promise<boolean> {
    const result = await scoped(this.db, companyId)
      .updateTable('sys_announcement')
      .set({ send_status: ANNOUNCEMENT_SEND_STATUS.revoked, cancel_time: now })
      .where('id', '=', id)
      .where('send_status', '=', ANNOUNCEMENT_SEND_STATUS.published)
      .where('del_flag', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async recipientsOf(companyId: string, id: string): Promise<string[]> {
    const rows = await scoped(this.db, companyId)
      .selectFrom('sys_announcement_send')
      .select('user_id')
      .where('annt_id', '=', id)
      .execute();
    return rows.map((r) => r.user_id);
  }

  /** The caller's live deliveries: published, not deleted, inside the start/end window. */
  private inbox(companyId: string, userId: string, now: number) {
    return scoped(this.db, companyId)
      .selectFrom('sys_announcement_send')
      .innerJoin('sys_announcement as a', 'a.id', 'sys_announcement_send.annt_id')
      .where('sys_announcement_send.user_id', '=', userId)
      .where('a.send_status', '=', ANNOUNCEMENT_SEND_STATUS.published)
      .where('a.del_flag', '=', 0)
      .where((eb) => eb.or([eb('a.start_time', 'is', null), eb('a.start_time', '<=', now)]))
      .where((eb) => eb.or([eb('a.end_time', 'is', null), eb('a.end_time', '>=', now)]));
  }

  private inboxColumns() {
    return [
      'a.id',
      'a.titile',
      'a.msg_content',
      'a.sender',
      'a.send_time',
      'a.priority',
      'a.msg_category',
      'a.open_type',
      'a.open_page',
      'a.bus_id',
      'a.create_time',
      'a.msg_code',
      'a.msg_params',
      'sys_announcement_send.id as send_id',
      'sys_announcement_send.read_flag',
      'sys_announcement_send.read_time',
    ] as const;
  }

  async unread(companyId: string, userId: string, now: number, category: string, limit: number) {
    const base = this.inbox(companyId, userId, now)
      .where('sys_announcement_send.read_flag', '=', 0)
      .where('a.msg_category', '=', category);
    const [{ total } = { total: 0 }] = await base
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .execute();
    const records = await base
      .select(this.inboxColumns())
      .orderBy('a.send_time', 'desc')
      .orderBy('a.id', 'desc')
      .limit(limit)
      .execute();
    return { records, total: Number(total) };
  }

  async inboxPage(
    companyId: string,
    userId: string,
    now: number,
    filter: InboxFilter,
    page: Paging,
  ) {
    let base = this.inbox(companyId, userId, now);
    if (filter.titile) {
      base = base.where(
        (eb) =>
          sql<boolean>`${eb.ref('a.titile')} like ${containing(filter.titile ?? '')} escape '\\'`,
      );
    }
    if (filter.msgCategory) base = base.where('a.msg_category', '=', filter.msgCategory);
    if (filter.priority) base = base.where('a.priority', '=', filter.priority);
    if (filter.readFlag !== undefined) {
      base = base.where('sys_announcement_send.read_flag', '=', filter.readFlag);
    }
    return selectPage(base, page, (query) =>
      query
        .select(this.inboxColumns())
        .orderBy('a.send_time', page.order)
        .orderBy('a.id', page.order),
    );
  }

  inboxEntry(companyId: string, userId: string, now: number, anntId: string) {
    return this.inbox(companyId, userId, now)
      .where('a.id', '=', anntId)
      .select(this.inboxColumns())
      .executeTakeFirst();
  }

  async markRead(companyId: string, userId: string, anntId: string, now: number) {
    await scoped(this.db, companyId)
      .updateTable('sys_announcement_send')
      .set({ read_flag: 1, read_time: now })
      .where('user_id', '=', userId)
      .where('annt_id', '=', anntId)
      .where('read_flag', '=', 0)
      .execute();
  }

  async markAllRead(companyId: string, userId: string, now: number): Promise<number> {
    const result = await scoped(this.db, companyId)
      .updateTable('sys_announcement_send')
      .set({ read_flag: 1, read_time: now })
      .where('user_id', '=', userId)
      .where('read_flag', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  audienceUsers(companyId: string) {
    return scoped(this.db, companyId)
      .selectFrom('sys_user_company')
      .innerJoin('sys_user as u', 'u.id', 'sys_user_company.user_id')
      .where('u.del_flag', '=', 0)
      .select(['u.id', 'u.username', 'u.realname'])
      .orderBy('u.username')
      .execute();
  }

  audienceDeparts(companyId: string) {
    return scoped(this.db, companyId)
      .selectFrom('sys_depart')
      .select(['id', 'parent_id', 'depart_name', 'depart_name_en', 'org_code'])
      .orderBy('depart_order')
      .orderBy('org_code')
      .execute();
  }

  audienceRoles(companyId: string) {
    return scoped(this.db, companyId)
      .selectFrom('sys_role')
      .select(['id', 'role_code', 'role_name', 'role_name_en'])
      .orderBy('role_code')
      .execute();
  }
}
