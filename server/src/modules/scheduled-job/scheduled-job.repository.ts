import type { TQuartzJobListQuery } from '@blrms/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import { containing } from '../../platform/db/like.js';
import { selectPage } from '../../platform/db/page.js';
import type { SysQuartzJobRunTable, SysQuartzJobTable } from '../../platform/db/schema.js';
import { scoped } from '../../platform/db/scoped.js';

export type QuartzJobRow = SysQuartzJobTable;
export type QuartzRunRow = SysQuartzJobRunTable;

/** What a finished run leaves on its job's row. */
export interface LastRun {
  start: number;
  end: number;
  outcome: string;
  message: string | null;
}

/**
 * Operator jobs and their run history. Every query of a request is scoped to its company; the due
 * sweep's `due` alone crosses companies, because one leader runs every company's jobs.
 */
export class ScheduledJobRepository {
  constructor(private readonly db: Db) {}

  async page(companyId: string, q: TQuartzJobListQuery) {
    let base = scoped(this.db, companyId).selectFrom('sys_quartz_job');
    if (q.name) base = base.where(sql<boolean>`name like ${containing(q.name)} escape '\\'`);
    if (q.jobType) base = base.where('job_type', '=', q.jobType);
    if (q.status) base = base.where('status', '=', q.status);
    return selectPage(base, q, (query) =>
      query.selectAll().orderBy('create_time', q.order).orderBy('id', q.order),
    );
  }

  find(companyId: string, id: string): Promise<QuartzJobRow | undefined> {
    return scoped(this.db, companyId)
      .selectFrom('sys_quartz_job')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async count(companyId: string): Promise<number> {
    const row = await scoped(this.db, companyId)
      .selectFrom('sys_quartz_job')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async insert(row: QuartzJobRow): Promise<void> {
    const { company_id: companyId, ...rest } = row;
    await scoped(this.db, companyId).insertInto('sys_quartz_job', rest).execute();
  }

  async update(
    companyId: string,
    id: string,
    values: Partial<Omit<QuartzJobRow, 'id' | 'company_id'>>,
  ): Promise<boolean> {
    const result = await scoped(this.db, companyId)
      .updateTable('sys_quartz_job')
      .set(values)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Deletes the company's jobs among `ids` with their history; returns how many there were. */
  async delete(companyId: string, ids: string[]): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const company = scoped(trx, companyId);
      await company.deleteFrom('sys_quartz_job_run').where('job_id', 'in', ids).execute();
      const result = await company
        .deleteFrom('sys_quartz_job')
        .where('id', 'in', ids)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }

  /** Of `ids`, those of the company's jobs. */
  async existing(companyId: string, ids: string[]): Promise<string[]> {
    const rows = await scoped(this.db, companyId)
      .selectFrom('sys_quartz_job')
      .select('id')
      .where('id', 'in', ids)
      .execute();
    return rows.map((r) => r.id);
  }

  // ---------------------------------------------------------------- runs

  /** Jobs of every company whose next occurrence has come, earliest first. */
  due(now: number, limit: number): Promise<QuartzJobRow[]> {
    return this.db
      .selectFrom('sys_quartz_job')
      .selectAll()
      .where('next_run_time', '<=', now)
      .where('status', '=', 'normal')
      .orderBy('next_run_time')
      .limit(limit)
      .execute();
  }

  /**
   * Takes one occurrence of a job: moves its next run from `seen` to `next` and holds the job until
   * `until`, only if nobody moved it meanwhile, it is not paused and no run holds it. One
   * statement, so two nodes (or a tick and "run now") never run the same occurrence.
   */
  async claimDue(
    companyId: string,
    id: string,
    seen: number,
    next: number | null,
    now: number,
    until: number,
  ): Promise<boolean> {
    const result = await scoped(this.db, companyId)
      .updateTable('sys_quartz_job')
      .set({ next_run_time: next, run_until: until })
      .where('id', '=', id)
      .where('next_run_time', '=', seen)
      .where('status', '=', 'normal')
      .where('run_until', '<', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Holds the job for a run now, unless a run holds it. */
  async claimNow(companyId: string, id: string, now: number, until: number): Promise<boolean> {
    const result = await scoped(this.db, companyId)
      .updateTable('sys_quartz_job')
      .set({ run_until: until })
      .where('id', '=', id)
      .where('run_until', '<', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Records a run: its history row (pruned to the job's newest `keep`), and on the job the last run
   * with the hold released.
   */
  async finishRun(run: QuartzRunRow, last: LastRun, keep: number): Promise<void> {
    const company = scoped(this.db, run.company_id);
    const { company_id: _company, ...rest } = run;
    await company.insertInto('sys_quartz_job_run', rest).execute();
    await company
      .updateTable('sys_quartz_job')
      .set({
        run_until: 0,
        last_start: last.start,
        last_end: last.end,
        last_outcome: last.outcome,
        last_message: last.message,
      })
      .where('id', '=', run.job_id)
      .execute();
    const oldestKept = await company
      .selectFrom('sys_quartz_job_run')
      .select(['start_time', 'id'])
      .where('job_id', '=', run.job_id)
      .orderBy('start_time', 'desc')
      .orderBy('id', 'desc')
      .offset(keep - 1)
      .limit(1)
      .executeTakeFirst();
    if (!oldestKept) return;
    await company
      .deleteFrom('sys_quartz_job_run')
      .where('job_id', '=', run.job_id)
      .where((eb) =>
        eb.or([
          eb('start_time', '<', oldestKept.start_time),
          eb.and([eb('start_time', '=', oldestKept.start_time), eb('id', '<', oldestKept.id)]),
        ]),
      )
      .execute();
  }

  history(companyId: string, jobId: string, limit: number): Promise<QuartzRunRow[]> {
    return scoped(this.db, companyId)
      .selectFrom('sys_quartz_job_run')
      .selectAll()
      .where('job_id', '=', jobId)
      .orderBy('start_time', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Of `ids`, the active users who are members of the company (report receivers). */
  async members(companyId: string, ids: string[]): Promise<string[]> {
    const rows = await scoped(this.db, companyId)
      .selectFrom('sys_user_company')
      .innerJoin('sys_user', 'sys_user.id', 'sys_user_company.user_id')
      .select('sys_user.id')
      .where('sys_user_company.user_id', 'in', ids)
      .where('sys_user.del_flag', '=', 0)
      .execute();
    return rows.map((r) => r.id);
  }
}
