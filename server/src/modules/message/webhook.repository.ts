import type { Db } from '../../platform/db/database.js';
import type { SysMessageWebhookTable } from '../../platform/db/schema.js';
import { scoped } from '../../platform/db/scoped.js';
import { readSetting, writeSetting } from '../../platform/db/settings.js';

export type WebhookRow = SysMessageWebhookTable;

const NETWORK_SETTING = 'message.webhook.network';

/** A company's webhook endpoints, and the platform setting on where webhooks may go. */
export class WebhookRepository {
  constructor(private readonly db: Db) {}

  listOf(companyId: string, onlyEnabled = false): Promise<WebhookRow[]> {
    let query = scoped(this.db, companyId)
      .selectFrom('sys_message_webhook')
      .selectAll()
      .orderBy('create_time')
      .orderBy('id');
    if (onlyEnabled) query = query.where('enabled', '=', 1);
    return query.execute();
  }

  async count(companyId: string): Promise<number> {
    const row = await scoped(this.db, companyId)
      .selectFrom('sys_message_webhook')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  find(companyId: string, id: string): Promise<WebhookRow | undefined> {
    return scoped(this.db, companyId)
      .selectFrom('sys_message_webhook')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async insert(companyId: string, row: Omit<WebhookRow, 'company_id'>): Promise<void> {
    await scoped(this.db, companyId).insertInto('sys_message_webhook', row).execute();
  }

  async update(
    companyId: string,
    id: string,
    changes: Partial<Omit<WebhookRow, 'id' | 'company_id'>>,
  ): Promise<boolean> {
    const result = await scoped(this.db, companyId)
      .updateTable('sys_message_webhook')
      .set(changes)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async delete(companyId: string, id: string): Promise<boolean> {
    const result = await scoped(this.db, companyId)
      .deleteFrom('sys_message_webhook')
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  readNetwork(): Promise<string | undefined> {
    return readSetting(this.db, NETWORK_SETTING);
  }

  writeNetwork(value: string, now: number): Promise<void> {
    return writeSetting(this.db, NETWORK_SETTING, value, now);
  }
}
