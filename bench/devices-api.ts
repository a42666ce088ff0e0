/**
 * Device registry at scale, against the built server (`npm run bench:devices-api` builds first):
 *
 * 1. Seeds devices straight into the server's database (100,000 in SQLite; 1,000,000 in
 *    PostgreSQL when DATABASE_URL is set): one tenant, 10 token keys, 50 groups, 3 series,
 *    8 firmware versions; 70 % online (seen in the last 24 h), 10 % offline but seen in the last
 *    24 h, 20 % offline for two days. SQLite seeds with
 *    multi-row inserts in one transaction, its `device_stats` triggers running for every row.
 *    PostgreSQL bulk-loads: one `insert … select … from generate_series` with the list indexes
 *    dropped and the trigger off, then `device_stats` from one GROUP BY (what the trigger would
 *    have written) and the indexes rebuilt from their catalogue definitions.
 * 2. Device list, page of 20, one request at a time (latency as one user sees it): the default
 *    sort, filter + sort, a group filter, and a text (SN substring) filter. Target p99 <= 25 ms.
 * 3. Dashboard summary, one request at a time. Target p99 <= 100 ms.
 * 4. Import of 10,000 devices from an XLSX file (dryRun=false). Target <= 10 s.
 *
 *   npm run bench:devices-api                                        # SQLite only
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/blrms_bench_devices npm run bench:devices-api
 *
 * The PostgreSQL database is emptied of devices first, so the command can be rerun as it is.
 * BENCH_REQUESTS (default 300; a sixth of it for the SN substring) sets the requests per scenario,
 * BENCH_PG_DEVICES and BENCH_SQLITE_DEVICES the seeded counts, BENCH_ONLY=sqlite|postgres runs one.
 */
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { sql } from 'kysely';
import { createDatabase, type Db, type Dialect } from '../server/src/platform/db/database.js';
import { xlsxBuffer } from '../server/src/platform/sheet/sheet-writer.js';
import { startServer, type RunningServer } from '../web/e2e/support/server.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const PG_DEVICES = Number(process.env.BENCH_PG_DEVICES ?? 1_000_000);
const SQLITE_DEVICES = Number(process.env.BENCH_SQLITE_DEVICES ?? 100_000);
const IMPORT_ROWS = 10_000;
const TOKENS = 10;
const GROUPS = 50;
const LIST_P99_MS = 25;
const SUMMARY_P99_MS = 100;
const IMPORT_MS = 10_000;

interface Api {
  url: string;
  token: string;
}

async function call<T>(api: Api, method: string, url: string, body?: object): Promise<T> {
  const res = await fetch(`${api.url}/api${url}`, {
    method,
    headers: {
      'x-access-token': api.token,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const json = (await res.json()) as { success: boolean; result: T; message: string };
  if (!json.success) throw new Error(`${method} ${url}: ${res.status} ${json.message}`);
  return json.result;
}

async function login(server: RunningServer): Promise<Api> {
  const res = await fetch(`${server.url}/api/sys/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: server.adminPassword }),
  });
  const body = (await res.json()) as { result: { token: string } };
  return { url: server.url, token: body.result.token };
}

interface Fixture {
  companyId: string;
  ownerId: string;
  tokenIds: string[];
  groupIds: string[];
}

async function prepare(api: Api, db: Db, dialect: Dialect): Promise<Fixture> {
  const owner = await db
    .selectFrom('sys_user')
    .select(['id', 'company_id'])
    .where('username', '=', 'admin')
    .executeTakeFirstOrThrow();
  // Rerunnable: a previous run's devices, tokens and groups go first (SQLite starts empty).
  if (dialect === 'postgres') await sql`truncate device_log, device, device_stats`.execute(db);
  await db.deleteFrom('device_token').execute();
  await db.deleteFrom('device_group').execute();
  const tokenIds: string[] = [];
  for (let i = 0; i < TOKENS; i++) {
    tokenIds.push(
      (await call<{ id: string }>(api, 'POST', '/device/token/add', { name: `t${i}` })).id,
    );
  }
  const groupIds: string[] = [];
  for (let i = 0; i < GROUPS; i++) {
    groupIds.push(
      (await call<{ id: string }>(api, 'POST', '/device/group/add', { name: `group ${i}` })).id,
    );
  }
  return { companyId: owner.company_id, ownerId: owner.id, tokenIds, groupIds };
}

const SERIES = ['R40', 'BL10X', 'S27X'];

async function seedPostgres(db: Db, f: Fixture, count: number, now: number) {
  // A bulk load: the per-row device_stats trigger is off while the rows go in, and the counts it
  // would have written are added in one GROUP BY afterwards (the same rows, in one statement).
  await db.transaction().execute(async (trx) => {
    // Building the list indexes once after the load is several times faster than updating them
    // row by row; their definitions are read back from the catalogue, so they stay the migration's.
    const indexes = await sql<{ indexname: string; indexdef: string }>`
      select indexname, indexdef from pg_indexes
      where tablename = 'device' and indexname like 'idx_device_%'`.execute(trx);
    for (const index of indexes.rows) {
      await sql`drop index ${sql.ref(index.indexname)}`.execute(trx);
    }
    await sql`alter table device disable trigger device_stats_apply`.execute(trx);
    await sql`
      insert into device (id, company_id, token_id, sn, name, series, model, version, group_id,
        owner_id, sys_org_code, enabled, remark, location, status, ip, last_seen_at,
        last_connect_at, last_disconnect_at, disconnect_reason, create_by, create_time,
        update_time)
      select md5('bench-device-' || g), ${f.companyId}, (${f.tokenIds}::text[])[1 + g % ${TOKENS}],
        'SN' || lpad(g::text, 8, '0'), 'device ' || g, (${SERIES}::text[])[1 + g % 3],
        'M' || (g % 5), '1.' || (g % 8) || '.0',
        case when g % 10 = 0 then null else (${f.groupIds}::text[])[1 + g % ${GROUPS}] end,
        ${f.ownerId}, 'A01A01', 1, null, null,
        case when g % 10 < 7 then 'online' else 'offline' end, '10.0.0.1',
        case when g % 10 < 8 then ${now}::bigint - (g % 86400) * 1000
          else ${now}::bigint - 172800000 end,
        null, null, null, 'bench', ${now}::bigint - (${count} - g) * 1000::bigint, null
      from generate_series(1, ${count}) g`.execute(trx);
    await sql`
      insert into device_stats (company_id, token_id, owner_id, sys_org_code, group_id, series,
        status, version, n)
      select company_id, token_id, owner_id, coalesce(sys_org_code, ''), coalesce(group_id, ''),
        series, status, coalesce(version, ''), count(*)
      from device
      group by company_id, token_id, owner_id, coalesce(sys_org_code, ''),
        coalesce(group_id, ''), series, status, coalesce(version, '')`.execute(trx);
    await sql`alter table device enable trigger device_stats_apply`.execute(trx);
    for (const index of indexes.rows) await sql.raw(index.indexdef).execute(trx);
  });
  await sql`vacuum analyze device`.execute(db);
  await sql`vacuum analyze device_stats`.execute(db);
}

function seedSqlite(file: string, f: Fixture, count: number, now: number) {
  // The server keeps the file open (WAL): a second connection writes beside it.
  const { db } = createDatabase({ dialect: 'sqlite', file });
  return (async () => {
    await db.transaction().execute(async (trx) => {
      const BATCH = 500;
      for (let start = 1; start <= count; start += BATCH) {
        const rows = [];
        for (let g = start; g < Math.min(start + BATCH, count + 1); g++) {
          rows.push({
            id: `${g.toString(16).padStart(12, '0')}${'b'.repeat(20)}`,
            company_id: f.companyId,
            token_id: f.tokenIds[g % TOKENS] ?? '',
            sn: `SN${String(g).padStart(8, '0')}`,
            name: `device ${g}`,
            series: SERIES[g % 3] ?? 'R40',
            model: `M${g % 5}`,
            version: `1.${g % 8}.0`,
            group_id: g % 10 === 0 ? null : (f.groupIds[g % GROUPS] ?? null),
            owner_id: f.ownerId,
            sys_org_code: 'A01A01',
            enabled: 1,
            remark: null,
            location: null,
            status: g % 10 < 7 ? 'online' : 'offline',
            ip: '10.0.0.1',
            last_seen_at: g % 10 < 8 ? now - (g % 86400) * 1000 : now - 172_800_000,
            last_connect_at: null,
            last_disconnect_at: null,
            disconnect_reason: null,
            create_by: 'bench',
            create_time: now - (count - g) * 1000,
            update_time: null,
          });
        }
        await trx.insertInto('device').values(rows).execute();
      }
    });
    await sql`analyze`.execute(db);
    await db.destroy();
  })();
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

async function latencies(
  api: Api,
  urls: () => string,
  requests: number,
): Promise<{ p50: number; p99: number; max: number }> {
  for (let i = 0; i < 20; i++) await call(api, 'GET', urls());
  const times: number[] = [];
  for (let i = 0; i < requests; i++) {
    const url = urls();
    const start = performance.now();
    await call(api, 'GET', url);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), max: times.at(-1) ?? NaN };
}

async function importXlsx(api: Api, tokenId: string): Promise<{ ms: number; imported: number }> {
  const rows = [['sn', 'name', 'series', 'model', 'version', 'group']];
  for (let i = 0; i < IMPORT_ROWS; i++) {
    rows.push([
      `IMP${String(i).padStart(6, '0')}`,
      `imported ${i}`,
      SERIES[i % 3] ?? 'R40',
      'M1',
      '2.0.0',
      `group ${i % GROUPS}`,
    ]);
  }
  const content = await xlsxBuffer(rows);
  const form = new FormData();
  form.set('tokenId', tokenId);
  form.set('dryRun', 'false');
  form.set('file', new Blob([new Uint8Array(content)]), 'devices.xlsx');
  const start = performance.now();
  const res = await fetch(`${api.url}/api/device/device/importExcel`, {
    method: 'POST',
    headers: { 'x-access-token': api.token },
    body: form,
  });
  const ms = performance.now() - start;
  const body = (await res.json()) as { result: { imported: number }; message: string };
  if (!res.ok) throw new Error(`import: ${res.status} ${body.message}`);
  return { ms, imported: body.result.imported };
}

const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)] as T;
const page = () => 1 + Math.floor(Math.random() * 10);

async function measure(label: string, env: Record<string, string>, count: number) {
  const server = await startServer(env);
  const target = env.DATABASE_URL
    ? createDatabase({ dialect: 'postgres', url: env.DATABASE_URL })
    : createDatabase({ dialect: 'sqlite', file: path.join(server.dataDir, 'blrms.db') });
  try {
    const api = await login(server);
    const fixture = await prepare(api, target.db, target.dialect);
    const now = Date.now();
    const seedStart = performance.now();
    if (target.dialect === 'postgres') await seedPostgres(target.db, fixture, count, now);
    else await seedSqlite(path.join(server.dataDir, 'blrms.db'), fixture, count, now);
    const seedSeconds = (performance.now() - seedStart) / 1000;
    console.log(
      `${label}: seeded ${count.toLocaleString('en')} devices in ${seedSeconds.toFixed(1)} s`,
    );

    // [name, url of each request, p99 budget, requests]
    const scenarios: [string, () => string, number, number][] = [
      [
        'list, default sort (createTime desc)',
        () => `/device/device/list?pageSize=20&pageNo=${page()}`,
        LIST_P99_MS,
        REQUESTS,
      ],
      [
        'list, status + series filter, sort by SN',
        () =>
          `/device/device/list?pageSize=20&pageNo=${page()}&status=${pick(['online', 'offline'])}&series=${pick(SERIES)}&column=sn&order=asc`,
        LIST_P99_MS,
        REQUESTS,
      ],
      [
        'list, group filter, sort by last seen',
        () =>
          `/device/device/list?pageSize=20&pageNo=${page()}&groupId=${pick(fixture.groupIds)}&column=lastSeenAt&order=desc`,
        LIST_P99_MS,
        REQUESTS,
      ],
      [
        'list, SN substring filter',
        () =>
          `/device/device/list?pageSize=20&sn=${String(Math.floor(Math.random() * 99_999)).padStart(5, '0')}`,
        LIST_P99_MS,
        // As many requests as before the trigram indexes, so the figures compare.
        Math.ceil(REQUESTS / 6),
      ],
      ['dashboard summary', () => '/device/device/summary', SUMMARY_P99_MS, REQUESTS],
    ];
    for (const [name, urls, budget, requests] of scenarios) {
      const r = await latencies(api, urls, requests);
      console.log(
        `| ${label} | ${name} | ${r.p50.toFixed(1)} ms | ${r.p99.toFixed(1)} ms | ${r.max.toFixed(1)} ms | ≤ ${budget} ms | ${r.p99 <= budget ? 'met' : 'MISSED'} |`,
      );
    }
    const imported = await importXlsx(api, fixture.tokenIds[0] ?? '');
    console.log(
      `| ${label} | import ${IMPORT_ROWS.toLocaleString('en')} devices from XLSX | ${(imported.ms / 1000).toFixed(2)} s (${imported.imported} imported) | | | ≤ ${IMPORT_MS / 1000} s | ${imported.ms <= IMPORT_MS && imported.imported === IMPORT_ROWS ? 'met' : 'MISSED'} |`,
    );
  } finally {
    await target.db.destroy();
    await server.stop();
  }
}

console.log(`${REQUESTS} sequential requests per scenario after 20 warm-up requests`);
console.log('| database | scenario | p50 | p99 | max | target | |');
console.log('|---|---|---:|---:|---:|---|---|');
if (process.env.BENCH_ONLY !== 'postgres') await measure('SQLite', {}, SQLITE_DEVICES);
if (process.env.DATABASE_URL && process.env.BENCH_ONLY !== 'sqlite') {
  await measure('PostgreSQL', { DATABASE_URL: process.env.DATABASE_URL }, PG_DEVICES);
}
