import type { Kysely } from 'kysely';

/*
 * Self-service accounts: one-time verification codes (email and SMS, stored hashed, with an
 * attempt counter), check rules for `/sys/checkRule/checkByCode`, and platform settings (the SMS
 * provider) kept in the database instead of new environment variables.
 */

// Migrations describe a schema at one point in time, so they use an untyped handle.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('sys_verify_code')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
    .addColumn('target', 'varchar(255)', (c) => c.notNull())
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ip', 'varchar(64)')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('expire_time', 'bigint', (c) => c.notNull())
    .addColumn('used_time', 'bigint')
    .execute();
  await db.schema
    .createIndex('idx_sys_verify_code_target')
    .on('sys_verify_code')
    .columns(['purpose', 'target', 'create_time'])
    .execute();

  await db.schema
    .createTable('sys_check_rule')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('rule_code', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('rule_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('rule_description', 'varchar(255)')
    .addColumn('rule_json', 'text', (c) => c.notNull())
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('update_time', 'bigint')
    .execute();

  await db.schema
    .createTable('sys_setting')
    .addColumn('setting_key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('setting_value', 'text', (c) => c.notNull())
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('sys_setting').execute();
  await db.schema.dropTable('sys_check_rule').execute();
  await db.schema.dropTable('sys_verify_code').execute();
}
