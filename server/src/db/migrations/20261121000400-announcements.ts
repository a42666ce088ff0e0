import type { Kysely } from 'kysely';

/*
 * Announcements and their per-user delivery rows. Delivery rows are made when an announcement is
 * published, one per recipient, so read state and unread counts are plain indexed queries.
 */

const id = 'varchar(32)';

// Migrations describe a schema at one point in time, so they use an untyped handle.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('sys_announcement')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', id, (c) => c.notNull().references('sys_company.id'))
    .addColumn('titile', 'varchar(100)', (c) => c.notNull())
    .addColumn('msg_content', 'text', (c) => c.notNull())
    .addColumn('priority', 'varchar(1)', (c) => c.notNull())
    .addColumn('msg_category', 'varchar(1)', (c) => c.notNull())
    .addColumn('msg_type', 'varchar(10)', (c) => c.notNull())
    .addColumn('audience_ids', 'text', (c) => c.notNull())
    .addColumn('open_type', 'varchar(10)')
    .addColumn('open_page', 'varchar(255)')
    .addColumn('bus_id', 'varchar(64)')
    .addColumn('start_time', 'bigint')
    .addColumn('end_time', 'bigint')
    .addColumn('send_status', 'varchar(1)', (c) => c.notNull())
    .addColumn('sender', 'varchar(64)')
    .addColumn('send_time', 'bigint')
    .addColumn('cancel_time', 'bigint')
    .addColumn('del_flag', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('create_by', 'varchar(64)')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('update_time', 'bigint')
    .execute();
  await db.schema
    .createIndex('idx_sys_announcement_company')
    .on('sys_announcement')
    .columns(['company_id', 'create_time'])
    .execute();

  await db.schema
    .createTable('sys_announcement_send')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', id, (c) => c.notNull().references('sys_company.id'))
    .addColumn('annt_id', id, (c) =>
      c.notNull().references('sys_announcement.id').onDelete('cascade'),
    )
    .addColumn('user_id', id, (c) => c.notNull().references('sys_user.id').onDelete('cascade'))
    .addColumn('read_flag', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('read_time', 'bigint')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('uq_sys_announcement_send', ['annt_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('idx_sys_announcement_send_user')
    .on('sys_announcement_send')
    .columns(['user_id', 'read_flag'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('sys_announcement_send').execute();
  await db.schema.dropTable('sys_announcement').execute();
}
