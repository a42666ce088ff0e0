import { sql, type Kysely } from 'kysely';

/*
 * Campaign gating: a wave starts only when the one before is final, under its failure threshold,
 * past its soak time and (when asked for) approved; a wave's deadline stops its offline devices
 * from holding it; a campaign may be scheduled; it ends `completed`, `completed-with-failures` or
 * `failed`, which is longer than the state column allowed.
 */

// Migrations describe a schema at one point in time, so they use an untyped handle.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

const COLUMNS: [
  name: string,
  type: 'integer' | 'bigint' | 'varchar(16)',
  notNullDefault?: number | string,
][] = [
  ['soak_minutes', 'integer', 0],
  // 0/1: every wave after the first waits for an operator's approval.
  ['approve_each_wave', 'integer', 0],
  ['wave_deadline_minutes', 'integer'],
  // continue | fail
  ['wave_deadline_action', 'varchar(16)', 'continue'],
  ['start_at', 'bigint'],
  // When the current wave began: its deadline counts from here.
  ['wave_start_time', 'bigint'],
  // soak | approval: what holds the next wave back; `gate_until` ends the soak.
  ['gate', 'varchar(16)'],
  ['gate_until', 'bigint'],
  // The last wave an operator approved to start, and the last whose failures they accepted.
  ['approved_wave', 'integer', 0],
  ['accepted_wave', 'integer', -1],
  // The last wave whose offline devices the deadline released (they no longer hold it).
  ['released_wave', 'integer', -1],
  // The wave whose failures crossed the threshold.
  ['threshold_wave', 'integer'],
];

export async function up(db: AnyDb): Promise<void> {
  for (const [name, type, notNullDefault] of COLUMNS) {
    await db.schema
      .alterTable('campaign')
      .addColumn(name, type, (c) =>
        notNullDefault === undefined ? c : c.notNull().defaultTo(notNullDefault),
      )
      .execute();
  }
  // Campaigns created before ran every device without waiting for waves: their wave began when
  // they were created.
  await db
    .updateTable('campaign')
    .set({ wave_start_time: sql`create_time` })
    .execute();
  // SQLite does not enforce the length of a varchar.
  if (isPostgres(db)) {
    await sql`alter table campaign alter column state type varchar(32)`.execute(db);
  }
}

export async function down(db: AnyDb): Promise<void> {
  if (isPostgres(db)) {
    await sql`update campaign set state = 'completed' where state in ('completed-with-failures', 'failed')`.execute(
      db,
    );
    await sql`update campaign set state = 'running' where state = 'scheduled'`.execute(db);
    await sql`alter table campaign alter column state type varchar(16)`.execute(db);
  }
  for (const [name] of [...COLUMNS].reverse()) {
    await db.schema.alterTable('campaign').dropColumn(name).execute();
  }
}
