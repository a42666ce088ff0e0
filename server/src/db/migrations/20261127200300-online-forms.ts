import type { Kysely } from 'kysely';

/*
 * Online forms (issue 20). A definition is data (`online_form.fields`, JSON text checked against
 * the contracts), never DDL: every form's records live in the same fixed tables. `data` keeps a
 * record's values as JSON; `online_form_value` copies the values of the fields the list searches,
 * sorts or keeps unique into typed, indexed columns, one row per (record, field):
 * `(form_id, field_key, value_text|value_num, record_id)` serves an equality or range search and
 * a page sorted by the field by walking the index, and the unique index on `unique_key` (null for
 * fields that are not unique) refuses a duplicate even when two writers race.
 * `sys_permission.company_id` marks the menu rows a published form adds: null is the shared
 * catalogue, a company id a row only that company sees and grants.
 */

const id = 'varchar(32)';

// Migrations describe a schema at one point in time, so they use an untyped handle.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('online_form')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', id, (c) => c.notNull().references('sys_company.id'))
    .addColumn('code', 'varchar(32)', (c) => c.notNull())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('name_en', 'varchar(64)')
    .addColumn('description', 'varchar(255)')
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('draft'))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('record_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('create_by', 'varchar(64)')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('update_by', 'varchar(64)')
    .addColumn('update_time', 'bigint')
    .addColumn('publish_time', 'bigint')
    .addUniqueConstraint('uq_online_form_code', ['company_id', 'code'])
    .execute();

  await db.schema
    .createTable('online_form_record')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('form_id', id, (c) => c.notNull().references('online_form.id'))
    .addColumn('company_id', id, (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('create_by', 'varchar(64)')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('update_by', 'varchar(64)')
    .addColumn('update_time', 'bigint')
    .execute();
  await db.schema
    .createIndex('idx_online_record_created')
    .on('online_form_record')
    .columns(['company_id', 'form_id', 'create_time', 'id'])
    .execute();
  await db.schema
    .createIndex('idx_online_record_updated')
    .on('online_form_record')
    .columns(['company_id', 'form_id', 'update_time', 'id'])
    .execute();

  await db.schema
    .createTable('online_form_value')
    .addColumn('record_id', id, (c) =>
      c.notNull().references('online_form_record.id').onDelete('cascade'),
    )
    .addColumn('form_id', id, (c) => c.notNull())
    .addColumn('field_key', 'varchar(32)', (c) => c.notNull())
    .addColumn('value_text', 'varchar(200)')
    .addColumn('value_num', 'double precision')
    .addColumn('unique_key', 'varchar(200)')
    .addPrimaryKeyConstraint('pk_online_form_value', ['record_id', 'field_key'])
    .execute();
  await db.schema
    .createIndex('idx_online_value_text')
    .on('online_form_value')
    .columns(['form_id', 'field_key', 'value_text', 'record_id'])
    .execute();
  await db.schema
    .createIndex('idx_online_value_num')
    .on('online_form_value')
    .columns(['form_id', 'field_key', 'value_num', 'record_id'])
    .execute();
  await db.schema
    .createIndex('uq_online_value_unique')
    .on('online_form_value')
    .columns(['form_id', 'field_key', 'unique_key'])
    .unique()
    .execute();

  await db.schema
    .createTable('online_form_history')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('form_id', id, (c) => c.notNull().references('online_form.id'))
    .addColumn('record_id', id, (c) => c.notNull())
    .addColumn('action', 'varchar(16)', (c) => c.notNull())
    .addColumn('changes', 'text', (c) => c.notNull())
    .addColumn('create_by', 'varchar(64)')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('idx_online_history_record')
    .on('online_form_history')
    .columns(['form_id', 'record_id', 'create_time'])
    .execute();
  await db.schema
    .createIndex('idx_online_history_form')
    .on('online_form_history')
    .columns(['form_id', 'create_time'])
    .execute();

  await db.schema.alterTable('sys_permission').addColumn('company_id', id).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sys_permission').dropColumn('company_id').execute();
  await db.schema.dropTable('online_form_history').execute();
  await db.schema.dropTable('online_form_value').execute();
  await db.schema.dropTable('online_form_record').execute();
  await db.schema.dropTable('online_form').execute();
}
