import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { scoped } from '../db/scoped.js';

/**
 * The tables whose rows each own one stored file of `size` bytes of their company: together they
 * are what a company stores against its quota. A feature that stores files (announcement
 * attachments, later) adds its table here, and every quota check and the company list count it.
 */
export const STORED_FILE_TABLES = ['firmware', 'sys_oss_file'] as const;

type StoredFileTable = (typeof STORED_FILE_TABLES)[number];

/**
 * Bytes the company whose id is in `companyIdColumn` of the outer query stores, as a correlated
 * expression (the company list shows it for every company of its page).
 */
export function storedBytesOf(companyIdColumn: string) {
  const sums = STORED_FILE_TABLES.map(
    (table: StoredFileTable) =>
      sql`coalesce((select sum(size) from ${sql.table(table)} where company_id = ${sql.ref(companyIdColumn)}), 0)`,
  );
  return sql<number | string>`(${sql.join(sums, sql` + `)})`;
}

/** What a company stores and its own quota, read for each upload and the usage shown. */
export class StorageRepository {
  constructor(private readonly db: Db) {}

  /** Bytes of every stored file of the company, and its own quota (null: the default). */
  async usage(companyId: string): Promise<{ stored: number; quota: number | null }> {
    const [sums, company] = await Promise.all([
      Promise.all(
        STORED_FILE_TABLES.map((table: StoredFileTable) =>
          scoped(this.db, companyId)
            .selectFrom(table)
            .select((eb) => eb.fn.sum<number | string | null>('size').as('total'))
            .executeTakeFirst(),
        ),
      ),
      this.db
        .selectFrom('sys_company')
        .select('storage_quota')
        .where('id', '=', companyId)
        .executeTakeFirst(),
    ]);
    const quota = company?.storage_quota;
    return {
      stored: sums.reduce((total, row) => total + Number(row?.total ?? 0), 0),
      quota: quota === null || quota === undefined ? null : Number(quota),
    };
  }
}
