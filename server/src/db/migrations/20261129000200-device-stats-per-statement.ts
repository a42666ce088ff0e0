import { sql, type Kysely } from 'kysely';

/*
 * PostgreSQL: `device_stats` is kept by statement-level triggers that read the statement's
 * transition tables, in place of a row-level trigger. The row trigger ran two upserts per changed
 * device, and a batch that brought 500 devices online upserted the same few counters 1,000 times in
 * one transaction, each a new row version the next one had to step over: 7 s of PostgreSQL's time
 * in a storm of 19,000 new devices, more than any statement. Per statement, the changed devices
 * are counted by bucket first and each counter is written once; counters are written in key
 * order, so two batches that share counters wait for each other instead of deadlocking.
 *
 * SQLite has no statement-level triggers; its row triggers stay (they run in the server's process,
 * without a round trip or a lock wait).
 */

// Migrations describe a schema at one point in time, so they use an untyped handle.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/** `device_stats`' key, as created by the devices migration. */
const STATS_COLUMNS = [
  'company_id',
  'token_id',
  'owner_id',
  'sys_org_code',
  'group_id',
  'series',
  'status',
  'version',
] as const;

function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

const columns = STATS_COLUMNS.join(', ');

/** The key of each row of a transition table (NULL stored as ''), with its change to the count. */
const keysOf = (table: 'old_rows' | 'new_rows', n: 1 | -1) =>
  `select ${STATS_COLUMNS.map((c) => `coalesce(${c}, '') as ${c}`).join(', ')}, ${n} as n
   from ${table}`;

/** Adds the net change of each counter the statement touched, in key order. */
const applyChanges = (changes: string) =>
  `insert into device_stats (${columns}, n)
     select ${columns}, sum(n) from (${changes}) as change
     group by ${columns} having sum(n) <> 0 order by ${columns}
   on conflict (${columns}) do update set n = device_stats.n + excluded.n;`;

const TRIGGERS = [
  { event: 'insert', tables: 'new table as new_rows', changes: keysOf('new_rows', 1) },
  { event: 'delete', tables: 'old table as old_rows', changes: keysOf('old_rows', -1) },
  {
    event: 'update',
    tables: 'old table as old_rows new table as new_rows',
    changes: `${keysOf('old_rows', -1)} union all ${keysOf('new_rows', 1)}`,
  },
] as const;

export async function up(db: AnyDb): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop trigger device_stats_apply on device`.execute(db);
  await sql`drop function device_stats_apply()`.execute(db);
  // One function per event: a function's statements are planned against the transition tables
  // of the trigger that runs it, and each event has its own.
  for (const { event, tables, changes } of TRIGGERS) {
    await sql
      .raw(
        `create function device_stats_${event}() returns trigger language plpgsql as $$
         begin ${applyChanges(changes)} return null; end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger device_stats_${event} after ${event} on device
         referencing ${tables} for each statement execute function device_stats_${event}()`,
      )
      .execute(db);
  }
}

export async function down(db: AnyDb): Promise<void> {
  if (!isPostgres(db)) return;
  for (const { event } of TRIGGERS) {
    await sql.raw(`drop trigger device_stats_${event} on device`).execute(db);
    await sql.raw(`drop function device_stats_${event}()`).execute(db);
  }
  const values = (row: 'new' | 'old', n: 1 | -1) =>
    `${STATS_COLUMNS.map((c) => `coalesce(${row}.${c}, '')`).join(', ')}, ${n}`;
  const upsert = (row: 'new' | 'old', n: 1 | -1) =>
    `insert into device_stats (${columns}, n) values (${values(row, n)})
       on conflict (${columns}) do update set n = device_stats.n + excluded.n;`;
  const changed = STATS_COLUMNS.map((c) => `old.${c} is distinct from new.${c}`).join(' or ');
  await sql
    .raw(
      `create function device_stats_apply() returns trigger language plpgsql as $$
       begin
         if tg_op = 'UPDATE' and not (${changed}) then return null; end if;
         if tg_op in ('UPDATE', 'DELETE') then ${upsert('old', -1)} end if;
         if tg_op in ('UPDATE', 'INSERT') then ${upsert('new', 1)} end if;
         return null;
       end $$`,
    )
    .execute(db);
  await sql`create trigger device_stats_apply after insert or update or delete on device
    for each row execute function device_stats_apply()`.execute(db);
}
