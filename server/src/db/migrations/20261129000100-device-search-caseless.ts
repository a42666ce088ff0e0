import { sql, type Kysely } from 'kysely';

/*
 * PostgreSQL: the trigram indexes of `device.sn` and `device.name` become indexes of their
 * lower-case forms. pg_trgm's operator class also serves `=`, and with the column itself indexed
 * the planner took the SN trigram index for the equality of a connect's login lookup (`d.sn =
 * v.v_sn`) whenever it misjudged the table's size: every login then read the trigrams that all
 * SNs of a series share, and a storm of new devices spent most of PostgreSQL's time there. An
 * index of `lower(sn)` serves only a query that names `lower(sn)`, which is the list's substring
 * filter; equality lookups are left to the (token, SN) key.
 *
 * The list's filter becomes case-insensitive on PostgreSQL too, as SQLite's `like` and its
 * case-folded FTS5 table already were.
 */

// Migrations describe a schema at one point in time, so they use an untyped handle.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

export async function up(db: AnyDb): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop index idx_device_sn_trgm`.execute(db);
  await sql`drop index idx_device_name_trgm`.execute(db);
  await sql`create index idx_device_sn_lower_trgm on device using gin (lower(sn) gin_trgm_ops)`.execute(
    db,
  );
  await sql`create index idx_device_name_lower_trgm on device
    using gin (lower(name) gin_trgm_ops)`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop index idx_device_name_lower_trgm`.execute(db);
  await sql`drop index idx_device_sn_lower_trgm`.execute(db);
  await sql`create index idx_device_sn_trgm on device using gin (sn gin_trgm_ops)`.execute(db);
  await sql`create index idx_device_name_trgm on device using gin (name gin_trgm_ops)`.execute(db);
}
