import type { Kysely } from 'kysely';

/*
 * Operator scheduled jobs (issue 18). `sys_quartz_job` is one row per job a company's user made:
 * its type (a fixed list), cron schedule and IANA time zone, parameters as JSON, status, the next
 * occurrence (null while paused) and the run in progress (`run_until`: a lease, so that a job runs
 * on one node at a time) and its last run. `sys_quartz_job_run` is its history, pruned to the
 * newest runs of each job. `sys_job.paused` holds a platform job paused by an administrator: every
 * node's scheduler reads it when it tries to take the job's lease.
 */

const id = 'varchar(32)';

// Migrations describe a schema at one point in time, so they use an untyped handle.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('sys_job')
    .addColumn('paused', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('sys_quartz_job')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', id, (c) => c.notNull())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('job_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('cron', 'varchar(120)', (c) => c.notNull())
    .addColumn('time_zone', 'varchar(64)', (c) => c.notNull())
    .addColumn('params_json', 'text', (c) => c.notNull())
    .addColumn('description', 'varchar(255)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('next_run_time', 'bigint')
    .addColumn('run_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_start', 'bigint')
    .addColumn('last_end', 'bigint')
    .addColumn('last_outcome', 'varchar(16)')
    .addColumn('last_message', 'text')
    .addColumn('create_by', 'varchar(100)', (c) => c.notNull())
    // The job acts as the user who last saved it: their permissions and data rules, their name
    // in the device log.
    .addColumn('run_as_id', id, (c) => c.notNull())
    .addColumn('run_as', 'varchar(100)', (c) => c.notNull())
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('update_by', 'varchar(100)')
    .addColumn('update_time', 'bigint')
    .execute();
  // A company's list, newest first.
  await db.schema
    .createIndex('idx_sys_quartz_job_company')
    .on('sys_quartz_job')
    .columns(['company_id', 'create_time', 'id'])
    .execute();
  // The due sweep: jobs whose next occurrence has come (paused ones have none).
  await db.schema
    .createIndex('idx_sys_quartz_job_due')
    .on('sys_quartz_job')
    .columns(['next_run_time'])
    .execute();
  await db.schema
    .createTable('sys_quartz_job_run')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('job_id', id, (c) => c.notNull())
    .addColumn('company_id', id, (c) => c.notNull())
    .addColumn('trigger_kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('scheduled_time', 'bigint')
    .addColumn('start_time', 'bigint', (c) => c.notNull())
    .addColumn('end_time', 'bigint', (c) => c.notNull())
    .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('counts_json', 'text')
    .addColumn('run_by', 'varchar(100)')
    .execute();
  // A job's history, newest first, and pruning it to its newest rows.
  await db.schema
    .createIndex('idx_sys_quartz_job_run_job')
    .on('sys_quartz_job_run')
    .columns(['job_id', 'start_time', 'id'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('sys_quartz_job_run').execute();
  await db.schema.dropTable('sys_quartz_job').execute();
  await db.schema.alterTable('sys_job').dropColumn('paused').execute();
}
