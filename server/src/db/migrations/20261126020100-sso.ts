import type { Kysely } from 'kysely';

/*
 * Single sign-on: the pending OpenID Connect sign-ins (state, PKCE verifier and nonce, kept on the
 * server so that any node can finish a sign-in another node started, and spent once), and the CAS
 * tickets already used (a ticket is refused the second time even by a lax CAS server).
 */

// Migrations describe a schema at one point in time, so they use an untyped handle.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('sys_sso_state')
    .addColumn('state', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('code_verifier', 'varchar(128)', (c) => c.notNull())
    .addColumn('nonce', 'varchar(64)', (c) => c.notNull())
    .addColumn('redirect_uri', 'varchar(1024)', (c) => c.notNull())
    .addColumn('expire_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('idx_sys_sso_state_expire')
    .on('sys_sso_state')
    .column('expire_time')
    .execute();
  await db.schema
    .createTable('sys_sso_ticket')
    .addColumn('ticket_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('expire_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('idx_sys_sso_ticket_expire')
    .on('sys_sso_ticket')
    .column('expire_time')
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('sys_sso_ticket').execute();
  await db.schema.dropTable('sys_sso_state').execute();
}
