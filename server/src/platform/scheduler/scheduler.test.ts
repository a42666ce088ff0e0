import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshDatabase } from '../../test/database.js';
import type { Clock } from '../clock.js';
import type { DatabaseHandle } from '../db/database.js';
import { migrateToLatest } from '../db/migrator.js';
import { fromDatabase } from '../db/unavailable.js';
import { JobRepository } from './job.repository.js';
import { Scheduler, type JobSpec, type SchedulerOptions } from './scheduler.js';

/*
 * The scheduler on a real database: SQLite always, PostgreSQL too when DATABASE_URL is set. Every
 * test names its own jobs, so they share one database.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class ManualClock {
  now = 1_700_000_000_000;
  readonly read: Clock = () => this.now;
}

/** The job tables' repository, failing as an unreachable database does while `state.down`. */
function failingWhenDown(repository: JobRepository) {
  const state = { down: false };
  const refused = () =>
    fromDatabase(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
  const store = new Proxy(repository, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]): unknown =>
        state.down ? Promise.reject(refused()) : Reflect.apply(value, target, args);
    },
  });
  return { store, state };
}

describe('Scheduler', () => {
  let handle: DatabaseHandle;
  let drop: () => Promise<void>;
  let repository: JobRepository;
  const open: Scheduler[] = [];
  const lines: Record<string, unknown>[] = [];
  const log = pino(
    { base: null, timestamp: false },
    { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
  );

  const scheduler = (clock: Clock, options: SchedulerOptions = {}, store = repository) => {
    const made = new Scheduler({ repository: store, clock, log }, options);
    open.push(made);
    return made;
  };

  beforeAll(async () => {
    ({ handle, drop } = await freshDatabase());
    await migrateToLatest(handle.db);
    repository = new JobRepository(handle.db);
  });

  afterAll(async () => {
    await Promise.all(open.map((s) => s.close()));
    await handle.db.destroy();
    await drop();
  });

  it('runs a node job on its interval, never two of its runs at once', async () => {
    const node = scheduler(Date.now);
    let active = 0;
    let most = 0;
    let runs = 0;
    node.register({
      name: 'test.interval',
      everyMs: 10,
      firstRunMs: 0,
      scope: 'node',
      run: async () => {
        active += 1;
        most = Math.max(most, active);
        // Longer than the interval: the ticks in between are skipped.
        await sleep(35);
        active -= 1;
        runs += 1;
      },
    });
    node.start();
    await vi.waitFor(() => expect(runs).toBeGreaterThanOrEqual(3), { timeout: 5000 });
    await node.close();
    expect(most).toBe(1);
    expect(active).toBe(0);
  });

  it('lists every job with its schedule and last run; runNow runs one at once', async () => {
    const clock = new ManualClock();
    const node = scheduler(clock.read);
    const run = async () => {
      clock.now += 7;
    };
    node.register(
      { name: 'test.list.node', everyMs: 60_000, scope: 'node', run },
      { name: 'test.list.cluster', everyMs: 1000, firstRunMs: 10, scope: 'cluster', run },
    );
    expect(await node.jobs()).toEqual([
      {
        name: 'test.list.cluster',
        everyMs: 1000,
        firstRunMs: 10,
        scope: 'cluster',
        lastRun: null,
        runningSince: null,
        leader: null,
        paused: false,
        runs: 0,
        failures: 0,
      },
      {
        name: 'test.list.node',
        everyMs: 60_000,
        firstRunMs: 60_000,
        scope: 'node',
        lastRun: null,
        runningSince: null,
        leader: null,
        paused: false,
        runs: 0,
        failures: 0,
      },
    ]);

    const start = clock.now;
    expect(await node.runNow('test.list.cluster')).toBe('ok');
    expect(await node.runNow('test.list.node')).toBe('ok');
    const [cluster, own] = await node.jobs();
    expect(cluster).toMatchObject({
      leader: node.node,
      runningSince: null,
      runs: 1,
      failures: 0,
      lastRun: { start, end: start + 7, outcome: 'ok', error: null, node: node.node },
    });
    expect(own).toMatchObject({
      leader: null,
      runs: 1,
      lastRun: { start: start + 7, end: start + 14, outcome: 'ok', node: node.node },
    });
  });

  it('records a failed run with its error and logs it in the job’s words or its own', async () => {
    const clock = new ManualClock();
    const node = scheduler(clock.read);
    let fail = true;
    const heard: unknown[] = [];
    const run = async () => {
      if (fail) throw new Error('boom');
    };
    node.register(
      { name: 'test.fail.plain', everyMs: 1000, scope: 'node', run },
      {
        name: 'test.fail.own-words',
        everyMs: 1000,
        scope: 'cluster',
        run,
        onFailure: (error) => heard.push(error),
      },
    );
    lines.length = 0;
    expect(await node.runNow('test.fail.plain')).toBe('failed');
    expect(await node.runNow('test.fail.own-words')).toBe('failed');
    expect(lines).toEqual([
      expect.objectContaining({ level: 40, job: 'test.fail.plain', msg: 'scheduled job failed' }),
    ]);
    expect(heard).toEqual([new Error('boom')]);

    const failed = { outcome: 'failed', error: 'boom', node: node.node, start: clock.now };
    const jobs = await node.jobs();
    expect(jobs.map((j) => [j.name, j.runs, j.failures, j.lastRun])).toEqual([
      ['test.fail.own-words', 1, 1, expect.objectContaining(failed)],
      ['test.fail.plain', 1, 1, expect.objectContaining(failed)],
    ]);
    expect(await node.history('test.fail.plain')).toEqual([{ ...failed, end: clock.now }]);
    expect(await node.history('test.fail.own-words')).toEqual([{ ...failed, end: clock.now }]);

    // The next runs go on; a job run every second keeps no row of a run that went well.
    fail = false;
    clock.now += 1000;
    expect(await node.runNow('test.fail.plain')).toBe('ok');
    expect(await node.runNow('test.fail.own-words')).toBe('ok');
    expect(await node.history('test.fail.plain')).toHaveLength(1);
    expect(await node.history('test.fail.own-words')).toHaveLength(1);
    expect((await node.jobs()).map((j) => [j.runs, j.failures, j.lastRun?.outcome])).toEqual([
      [2, 1, 'ok'],
      [2, 1, 'ok'],
    ]);
  });

  it('keeps every run of a job run at most once a minute, only the newest of each job', async () => {
    const clock = new ManualClock();
    const node = scheduler(clock.read, { historyPerJob: 3 });
    node.register({
      name: 'test.hourly',
      everyMs: 3_600_000,
      scope: 'cluster',
      run: async () => {},
    });
    const starts: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      clock.now += 3_600_000;
      starts.push(clock.now);
      expect(await node.runNow('test.hourly')).toBe('ok');
    }
    const kept = await node.history('test.hourly');
    expect(kept.map((r) => [r.start, r.outcome])).toEqual([
      [starts[4], 'ok'],
      [starts[3], 'ok'],
      [starts[2], 'ok'],
    ]);
    expect((await node.jobs())[0]).toMatchObject({ runs: 5, failures: 0 });
  });

  it('never runs a cluster job on two nodes at once, though both tick it', async () => {
    const a = scheduler(Date.now, { node: 'node-a' });
    const b = scheduler(Date.now, { node: 'node-b' });
    let active = 0;
    let most = 0;
    const ranOn: string[] = [];
    const spec = (node: string): JobSpec => ({
      name: 'test.exclusive',
      everyMs: 10,
      firstRunMs: 0,
      scope: 'cluster',
      run: async () => {
        active += 1;
        most = Math.max(most, active);
        ranOn.push(node);
        await sleep(15);
        active -= 1;
      },
    });
    a.register(spec('node-a'));
    b.register(spec('node-b'));
    a.start();
    b.start();
    // And asked at the same moment on both, over and over.
    const asked = await Promise.all(
      Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).runNow('test.exclusive')),
    );
    await vi.waitFor(() => expect(ranOn.length).toBeGreaterThanOrEqual(10), { timeout: 5000 });
    // Before closing: the first node to close gives the lease up to the other.
    const leaders = new Set(ranOn);
    await Promise.all([a.close(), b.close()]);
    expect(most).toBe(1);
    // The lease stays with the node that took it first: the other one never ran the job.
    expect(leaders.size).toBe(1);
    expect(asked.filter((r) => r === 'not-leader')).toHaveLength(3);
  });

  it('hands a cluster job to another node when its leader stops renewing, or closes', async () => {
    const clock = new ManualClock();
    const a = scheduler(clock.read, { node: 'takeover-a' });
    const b = scheduler(clock.read, { node: 'takeover-b' });
    const spec: JobSpec = {
      name: 'test.takeover',
      everyMs: 1000,
      scope: 'cluster',
      run: async () => {},
    };
    a.register(spec);
    b.register(spec);
    expect(await a.runNow('test.takeover')).toBe('ok');
    expect(await b.runNow('test.takeover')).toBe('not-leader');
    expect((await b.jobs())[0]?.leader).toBe('takeover-a');

    // Node A is gone: its lease (the minimum, 5 s, for a job run every second) runs out.
    clock.now += 4999;
    expect(await b.runNow('test.takeover')).toBe('not-leader');
    clock.now += 2;
    expect(await b.runNow('test.takeover')).toBe('ok');
    expect(await a.runNow('test.takeover')).toBe('not-leader');
    expect((await a.jobs())[0]).toMatchObject({
      leader: 'takeover-b',
      runs: 2,
      lastRun: { node: 'takeover-b' },
    });

    // Node B shuts down: it gives the lease up, and node A takes the job at once.
    await b.close();
    expect((await a.jobs())[0]?.leader).toBeNull();
    expect(await a.runNow('test.takeover')).toBe('ok');
  });

  it('renews the lease while a run outlasts it, so no other node starts the job meanwhile', async () => {
    const a = scheduler(Date.now, { node: 'long-a', minLeaseMs: 300 });
    const b = scheduler(Date.now, { node: 'long-b', minLeaseMs: 300 });
    let release = () => {};
    const spec: JobSpec = {
      name: 'test.long-run',
      everyMs: 10,
      scope: 'cluster',
      run: () => new Promise<void>((resolve) => (release = resolve)),
    };
    a.register(spec);
    b.register({ ...spec, run: async () => {} });
    const longRun = a.runNow('test.long-run');
    await vi.waitFor(async () => expect((await b.jobs())[0]?.runningSince).not.toBeNull());
    // Four leases long.
    for (let waited = 0; waited < 1200; waited += 50) {
      expect(await b.runNow('test.long-run')).toBe('not-leader');
      await sleep(50);
    }
    release();
    expect(await longRun).toBe('ok');
  });

  it('pauses a cluster job on every node and across restarts; run now still runs it', async () => {
    const a = scheduler(Date.now, { node: 'pause-a' });
    const b = scheduler(Date.now, { node: 'pause-b' });
    let runs = 0;
    const spec: JobSpec = {
      name: 'test.pausable',
      everyMs: 10,
      firstRunMs: 0,
      scope: 'cluster',
      run: async () => {
        runs += 1;
      },
    };
    a.register(spec);
    b.register(spec);
    await a.setPaused('test.pausable', true);
    a.start();
    b.start();
    await sleep(150);
    expect(runs).toBe(0);
    expect((await b.jobs())[0]).toMatchObject({ paused: true, runs: 0 });
    // "Run now" is an explicit order: it runs once, paused or not, on the node asked.
    expect(await b.runNow('test.pausable')).toBe('ok');
    expect(runs).toBe(1);
    await sleep(100);
    expect(runs).toBe(1);

    // A node started later reads the flag too.
    const c = scheduler(Date.now, { node: 'pause-c' });
    c.register(spec);
    c.start();
    await sleep(100);
    expect(runs).toBe(1);

    await b.setPaused('test.pausable', false);
    await vi.waitFor(() => expect(runs).toBeGreaterThanOrEqual(3), { timeout: 5000 });
    expect((await a.jobs())[0]?.paused).toBe(false);
    await Promise.all([a.close(), b.close(), c.close()]);

    const node = scheduler(Date.now);
    node.register({ name: 'test.pause.node', everyMs: 10, scope: 'node', run: async () => {} });
    await expect(node.setPaused('test.pause.node', true)).rejects.toThrow('every node');
  });

  it('goes on when the database fails: the run still happens, the failure to record it is logged', async () => {
    const clock = new ManualClock();
    const { store, state } = failingWhenDown(repository);
    const node = scheduler(clock.read, {}, store);
    let runs = 0;
    node.register(
      {
        name: 'test.outage.node',
        everyMs: 10,
        firstRunMs: 0,
        scope: 'node',
        run: async () => {
          runs += 1;
          throw new Error('flush failed');
        },
        onFailure: () => {},
      },
      { name: 'test.outage.cluster', everyMs: 1000, scope: 'cluster', run: async () => {} },
    );
    state.down = true;
    lines.length = 0;
    node.start();
    await vi.waitFor(() => expect(runs).toBeGreaterThanOrEqual(3));
    expect(await node.runNow('test.outage.cluster')).toBe('not-leader');
    expect(lines).toContainEqual(
      expect.objectContaining({ job: 'test.outage.node', msg: 'scheduled job run not recorded' }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({ job: 'test.outage.cluster', msg: 'scheduled job lease not taken' }),
    );

    // Back: runs are recorded again.
    state.down = false;
    await vi.waitFor(async () =>
      expect((await node.history('test.outage.node')).length).toBeGreaterThan(0),
    );
    expect(await node.runNow('test.outage.cluster')).toBe('ok');
    await node.close();
  });

  it('close tells the running job to stop and waits for it', async () => {
    const node = scheduler(Date.now);
    let stopped = false;
    let started = false;
    node.register({
      name: 'test.close',
      everyMs: 10,
      firstRunMs: 0,
      scope: 'node',
      run: async (signal) => {
        started = true;
        await new Promise((resolve) => signal.addEventListener('abort', resolve));
        await sleep(20);
        stopped = true;
      },
    });
    node.start();
    await vi.waitFor(() => expect(started).toBe(true));
    await node.close();
    expect(stopped).toBe(true);
    await expect(node.runNow('test.close')).rejects.toThrow('closed');
  });

  it('refuses a name registered twice, and runs only registered jobs', () => {
    const node = scheduler(Date.now);
    const spec: JobSpec = { name: 'test.twice', everyMs: 10, scope: 'node', run: async () => {} };
    node.register(spec);
    expect(() => node.register(spec)).toThrow('test.twice');
    return expect(node.runNow('test.unknown')).rejects.toThrow('test.unknown');
  });
});
