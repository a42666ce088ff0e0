import type { Kysely } from 'kysely';

/*
 * File storage (issue 18, 系统管理 → 文件管理). One row per stored file of a company; the bytes
 * are in the BlobStore under `oss/{id}`. Rows are deleted with their file (no soft delete): a
 * deleted file frees its bytes of the company's quota at once, and a row whose bytes are gone
 * would only be a broken link.
 */

const id = 'varchar(32)';

// Migrations describe a schema at one point in time, so they use an untyped handle.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('sys_oss_file')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', id, (c) => c.notNull().references('sys_company.id'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('content_type', 'varchar(100)', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('create_by', 'varchar(64)')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .execute();
  // The list: newest first (the default), by name, by size; each page of one company.
  await db.schema
    .createIndex('idx_sys_oss_file_time')
    .on('sys_oss_file')
    .columns(['company_id', 'create_time', 'id'])
    .execute();
  await db.schema
    .createIndex('idx_sys_oss_file_name')
    .on('sys_oss_file')
    .columns(['company_id', 'name', 'id'])
    .execute();
  await db.schema
    .createIndex('idx_sys_oss_file_size')
    .on('sys_oss_file')
    .columns(['company_id', 'size', 'id'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('sys_oss_file').execute();
}
