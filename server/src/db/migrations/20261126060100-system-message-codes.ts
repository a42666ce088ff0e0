import type { Kysely } from 'kysely';

/*
 * System messages (device offline alerts, say) were stored as one text holding both languages.
 * They now keep a message code and its parameters (JSON), and every read renders them in the
 * reader's language. `titile` and `msg_content` keep the Chinese text for the title filter and
 * for rows written before, which have no code and are shown as they are.
 */

// Migrations describe a schema at one point in time, so they use an untyped handle.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sys_announcement').addColumn('msg_code', 'varchar(64)').execute();
  await db.schema.alterTable('sys_announcement').addColumn('msg_params', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sys_announcement').dropColumn('msg_params').execute();
  await db.schema.alterTable('sys_announcement').dropColumn('msg_code').execute();
}
