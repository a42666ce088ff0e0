import type { Kysely } from 'kysely';

/*
 * Configuration failures as a code (`device-refused`, `no-answer`) the console words in the
 * reader's language, and a deadline for each push sent to an online device, after which an
 * unanswered push fails instead of staying pending. A command's answer that arrives after its
 * timeout is kept beside the timeout instead of being dropped.
 */

// Migrations describe a schema at one point in time, so they use an untyped handle.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('device_config').addColumn('error_code', 'varchar(32)').execute();
  await db.schema.alterTable('device_config').addColumn('deadline', 'bigint').execute();
  // Every failure so far was a refusal, its reason in `error`.
  await db
    .updateTable('device_config')
    .set({ error_code: 'device-refused' })
    .where('state', '=', 'failed')
    .execute();
  await db.schema.alterTable('device_command').addColumn('late_reply_json', 'text').execute();
  // The no-answer sweep: pushes still pending, by deadline.
  await db.schema
    .createIndex('idx_device_config_deadline')
    .on('device_config')
    .columns(['state', 'deadline'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('idx_device_config_deadline').execute();
  await db.schema.alterTable('device_command').dropColumn('late_reply_json').execute();
  await db.schema.alterTable('device_config').dropColumn('deadline').execute();
  await db.schema.alterTable('device_config').dropColumn('error_code').execute();
}
