import { sql, type Kysely } from 'kysely';

/*
 * Presence history and intent: one row per device connection (the Connections tab and its
 * availability figures), the restart the platform expects of a device (a reboot command or an
 * upgrade it sent, during which a disconnect is no outage), and the SNs an operator removed from a
 * token (auto-registration refuses them until they are allowed again).
 */

const id = 'varchar(32)';

// Migrations describe a schema at one point in time, so they use an untyped handle.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

export async function up(db: AnyDb): Promise<void> {
  // No foreign key to the device: the presence writer inserts sessions in batches, and one of a
  // device deleted meanwhile must not fail the batch. It inserts only sessions of devices that
  // exist, and a trigger deletes a device's sessions with the device.
  await db.schema
    .createTable('device_session')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', id, (c) => c.notNull())
    .addColumn('device_id', id, (c) => c.notNull())
    .addColumn('connected_at', 'bigint', (c) => c.notNull())
    .addColumn('disconnected_at', 'bigint')
    .addColumn('reason', 'varchar(32)')
    .addColumn('ip', 'varchar(64)')
    .addColumn('node_id', 'varchar(128)')
    .execute();
  // The Connections tab pages a device's sessions, newest first, and sums a window of them.
  await db.schema
    .createIndex('idx_device_session_device_connected')
    .on('device_session')
    .columns(['device_id', 'connected_at'])
    .execute();
  // A node that stops (or is found dead) closes its open sessions in one statement.
  await db.schema
    .createIndex('idx_device_session_open_node')
    .on('device_session')
    .column('node_id')
    .where(sql.ref('disconnected_at'), 'is', null)
    .execute();
  // Retention deletes closed sessions by age.
  await db.schema
    .createIndex('idx_device_session_disconnected')
    .on('device_session')
    .column('disconnected_at')
    .execute();

  if (isPostgres(db)) {
    await sql`create function device_session_cleanup() returns trigger language plpgsql as $$
      begin
        delete from device_session where device_id = old.id;
        return null;
      end $$`.execute(db);
    await sql`create trigger device_session_cleanup after delete on device
      for each row execute function device_session_cleanup()`.execute(db);
  } else {
    await sql`create trigger device_session_cleanup after delete on device begin
      delete from device_session where device_id = old.id;
    end`.execute(db);
  }

  // The restart the platform expects (reboot | upgrade | config) and its window: a disconnect
  // in it raises no alert, and the console shows the device as restarting rather than offline.
  await db.schema.alterTable('device').addColumn('restart_kind', 'varchar(16)').execute();
  await db.schema.alterTable('device').addColumn('restart_from', 'bigint').execute();
  await db.schema.alterTable('device').addColumn('restart_until', 'bigint').execute();

  await db.schema
    .createTable('device_removed_sn')
    .addColumn('token_id', id, (c) => c.notNull().references('device_token.id').onDelete('cascade'))
    .addColumn('sn', 'varchar(64)', (c) => c.notNull())
    .addColumn('company_id', id, (c) => c.notNull())
    .addColumn('removed_by', 'varchar(64)')
    .addColumn('removed_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('pk_device_removed_sn', ['token_id', 'sn'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('device_removed_sn').execute();
  await db.schema.alterTable('device').dropColumn('restart_until').execute();
  await db.schema.alterTable('device').dropColumn('restart_from').execute();
  await db.schema.alterTable('device').dropColumn('restart_kind').execute();
  await sql`drop trigger device_session_cleanup${sql.raw(isPostgres(db) ? ' on device' : '')}`.execute(
    db,
  );
  if (isPostgres(db)) await sql`drop function device_session_cleanup()`.execute(db);
  await db.schema.dropTable('device_session').execute();
}
