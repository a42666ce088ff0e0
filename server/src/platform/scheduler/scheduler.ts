import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import { newId } from '../db/ids.js';
import type { SysJobTable } from '../db/schema.js';
import type { JobOutcome, JobRepository, JobRun } from './job.repository.js';

export type { JobOutcome, JobRun };

/*
 * Every periodic task of the server runs here, as a named job with an interval.
 *
 * `node` jobs run on every node: work on this process's memory (buffers, sockets, this node's
 * heartbeat). `cluster` jobs run on one node at a time: before each run the node takes the job's
 * lease in `sys_job` (one conditional statement: the lease is free, expired or already its own),
 * so with one database — SQLite for one process, PostgreSQL for many — two nodes never run the same
 * job at once. A lease lasts the interval plus twice the interval (at most 5 minutes more, at least
 * 5 s in all): the leader renews it with every run and keeps the job, and when the leader dies
 * another node takes the job over at its first tick after the lease ran out, so within a lease
 * and an interval. A run longer than its lease renews the lease every third of it while it runs,
 * and a node that closes gives its leases up. Lease times come from the injected clock: nodes'
 * clocks must agree (NTP) to well within the 5 s minimum.
 *
 * A run never overlaps the previous run of the same job on its node: a tick that finds it still
 * running is skipped. What a run did is kept bounded: the last run and counters (in `sys_job` for
 * cluster jobs, in memory for node jobs), and history rows only for failed runs and for every run
 * of jobs that run at most once a minute, pruned to the newest of each job. Recording is best
 * effort: during a database outage it fails, is logged (the app's logger collapses outage
 * errors) and the jobs go on.
 *
 * An administrator may pause a cluster job (`pause`): the flag is in its `sys_job` row, which
 * every node reads when it tries to take the lease, so the job stops on all nodes at their next
 * tick and stays paused across restarts; `runNow` still runs it once. Node jobs cannot be paused:
 * they flush this node's buffers and keep its sockets and heartbeat, which must not stop.
 */

export type JobScope = 'cluster' | 'node';

export interface JobSpec {
  /** Unique, `<module>.<task>`: `device-command.timeout-sweep`. */
  name: string;
  everyMs: number;
  /** Delay of the first run after start; the interval by default. */
  firstRunMs?: number;
  scope: JobScope;
  /** One run. The signal aborts when the scheduler closes, so long runs can stop between chunks. */
  run: (signal: AbortSignal) => Promise<void>;
  /** Logs a failed run in the job's own words; by default `scheduled job failed` with its name. */
  onFailure?: (error: unknown) => void;
}

/** A registered job as the scheduled-jobs screen lists it. */
export interface JobInfo {
  name: string;
  everyMs: number;
  firstRunMs: number;
  scope: JobScope;
  /** The last finished run: of any node for cluster jobs, of this node for node jobs. */
  lastRun: JobRun | null;
  /** When the run in progress started (for cluster jobs, on the lease holder), else null. */
  runningSince: number | null;
  /** The node holding a cluster job's lease now; null when none does, and for node jobs. */
  leader: string | null;
  /** A cluster job an administrator paused: no node runs it on its schedule. */
  paused: boolean;
  runs: number;
  failures: number;
}

/** What `runNow` did: ran the job, or left it to the node holding its lease. */
export type RunResult = JobOutcome | 'not-leader';

export interface SchedulerOptions {
  /** This node's id in leases and history; by default host, process and a random suffix. */
  node?: string;
  /** History rows kept per job. */
  historyPerJob?: number;
  /** The shortest lease (5 s); tests shorten it to see a long run renew its lease. */
  minLeaseMs?: number;
}

/** The repository's methods (tests wrap it to make the database fail). */
type JobStore = Pick<JobRepository, keyof JobRepository>;

interface JobState {
  spec: JobSpec;
  leaseMs: number;
  timer: NodeJS.Timeout | undefined;
  running: Promise<RunResult> | null;
  runningSince: number | null;
  lastRun: JobRun | null;
  runs: number;
  failures: number;
}

const MIN_LEASE_MS = 5000;
const MAX_LEASE_SLACK_MS = 5 * 60_000;
/** Every run of a job that runs at most this often is kept in its history, not only failures. */
const HISTORY_EVERY_RUN_MS = 60_000;
const DEFAULT_HISTORY_PER_JOB = 50;
const ERROR_MAX_CHARS = 2000;

function leaseOf(everyMs: number, minLeaseMs: number): number {
  return Math.max(minLeaseMs, everyMs + Math.min(2 * everyMs, MAX_LEASE_SLACK_MS));
}

/** The last finished run a job's row records, if it ran. */
function lastRunOf(row: SysJobTable): JobRun | null {
  const { last_start: start, last_end: end, last_node: node } = row;
  if (start === null || end === null || node === null) return null;
  return { start, end, node, outcome: row.last_outcome as JobOutcome, error: row.last_error };
}

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.slice(0, ERROR_MAX_CHARS);
}

export class Scheduler {
  /** This node's id in leases and run history. */
  readonly node: string;
  private readonly states = new Map<string, JobState>();
  private readonly historyPerJob: number;
  private readonly minLeaseMs: number;
  private readonly closing = new AbortController();
  private started = false;

  constructor(
    private readonly deps: { repository: JobStore; clock: Clock; log: FastifyBaseLogger },
    options: SchedulerOptions = {},
  ) {
    this.node = options.node ?? `${os.hostname()}:${process.pid}:${newId().slice(0, 6)}`;
    this.historyPerJob = options.historyPerJob ?? DEFAULT_HISTORY_PER_JOB;
    this.minLeaseMs = options.minLeaseMs ?? MIN_LEASE_MS;
  }

  /** Adds jobs; after `start()` they are scheduled at once. */
  register(...specs: JobSpec[]): void {
    for (const spec of specs) {
      if (this.states.has(spec.name)) throw new Error(`job ${spec.name} registered twice`);
      const state: JobState = {
        spec,
        leaseMs: leaseOf(spec.everyMs, this.minLeaseMs),
        timer: undefined,
        running: null,
        runningSince: null,
        lastRun: null,
        runs: 0,
        failures: 0,
      };
      this.states.set(spec.name, state);
      if (this.started) this.schedule(state);
    }
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    for (const state of this.states.values()) this.schedule(state);
  }

  /** Stops the timers, tells running jobs to stop, waits for them, then gives up the leases. */
  async close(): Promise<void> {
    this.started = false;
    this.closing.abort();
    for (const state of this.states.values()) clearTimeout(state.timer);
    await Promise.all([...this.states.values()].map((state) => state.running));
    await this.deps.repository
      .release(this.node)
      .catch((err: unknown) => this.deps.log.warn({ err }, 'scheduled job leases not released'));
  }

  /**
   * Runs the job now, after its run in progress ends (a cluster job only when this node gets its
   * lease). For tests, and for the console's "run now".
   */
  async runNow(name: string): Promise<RunResult> {
    const state = this.stateOf(name);
    if (this.closing.signal.aborted) throw new Error('the scheduler is closed');
    while (state.running) await state.running;
    return this.attempt(state, true);
  }

  /** Whether the job is registered here. */
  has(name: string): boolean {
    return this.states.has(name);
  }

  /** Pauses (or resumes) a cluster job on every node; a node job throws. */
  async setPaused(name: string, paused: boolean): Promise<void> {
    const state = this.stateOf(name);
    if (state.spec.scope !== 'cluster') throw new Error(`job ${name} runs on every node`);
    await this.deps.repository.setPaused(name, paused);
  }

  /** Every registered job with its schedule and last run, by name. */
  async jobs(): Promise<JobInfo[]> {
    const clusterNames = [...this.states.values()]
      .filter((s) => s.spec.scope === 'cluster')
      .map((s) => s.spec.name);
    const rows = new Map((await this.deps.repository.jobs(clusterNames)).map((r) => [r.name, r]));
    const now = this.deps.clock();
    return [...this.states.values()]
      .map(({ spec, runningSince, lastRun, runs, failures }): JobInfo => {
        const schedule = {
          name: spec.name,
          everyMs: spec.everyMs,
          firstRunMs: spec.firstRunMs ?? spec.everyMs,
          scope: spec.scope,
        };
        if (spec.scope === 'node') {
          return {
            ...schedule,
            lastRun,
            runningSince,
            leader: null,
            paused: false,
            runs,
            failures,
          };
        }
        const row = rows.get(spec.name);
        const leased = row !== undefined && row.lease_node !== null && row.lease_until >= now;
        return {
          ...schedule,
          lastRun: row ? lastRunOf(row) : null,
          runningSince: leased ? row.running_since : null,
          leader: leased ? row.lease_node : null,
          paused: row?.paused === 1,
          runs: row?.runs ?? 0,
          failures: row?.failures ?? 0,
        };
      })
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The job's kept runs (failures; every run of jobs run at most once a minute), newest first. */
  async history(name: string, limit = this.historyPerJob): Promise<JobRun[]> {
    const rows = await this.deps.repository.history(name, limit);
    return rows.map((r) => ({
      start: r.start_time,
      end: r.end_time,
      outcome: r.outcome as JobOutcome,
      error: r.error,
      node: r.node,
    }));
  }

  // ---------------------------------------------------------------- internals

  private stateOf(name: string): JobState {
    const state = this.states.get(name);
    if (!state) throw new Error(`no job ${name}`);
    return state;
  }

  private schedule(state: JobState): void {
    const tick = () => {
      if (!state.running) void this.attempt(state);
    };
    state.timer = setTimeout(() => {
      tick();
      state.timer = setInterval(tick, state.spec.everyMs);
      state.timer.unref();
    }, state.spec.firstRunMs ?? state.spec.everyMs);
    state.timer.unref();
  }

  /** One run of the job, with its bookkeeping; never rejects. */
  private attempt(state: JobState, evenIfPaused = false): Promise<RunResult> {
    const attempt = (
      state.spec.scope === 'cluster' ? this.runAsLeader(state, evenIfPaused) : this.runHere(state)
    ).finally(() => {
      state.running = null;
    });
    state.running = attempt;
    return attempt;
  }

  private async runAsLeader(state: JobState, evenIfPaused: boolean): Promise<RunResult> {
    const { repository, clock, log } = this.deps;
    const { name } = state.spec;
    const now = clock();
    const leader = await repository
      .claim(name, this.node, now, now + state.leaseMs, evenIfPaused)
      .catch((err: unknown) => {
        log.warn({ err, job: name }, 'scheduled job lease not taken');
        return false;
      });
    if (!leader) return 'not-leader';
    const renewal = setInterval(() => {
      repository
        .renew(name, this.node, clock() + state.leaseMs)
        .catch((err: unknown) => log.warn({ err, job: name }, 'scheduled job lease not renewed'));
    }, state.leaseMs / 3);
    renewal.unref();
    try {
      const run = await this.execute(state.spec);
      await this.record(state, run);
      return run.outcome;
    } finally {
      clearInterval(renewal);
    }
  }

  /** A node job: its last run and counters are this node's, kept in memory. */
  private async runHere(state: JobState): Promise<RunResult> {
    state.runningSince = this.deps.clock();
    const run = await this.execute(state.spec);
    state.runningSince = null;
    state.lastRun = run;
    state.runs += 1;
    if (run.outcome === 'failed') state.failures += 1;
    await this.record(state, run);
    return run.outcome;
  }

  /** Runs the job on this node; a failure is logged and becomes the run's outcome. */
  private async execute(spec: JobSpec): Promise<JobRun> {
    const start = this.deps.clock();
    try {
      await spec.run(this.closing.signal);
      return { node: this.node, start, end: this.deps.clock(), outcome: 'ok', error: null };
    } catch (error) {
      this.logFailure(spec, error);
      const end = this.deps.clock();
      return { node: this.node, start, end, outcome: 'failed', error: messageOf(error) };
    }
  }

  private logFailure(spec: JobSpec, error: unknown): void {
    if (spec.onFailure) spec.onFailure(error);
    else this.deps.log.warn({ err: error, job: spec.name }, 'scheduled job failed');
  }

  /** Records the run: a cluster job's row, and the history when the run is worth keeping. */
  private async record(state: JobState, run: JobRun): Promise<void> {
    const { repository, log } = this.deps;
    const { name, everyMs, scope } = state.spec;
    try {
      if (scope === 'cluster') await repository.finish(name, run, run.end + state.leaseMs);
      if (run.outcome === 'failed' || everyMs >= HISTORY_EVERY_RUN_MS) {
        await repository.addRun(name, run, this.historyPerJob);
      }
    } catch (err) {
      log.warn({ err, job: name }, 'scheduled job run not recorded');
    }
  }
}
