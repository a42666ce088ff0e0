import type { Kysely } from 'kysely';

/*
 * Device tags (issue 20): free labels on devices, for filters and campaign targets. A tag is a
 * row of `device_tag` (not a text column of `device`) so that "devices with any of these tags"
 * and "the company's tags with their counts" are index lookups. `company_id` is the device's,
 * copied so that those lookups need no join; the row goes with its device.
 */

const id = 'varchar(32)';

// Migrations describe a schema at one point in time, so they use an untyped handle.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('device_tag')
    .addColumn('device_id', id, (c) => c.notNull().references('device.id').onDelete('cascade'))
    .addColumn('company_id', id, (c) => c.notNull())
    .addColumn('tag', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('pk_device_tag', ['device_id', 'tag'])
    .execute();
  await db.schema
    .createIndex('idx_device_tag_company')
    .on('device_tag')
    .columns(['company_id', 'tag', 'device_id'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('device_tag').execute();
}
