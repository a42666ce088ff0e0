import type { Kysely } from 'kysely';

/*
 * Scheduled jobs (issue 17). `sys_job` is one row per job run cluster-wide: the lease that makes
 * one node its leader (`lease_node` until `lease_until`), the run in progress, the last finished
 * run and counters, so a job that runs every second updates its row instead of adding one.
 * `sys_job_run` keeps the history worth reading: failed runs, and every run of jobs that run at
 * most once a minute; the scheduler keeps the newest rows of each job only.
 */

const id = 'varchar(32)';
const jobName = 'varchar(100)';
const node = 'varchar(128)';

// Migrations describe a schema at one point in time, so they use an untyped handle.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('sys_job')
    .addColumn('name', jobName, (c) => c.primaryKey())
    .addColumn('lease_node', node)
    .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('running_since', 'bigint')
    .addColumn('last_start', 'bigint')
    .addColumn('last_end', 'bigint')
    .addColumn('last_outcome', 'varchar(16)')
    .addColumn('last_error', 'text')
    .addColumn('last_node', node)
    .addColumn('runs', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('failures', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('sys_job_run')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('job_name', jobName, (c) => c.notNull())
    .addColumn('node', node, (c) => c.notNull())
    .addColumn('start_time', 'bigint', (c) => c.notNull())
    .addColumn('end_time', 'bigint', (c) => c.notNull())
    .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
    .addColumn('error', 'text')
    .execute();
  // A job's history, newest first, and pruning it to its newest rows.
  await db.schema
    .createIndex('idx_sys_job_run_job')
    .on('sys_job_run')
    .columns(['job_name', 'start_time', 'id'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('sys_job_run').execute();
  await db.schema.dropTable('sys_job').execute();
}
