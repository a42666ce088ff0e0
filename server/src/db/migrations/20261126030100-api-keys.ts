import type { Kysely } from 'kysely';

/*
 * Personal API keys (issue 14). A key is `blrms_<id>_<secret>`: the id finds the row, only the
 * SHA-256 of the secret is kept (256 random bits need no slow hash), and the permission codes the
 * key may use are stored as a JSON array. Revoked and expired rows stay so the owner's list and
 * the operation log can still name them.
 */

const id = 'varchar(32)';

// Migrations describe a schema at one point in time, so they use an untyped handle.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('sys_api_key')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('user_id', id, (c) => c.notNull())
    .addColumn('company_id', id, (c) => c.notNull())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('secret_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('permissions', 'text', (c) => c.notNull())
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('expire_time', 'bigint', (c) => c.notNull())
    .addColumn('revoke_time', 'bigint')
    .addColumn('revoke_reason', 'varchar(16)')
    .addColumn('last_used_time', 'bigint')
    .addColumn('last_used_ip', 'varchar(64)')
    .execute();
  // A user's list, and revoking every key of a user who is frozen or deleted.
  await db.schema
    .createIndex('idx_sys_api_key_user')
    .on('sys_api_key')
    .columns(['user_id', 'create_time'])
    .execute();
  // An administrator's list of the keys of a company.
  await db.schema
    .createIndex('idx_sys_api_key_company')
    .on('sys_api_key')
    .columns(['company_id', 'create_time'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('sys_api_key').execute();
}
