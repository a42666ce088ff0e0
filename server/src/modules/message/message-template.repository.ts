import type { Db } from '../../platform/db/database.js';
import type { SysMessageTemplateTable } from '../../platform/db/schema.js';
import { scoped } from '../../platform/db/scoped.js';

export type TemplateRow = SysMessageTemplateTable;

/** Message templates; a company's own, the platform company's being everyone's defaults. */
export class MessageTemplateRepository {
  constructor(private readonly db: Db) {}

  /** Every template of a company (a company has at most a few hundred). */
  listOf(companyId: string): Promise<TemplateRow[]> {
    return scoped(this.db, companyId)
      .selectFrom('sys_message_template')
      .selectAll()
      .orderBy('code')
      .orderBy('channel')
      .execute();
  }

  async count(companyId: string): Promise<number> {
    const row = await scoped(this.db, companyId)
      .selectFrom('sys_message_template')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  find(companyId: string, id: string): Promise<TemplateRow | undefined> {
    return scoped(this.db, companyId)
      .selectFrom('sys_message_template')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  byCode(companyId: string, code: string): Promise<TemplateRow[]> {
    return scoped(this.db, companyId)
      .selectFrom('sys_message_template')
      .selectAll()
      .where('code', '=', code)
      .execute();
  }

  async taken(companyId: string, code: string, channel: string, exceptId?: string) {
    let query = scoped(this.db, companyId)
      .selectFrom('sys_message_template')
      .select('id')
      .where('code', '=', code)
      .where('channel', '=', channel);
    if (exceptId) query = query.where('id', '<>', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  async insert(companyId: string, row: Omit<TemplateRow, 'company_id'>): Promise<void> {
    await scoped(this.db, companyId).insertInto('sys_message_template', row).execute();
  }

  /** Templates the platform ships, added when missing; edited ones are left as they are. */
  async insertMissing(companyId: string, rows: Omit<TemplateRow, 'company_id'>[]): Promise<void> {
    if (rows.length === 0) return;
    await scoped(this.db, companyId)
      .insertInto('sys_message_template', rows)
      .onConflict((oc) => oc.columns(['company_id', 'code', 'channel']).doNothing())
      .execute();
  }

  async update(
    companyId: string,
    id: string,
    changes: Partial<Omit<TemplateRow, 'id' | 'company_id'>>,
  ): Promise<boolean> {
    const result = await scoped(this.db, companyId)
      .updateTable('sys_message_template')
      .set(changes)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async delete(companyId: string, id: string): Promise<boolean> {
    const result = await scoped(this.db, companyId)
      .deleteFrom('sys_message_template')
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }
}
