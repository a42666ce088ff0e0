import type { Kysely } from 'kysely';

/*
 * Base data (issue 20, 基础数据): a company's goods (what a device is), locations (where it is: a
 * tree region → site → cabinet) and vendors (who supplied, installed, carries or maintains it).
 * A device points at one of each through three nullable columns; the references have no cascade,
 * because the base-data service refuses to delete a row a device still points at. Each of the
 * three gets the device list's index shape (company, X, create_time, id), so "devices of this
 * goods/location/vendor" is a filtered first page like status or series, and the count that
 * refuses a delete is an index range.
 */

const id = 'varchar(32)';

// Migrations describe a schema at one point in time, so they use an untyped handle.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('base_goods')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', id, (c) => c.notNull().references('sys_company.id'))
    .addColumn('series', 'varchar(16)', (c) => c.notNull())
    .addColumn('model', 'varchar(64)', (c) => c.notNull())
    .addColumn('hw_revision', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'varchar(500)')
    .addColumn('datasheet_file_id', id)
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('create_by', 'varchar(64)')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('update_time', 'bigint')
    .addUniqueConstraint('uq_base_goods_model', ['company_id', 'model', 'hw_revision'])
    .execute();

  await db.schema
    .createTable('base_location')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', id, (c) => c.notNull().references('sys_company.id'))
    .addColumn('parent_id', id, (c) => c.references('base_location.id'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('address', 'varchar(255)')
    .addColumn('latitude', 'double precision')
    .addColumn('longitude', 'double precision')
    .addColumn('contact_name', 'varchar(64)')
    .addColumn('contact_phone', 'varchar(32)')
    .addColumn('sort_no', 'integer', (c) => c.defaultTo(0))
    .addColumn('create_by', 'varchar(64)')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('update_time', 'bigint')
    .execute();
  await db.schema
    .createIndex('idx_base_location_parent')
    .on('base_location')
    .columns(['company_id', 'parent_id'])
    .execute();

  await db.schema
    .createTable('base_vendor')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', id, (c) => c.notNull().references('sys_company.id'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('contact_name', 'varchar(64)')
    .addColumn('contact_phone', 'varchar(32)')
    .addColumn('contact_email', 'varchar(128)')
    .addColumn('contract_no', 'varchar(64)')
    .addColumn('contract_start', 'varchar(10)')
    .addColumn('contract_end', 'varchar(10)')
    .addColumn('warranty_end', 'varchar(10)')
    .addColumn('remark', 'varchar(500)')
    .addColumn('create_by', 'varchar(64)')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('update_time', 'bigint')
    .addUniqueConstraint('uq_base_vendor_name', ['company_id', 'name'])
    .execute();

  const refs = [
    ['goods_id', 'base_goods'],
    ['location_id', 'base_location'],
    ['vendor_id', 'base_vendor'],
  ] as const;
  for (const [column, table] of refs) {
    await db.schema
      .alterTable('device')
      .addColumn(column, id, (c) => c.references(`${table}.id`))
      .execute();
    await db.schema
      .createIndex(`idx_device_${column.replace('_id', '')}`)
      .on('device')
      .columns(['company_id', column, 'create_time', 'id'])
      .execute();
  }
}

export async function down(db: AnyDb): Promise<void> {
  for (const column of ['goods_id', 'location_id', 'vendor_id']) {
    await db.schema.dropIndex(`idx_device_${column.replace('_id', '')}`).execute();
    await db.schema.alterTable('device').dropColumn(column).execute();
  }
  await db.schema.dropTable('base_vendor').execute();
  await db.schema.dropTable('base_location').execute();
  await db.schema.dropTable('base_goods').execute();
}
