/**
 * Garbage collection on the PostgreSQL statement path: the server's own handle
 * (`createDatabase`, statements asked of pg with a callback) beside Kysely over a plain pg pool
 * (statements through pg's own promise), in one run on the same database.
 *
 * Each handle runs the same 14-row select one statement at a time (the event loop turned between
 * two, as a server's would be), in a process of its own (the two paths share pg's code, and V8's
 * feedback on it from one handle changed the other's figures), alternating A B A B so that neither
 * gets the warmer machine. For
 * each it reports the statement's p50 and p99, the young-generation collections (scavenges) during
 * the run with their mean and longest pause, and how much the old generation grew (objects that
 * outlived two scavenges are copied there and only a full collection frees them).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/pg-statement-gc.ts
 *   BENCH_ITERATIONS=20000 BENCH_ROUNDS=5 …      # statements per handle and round; rounds
 */
import { spawnSync } from 'node:child_process';
import { constants, PerformanceObserver, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { Kysely, PostgresDialect, sql, type RawBuilder } from 'kysely';
import pg from 'pg';
import { createDatabase } from '../server/src/platform/db/database.js';

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 6000);
const WARM_UP = 300;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

interface Pause {
  start: number;
  duration: number;
}
const scavenges: Pause[] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
    if (kind === constants.NODE_PERFORMANCE_GC_MINOR) {
      scavenges.push({ start: entry.startTime, duration: entry.duration });
    }
  }
}).observe({ entryTypes: ['gc'] });

const oldSpaceUsed = () =>
  v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')?.space_used_size ?? 0;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

/** Fourteen rows of five text columns: the size of a user's held roles (see permission.repository). */
const statement: RawBuilder<unknown> = sql`
  select g::text as id, md5(g::text) as company_id, 'role' || g as role_code,
         0 as is_platform, 'r' as kind
  from generate_series(1, 14) g`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- two handles of unrelated schemas
async function run(db: Kysely<any>) {
  for (let i = 0; i < WARM_UP; i += 1) await statement.execute(db);
  const before = scavenges.length;
  const oldBefore = oldSpaceUsed();
  const samples: number[] = [];
  for (let i = 0; i < ITERATIONS; i += 1) {
    await nextTurn();
    const start = performance.now();
    await statement.execute(db);
    samples.push(performance.now() - start);
  }
  const oldGrowth = oldSpaceUsed() - oldBefore;
  const mine = scavenges.slice(before);
  samples.sort((a, b) => a - b);
  return {
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    scavenges: mine.length,
    meanPause: mine.reduce((sum, p) => sum + p.duration, 0) / Math.max(1, mine.length),
    maxPause: Math.max(0, ...mine.map((p) => p.duration)),
    oldGrowthMb: oldGrowth / 1024 / 1024,
  };
}

const HANDLES = {
  server: "server handle (pg's callback)",
  plain: "plain Kysely (pg's promise)",
} as const;
type Handle = keyof typeof HANDLES;

/** One handle's round, in this process: the two paths share pg's code and V8's feedback on it. */
async function measureHandle(handle: Handle, round: number) {
  const db =
    handle === 'server'
      ? createDatabase({ dialect: 'postgres', url }).db
      : // eslint-disable-next-line @typescript-eslint/no-explicit-any -- no schema: one raw statement
        new Kysely<any>({
          dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 10 }) }),
        });
  try {
    // The first pass settles the process (module loading, JIT, the heap's first growth): a server
    // has long been past that when it serves; the second pass is the one reported.
    await run(db);
    const r = await run(db);
    console.log(
      `| ${round} | ${HANDLES[handle]} | ${r.p50.toFixed(2)} ms | ${r.p99.toFixed(2)} ms | ${r.scavenges} | ${r.meanPause.toFixed(2)} ms | ${r.maxPause.toFixed(1)} ms | ${r.oldGrowthMb.toFixed(1)} MB |`,
    );
  } finally {
    await db.destroy();
  }
}

const child = process.env.BENCH_HANDLE as Handle | undefined;
if (child) {
  await measureHandle(child, Number(process.env.BENCH_ROUND));
} else {
  console.log(
    `${ITERATIONS} statements per handle and round, one at a time, each in a process of its own`,
  );
  console.log(
    '| round | handle | p50 | p99 | scavenges | mean pause | longest pause | old generation grew |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|---:|');
  for (let round = 1; round <= ROUNDS; round += 1) {
    for (const handle of Object.keys(HANDLES) as Handle[]) {
      const result = spawnSync(
        process.execPath,
        [...process.execArgv, fileURLToPath(import.meta.url)],
        {
          env: { ...process.env, BENCH_HANDLE: handle, BENCH_ROUND: String(round) },
          stdio: 'inherit',
        },
      );
      if (result.status !== 0) throw new Error(`${handle}: exited ${result.status}`);
    }
  }
}
