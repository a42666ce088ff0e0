import type { Kysely } from 'kysely';

/*
 * Operation log rows said `POST /api/sys/user/add` with the type `POST`. A row now keeps what
 * happened as a message code with parameters (rendered in the reader's language) and the
 * request's parameters, passwords left out, for the details drawer. Rows written before keep
 * their text and show it as it is.
 */

// Migrations describe a schema at one point in time, so they use an untyped handle.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const COLUMNS = ['content_params', 'request_params'] as const;

export async function up(db: AnyDb): Promise<void> {
  for (const column of COLUMNS) {
    await db.schema.alterTable('sys_log').addColumn(column, 'text').execute();
  }
}

export async function down(db: AnyDb): Promise<void> {
  for (const column of COLUMNS) {
    await db.schema.alterTable('sys_log').dropColumn(column).execute();
  }
}
