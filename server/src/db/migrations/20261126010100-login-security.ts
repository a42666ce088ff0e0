import type { Kysely } from 'kysely';

/*
 * Login hardening (issue 14): failed logins are counted per username and source address instead
 * of per username, so that a stranger can lock only their own address out; two-factor login
 * (TOTP secrets, hashed recovery codes, the short-lived challenges between the password and the
 * code). The companies' and the platform's "two-factor required" switches are settings
 * (`sys_setting`), like the platform's other run-time choices. The old per-username counters are
 * dropped: they lock for ten minutes at most, so nothing of value is lost.
 */

// Migrations describe a schema at one point in time, so they use an untyped handle.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.dropTable('sys_login_failure').execute();
  await db.schema
    .createTable('sys_login_failure')
    .addColumn('username', 'varchar(64)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('fail_count', 'integer', (c) => c.notNull())
    .addColumn('locked_until', 'bigint')
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('pk_sys_login_failure', ['username', 'ip'])
    .execute();

  await db.schema
    .createTable('sys_user_two_factor')
    .addColumn('user_id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('secret_enc', 'varchar(255)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('last_step', 'bigint')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('enabled_time', 'bigint')
    .execute();

  await db.schema
    .createTable('sys_two_factor_recovery')
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('used_time', 'bigint')
    .addPrimaryKeyConstraint('pk_sys_two_factor_recovery', ['user_id', 'code_hash'])
    .execute();

  await db.schema
    .createTable('sys_login_challenge')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_agent', 'varchar(255)')
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('secret_enc', 'varchar(255)')
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('expire_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('idx_sys_login_challenge_expire')
    .on('sys_login_challenge')
    .column('expire_time')
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('sys_login_challenge').execute();
  await db.schema.dropTable('sys_two_factor_recovery').execute();
  await db.schema.dropTable('sys_user_two_factor').execute();
  await db.schema.dropTable('sys_login_failure').execute();
  await db.schema
    .createTable('sys_login_failure')
    .addColumn('username', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('fail_count', 'integer', (c) => c.notNull())
    .addColumn('locked_until', 'bigint')
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .execute();
}
