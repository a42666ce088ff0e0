import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { Database, TenantTable } from '../../platform/db/schema.js';
import { scoped } from '../../platform/db/scoped.js';

export interface DuplicateProbe {
  table: keyof Database & string;
  column: string;
  value: string;
  excludeId: string | undefined;
  /** Set for tables whose values are unique per company. */
  companyId: string | undefined;
}

export class DuplicateCheckRepository {
  constructor(private readonly db: Db) {}

  /** Table and column come from the caller's whitelist; the value and id are bound parameters. */
  async exists(probe: DuplicateProbe): Promise<boolean> {
    const base = probe.companyId
      ? scoped(this.db, probe.companyId).selectFrom(probe.table as TenantTable)
      : this.db.selectFrom(probe.table);
    let query = base
      .select(sql.lit(1).as('hit'))
      .where(sql.ref(`${probe.table}.${probe.column}`), '=', probe.value);
    if (probe.excludeId !== undefined)
      query = query.where(sql.ref(`${probe.table}.id`), '<>', probe.excludeId);
    return (await query.limit(1).executeTakeFirst()) !== undefined;
  }
}
