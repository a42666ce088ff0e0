import type { TCheckRuleListQuery } from '@blrms/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { SysCheckRuleTable } from '../../platform/db/schema.js';
import { containing } from '../../platform/db/like.js';
import { selectPage } from '../../platform/db/page.js';

const SORT_COLUMNS = {
  ruleCode: 'rule_code',
  ruleName: 'rule_name',
  createTime: 'create_time',
} as const satisfies Record<TCheckRuleListQuery['column'], keyof SysCheckRuleTable>;

/** Check rules are platform-wide: forms of every company validate against the same rules. */
export class CheckRuleRepository {
  constructor(private readonly db: Db) {}

  async page(q: TCheckRuleListQuery) {
    let base = this.db.selectFrom('sys_check_rule');
    if (q.ruleCode)
      base = base.where(sql<boolean>`rule_code like ${containing(q.ruleCode)} escape '\\'`);
    if (q.ruleName)
      base = base.where(sql<boolean>`rule_name like ${containing(q.ruleName)} escape '\\'`);
    return selectPage(base, q, (query) =>
      query.selectAll().orderBy(SORT_COLUMNS[q.column], q.order).orderBy('id'),
    );
  }

  findById(id: string) {
    return this.db.selectFrom('sys_check_rule').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByCode(code: string) {
    return this.db
      .selectFrom('sys_check_rule')
      .selectAll()
      .where('rule_code', '=', code)
      .executeTakeFirst();
  }

  async codeTaken(code: string, exceptId?: string): Promise<boolean> {
    let q = this.db.selectFrom('sys_check_rule').select('id').where('rule_code', '=', code);
    if (exceptId) q = q.where('id', '<>', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  async insert(row: SysCheckRuleTable): Promise<void> {
    await this.db.insertInto('sys_check_rule').values(row).execute();
  }

  async update(id: string, row: Omit<SysCheckRuleTable, 'id' | 'create_time'>): Promise<boolean> {
    const result = await this.db
      .updateTable('sys_check_rule')
      .set(row)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async delete(ids: string[]): Promise<number> {
    const result = await this.db
      .deleteFrom('sys_check_rule')
      .where('id', 'in', ids)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
