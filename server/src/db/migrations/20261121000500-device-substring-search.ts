import { sql, type Kysely } from 'kysely';

/*
 * Trigram indexes for the device list's substring filters on SN and name (`like '%x%'`), which a
 * B-tree cannot serve: without them the page and its total read every device of the company.
 */

// Migrations describe a schema at one point in time, so they use an untyped handle.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

export async function up(db: AnyDb): Promise<void> {
  if (isPostgres(db)) {
    // pg_trgm is a trusted extension (PostgreSQL 13+): the database owner may create it.
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index idx_device_sn_trgm on device using gin (sn gin_trgm_ops)`.execute(db);
    await sql`create index idx_device_name_trgm on device using gin (name gin_trgm_ops)`.execute(
      db,
    );
    return;
  }
  // An external-content FTS5 table: it indexes the trigrams of `device.sn` and `device.name`
  // without a second copy of the text, keyed by the device's rowid. Triggers keep it in step with
  // every writer, as they do `device_stats`.
  await sql`create virtual table device_text using fts5(sn, name, content='device',
    content_rowid='rowid', tokenize='trigram')`.execute(db);
  await sql`insert into device_text(device_text) values ('rebuild')`.execute(db);
  await sql`create trigger device_text_insert after insert on device begin
    insert into device_text(rowid, sn, name) values (new.rowid, new.sn, new.name);
  end`.execute(db);
  await sql`create trigger device_text_delete after delete on device begin
    insert into device_text(device_text, rowid, sn, name)
      values ('delete', old.rowid, old.sn, old.name);
  end`.execute(db);
  await sql`create trigger device_text_update after update of sn, name on device begin
    insert into device_text(device_text, rowid, sn, name)
      values ('delete', old.rowid, old.sn, old.name);
    insert into device_text(rowid, sn, name) values (new.rowid, new.sn, new.name);
  end`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop index idx_device_name_trgm`.execute(db);
    await sql`drop index idx_device_sn_trgm`.execute(db);
    return;
  }
  await sql`drop trigger device_text_update`.execute(db);
  await sql`drop trigger device_text_delete`.execute(db);
  await sql`drop trigger device_text_insert`.execute(db);
  await sql`drop table device_text`.execute(db);
}
