import type { Db } from '../db/database.js';
import { newId } from '../db/ids.js';
import type { SysJobRunTable, SysJobTable } from '../db/schema.js';

export type JobOutcome = 'ok' | 'failed';

/** A finished run of a job: on which node, when, and how it ended. */
export interface JobRun {
  node: string;
  start: number;
  end: number;
  outcome: JobOutcome;
  error: string | null;
}

/** The leases, last runs and run history of scheduled jobs (`sys_job`, `sys_job_run`). */
export class JobRepository {
  constructor(private readonly db: Db) {}

  /**
   * Takes the job's lease for `node` until `until` when it is free, expired or already the
   * node's, and marks the job running since `now`. One statement (an insert of the job's first
   * row, else a conditional update), so two nodes asking at once cannot both get it. A job an
   * administrator paused is not taken unless `evenIfPaused` (“run now”). Returns whether the node
   * holds the lease.
   */
  async claim(
    name: string,
    node: string,
    now: number,
    until: number,
    evenIfPaused = false,
  ): Promise<boolean> {
    const rows = await this.db
      .insertInto('sys_job')
      .values({
        name,
        lease_node: node,
        lease_until: until,
        running_since: now,
        runs: 0,
        failures: 0,
        paused: 0,
      })
      .onConflict((oc) =>
        oc
          .column('name')
          .doUpdateSet({ lease_node: node, lease_until: until, running_since: now })
          .where((eb) => {
            const free = eb.or([
              eb('sys_job.lease_until', '<', now),
              eb('sys_job.lease_node', '=', node),
            ]);
            return evenIfPaused ? free : eb.and([free, eb('sys_job.paused', '=', 0)]);
          }),
      )
      .returning('name')
      .execute();
    return rows.length > 0;
  }

  /** Extends the node's lease during a long run; false when the lease is no longer the node's. */
  async renew(name: string, node: string, until: number): Promise<boolean> {
    const result = await this.db
      .updateTable('sys_job')
      .set({ lease_until: until })
      .where('name', '=', name)
      .where('lease_node', '=', node)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Records the job's last run and counts it; the lease, when still the node's, is kept until
   * `until` and the job no longer shows as running.
   */
  async finish(name: string, run: JobRun, until: number): Promise<void> {
    await this.db
      .updateTable('sys_job')
      .set((eb) => {
        const ours = eb('lease_node', '=', run.node);
        return {
          last_start: run.start,
          last_end: run.end,
          last_outcome: run.outcome,
          last_error: run.error,
          last_node: run.node,
          runs: eb('runs', '+', 1),
          failures: eb('failures', '+', run.outcome === 'failed' ? 1 : 0),
          lease_until: eb.case().when(ours).then(until).else(eb.ref('lease_until')).end(),
          running_since: eb.case().when(ours).then(null).else(eb.ref('running_since')).end(),
        };
      })
      .where('name', '=', name)
      .execute();
  }

  /**
   * Pauses or resumes a job on every node: each node reads the flag when it tries to take the
   * lease. A job that never ran gets its row here.
   */
  async setPaused(name: string, paused: boolean): Promise<void> {
    const flag = paused ? 1 : 0;
    await this.db
      .insertInto('sys_job')
      .values({ name, lease_node: null, lease_until: 0, runs: 0, failures: 0, paused: flag })
      .onConflict((oc) => oc.column('name').doUpdateSet({ paused: flag }))
      .execute();
  }

  /** Gives up every lease of the node (it is closing), so another node takes its jobs at once. */
  async release(node: string): Promise<void> {
    await this.db
      .updateTable('sys_job')
      .set({ lease_node: null, lease_until: 0, running_since: null })
      .where('lease_node', '=', node)
      .execute();
  }

  /** The rows of the named jobs (those run cluster-wide that ran at least once). */
  async jobs(names: string[]): Promise<SysJobTable[]> {
    if (names.length === 0) return [];
    return this.db.selectFrom('sys_job').selectAll().where('name', 'in', names).execute();
  }

  /** Adds a run to the job's history, then keeps only its newest `keep` runs. */
  async addRun(name: string, run: JobRun, keep: number): Promise<void> {
    await this.db
      .insertInto('sys_job_run')
      .values({
        id: newId(),
        job_name: name,
        node: run.node,
        start_time: run.start,
        end_time: run.end,
        outcome: run.outcome,
        error: run.error,
      })
      .execute();
    const oldestKept = await this.db
      .selectFrom('sys_job_run')
      .select(['start_time', 'id'])
      .where('job_name', '=', name)
      .orderBy('start_time', 'desc')
      .orderBy('id', 'desc')
      .offset(keep - 1)
      .limit(1)
      .executeTakeFirst();
    if (!oldestKept) return;
    await this.db
      .deleteFrom('sys_job_run')
      .where('job_name', '=', name)
      .where((eb) =>
        eb.or([
          eb('start_time', '<', oldestKept.start_time),
          eb.and([eb('start_time', '=', oldestKept.start_time), eb('id', '<', oldestKept.id)]),
        ]),
      )
      .execute();
  }

  /** The job's kept runs, newest first. */
  history(name: string, limit: number): Promise<SysJobRunTable[]> {
    return this.db
      .selectFrom('sys_job_run')
      .selectAll()
      .where('job_name', '=', name)
      .orderBy('start_time', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }
}
