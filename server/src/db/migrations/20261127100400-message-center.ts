import type { Kysely } from 'kysely';

/*
 * The message center (issue 18). Templates belong to a company; the platform company's templates
 * are the defaults every company uses until it saves its own with the same code and channel.
 * `sys_message` is the delivery queue and its history at once: a row is written before anything
 * is sent, so what the API acknowledged survives a crash, and the delivery job finds due rows by
 * (status, next_attempt_time). Webhook endpoints keep their signing secret (see operations.md).
 */

const id = 'varchar(32)';

// Migrations describe a schema at one point in time, so they use an untyped handle.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('sys_message_template')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', id, (c) => c.notNull())
    .addColumn('code', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('channel', 'varchar(16)', (c) => c.notNull())
    .addColumn('subject', 'varchar(200)', (c) => c.notNull())
    .addColumn('subject_en', 'varchar(200)', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('content_en', 'text', (c) => c.notNull())
    .addColumn('test_data', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('built_in', 'integer', (c) => c.notNull())
    .addColumn('create_by', 'varchar(64)')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('update_time', 'bigint')
    .execute();
  // One template per code and channel in a company; sending looks templates up by code.
  await db.schema
    .createIndex('uq_sys_message_template_code')
    .on('sys_message_template')
    .columns(['company_id', 'code', 'channel'])
    .unique()
    .execute();

  await db.schema
    .createTable('sys_message')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', id, (c) => c.notNull())
    .addColumn('template_code', 'varchar(64)')
    .addColumn('channel', 'varchar(16)', (c) => c.notNull())
    // A user id (system, and email/SMS sent to a user) or a webhook endpoint id.
    .addColumn('receiver_id', id)
    .addColumn('receiver', 'varchar(500)', (c) => c.notNull())
    .addColumn('title', 'varchar(200)', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    // What the channel needs besides: the bell's texts in both languages and its link, the
    // webhook's variables.
    .addColumn('extra', 'text')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_time', 'bigint')
    .addColumn('expire_time', 'bigint')
    .addColumn('last_error', 'varchar(500)')
    .addColumn('create_by', 'varchar(64)')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('send_time', 'bigint')
    .execute();
  // The delivery job: queued rows that are due, oldest first.
  await db.schema
    .createIndex('idx_sys_message_due')
    .on('sys_message')
    .columns(['status', 'next_attempt_time'])
    .execute();
  // The history screen: a company's messages, newest first.
  await db.schema
    .createIndex('idx_sys_message_company')
    .on('sys_message')
    .columns(['company_id', 'create_time', 'id'])
    .execute();

  await db.schema
    .createTable('sys_message_webhook')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', id, (c) => c.notNull())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('url', 'varchar(500)', (c) => c.notNull())
    .addColumn('secret', 'varchar(64)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('create_by', 'varchar(64)')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('update_time', 'bigint')
    .execute();
  await db.schema
    .createIndex('idx_sys_message_webhook_company')
    .on('sys_message_webhook')
    .columns(['company_id', 'create_time'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('sys_message_webhook').execute();
  await db.schema.dropTable('sys_message').execute();
  await db.schema.dropTable('sys_message_template').execute();
}
