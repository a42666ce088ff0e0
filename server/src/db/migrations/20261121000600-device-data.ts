import { sql, type Kysely } from 'kysely';

/*
 * What devices report: telemetry samples, the latest value of each key per device, and device
 * events. Rows go with their device, and samples and events also when they are older than the
 * retention period (by `received_at`, see the indexes below).
 */

const id = 'varchar(32)';

// Migrations describe a schema at one point in time, so they use an untyped handle.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

export async function up(db: AnyDb): Promise<void> {
  // One row per sample, its values as a JSON object: a sample of ten values is one row to insert,
  // not ten. No key of its own: rows are read by device and time, and deleted by age.
  // No foreign key either: checking it doubled the cost of an insert in PostgreSQL (16 µs a row
  // instead of 7), on the table that takes every message. A trigger deletes a device's samples
  // with the device instead; the writer removes those of a write that was in flight then.
  await db.schema
    .createTable('device_telemetry')
    .addColumn('device_id', id, (c) => c.notNull())
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addColumn('values_json', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('idx_device_telemetry_device_ts')
    .on('device_telemetry')
    .columns(['device_id', 'ts'])
    .execute();
  // Retention goes by arrival, not by the device's clock: a device whose clock is years ahead
  // would otherwise keep its rows forever. Arrival times only grow, so this index is appended to.
  await db.schema
    .createIndex('idx_device_telemetry_received')
    .on('device_telemetry')
    .column('received_at')
    .execute();

  if (isPostgres(db)) {
    await sql`create function device_telemetry_cleanup() returns trigger language plpgsql as $$
      begin
        delete from device_telemetry where device_id = old.id;
        return null;
      end $$`.execute(db);
    await sql`create trigger device_telemetry_cleanup after delete on device
      for each row execute function device_telemetry_cleanup()`.execute(db);
  } else {
    await sql`create trigger device_telemetry_cleanup after delete on device begin
      delete from device_telemetry where device_id = old.id;
    end`.execute(db);
  }

  // One row per device: `{"key":[value, ts], ...}`, merged by the writer. A row per key would be
  // five to ten upserts per message instead of one. `version` counts the writes: a writer stores
  // its merge only over the version it read, so two nodes never overwrite each other's keys.
  await db.schema
    .createTable('device_telemetry_latest')
    .addColumn('device_id', id, (c) => c.primaryKey().references('device.id').onDelete('cascade'))
    .addColumn('values_json', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .execute();
  // Every flush rewrites these rows: free room in each page lets PostgreSQL update them in place
  // (HOT), without a new primary-key entry per update.
  if (isPostgres(db))
    await sql`alter table device_telemetry_latest set (fillfactor = 50)`.execute(db);

  await db.schema
    .createTable('device_event')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', id, (c) => c.notNull())
    .addColumn('device_id', id, (c) => c.notNull().references('device.id').onDelete('cascade'))
    .addColumn('sn', 'varchar(64)', (c) => c.notNull())
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addColumn('level', 'varchar(16)', (c) => c.notNull())
    .addColumn('code', 'varchar(64)', (c) => c.notNull())
    .addColumn('message', 'varchar(1024)', (c) => c.notNull())
    .addColumn('source', 'varchar(16)', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('idx_device_event_device_ts')
    .on('device_event')
    .columns(['device_id', 'ts', 'id'])
    .execute();
  await db.schema
    .createIndex('idx_device_event_received')
    .on('device_event')
    .column('received_at')
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('device_event').execute();
  await db.schema.dropTable('device_telemetry_latest').execute();
  await sql`drop trigger device_telemetry_cleanup${sql.raw(isPostgres(db) ? ' on device' : '')}`.execute(
    db,
  );
  if (isPostgres(db)) await sql`drop function device_telemetry_cleanup()`.execute(db);
  await db.schema.dropTable('device_telemetry').execute();
}
