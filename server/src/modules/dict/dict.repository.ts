import type { Db } from '../../platform/db/database.js';

export class DictRepository {
  constructor(private readonly db: Db) {}

  findByCode(dictCode: string) {
    return this.db
      .selectFrom('sys_dict')
      .select('id')
      .where('dict_code', '=', dictCode)
      .executeTakeFirst();
  }

  enabledItems(dictId: string) {
    return this.db
      .selectFrom('sys_dict_item')
      .select(['item_value', 'item_text', 'item_text_en', 'item_color'])
      .where('dict_id', '=', dictId)
      .where('status', '=', 1)
      .orderBy('sort_order')
      .orderBy('item_value')
      .execute();
  }
}
