import type { Kysely } from 'kysely';

/*
 * Per-company storage quota (issue 14): bytes of files the company may store. NULL follows the
 * deployment's default (COMPANY_STORAGE_QUOTA), 0 is unlimited. What is used is summed from the
 * rows that reference stored files (firmware.size), through the existing company index.
 */

// Migrations describe a schema at one point in time, so they use an untyped handle.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sys_company').addColumn('storage_quota', 'bigint').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sys_company').dropColumn('storage_quota').execute();
}
