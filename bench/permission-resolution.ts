/**
 * Menu and permission resolution: `GET /api/sys/permission/getUserPermissionByToken` for a user
 * holding 500 permissions through 10 roles and 3 department roles, on the real app and a real
 * database (a fresh SQLite file; a fresh PostgreSQL database too when DATABASE_URL is set).
 * Target: p99 <= 5 ms on each database.
 *
 * Four cases, each timed per request around `app.inject` and the reading of the body's chunks
 * (routing, session, guard, handler and the ~130 KB response included; no network), with the
 * event loop turned between requests as a server's is. Besides the latencies it reports two
 * figures the machine's load does not move much: CPU time per request (`process.cpuUsage`, GC
 * threads included) and database statements per request (background jobs' included):
 * - warm: the grants and the built menu are cached (the steady state between changes);
 * - cold (user): the user's grants were dropped, as after roles were given to or taken from
 *   them (what the role and department services announce): what each role grants stays cached,
 *   so one statement (the roles they hold);
 * - cold (roles): what all 13 of their roles grant was announced changed, as after an edit of
 *   each: the user's grants and the roles are read again (two statements);
 * - cold (all): grants, roles and the catalogue were dropped, as after a menu edit.
 *
 *   npm run bench:permissions
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:permissions
 */
import { performance } from 'node:perf_hooks';
import { databaseStats } from '../server/src/platform/db/database.js';
import { stableId } from '../server/src/platform/db/ids.js';
import { authHeaders, createTestApp, type TestContext } from '../server/src/test/app.js';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 2000);
const WARM_UP = 300;
const TARGET_P99_MS = 5;
const PERMISSIONS = 500;
const ROLES = 10;
const DEPART_ROLES = 3;
const PASSWORD = 'Bench-Pass-2026';

/** Adds synthetic menus (each with pages and buttons) until the catalogue has 500 rows. */
async function seedCatalogue(t: TestContext): Promise<string[]> {
  const existing = await t.db
    .selectFrom('sys_permission')
    .select('id')
    .where('del_flag', '=', 0)
    .execute();
  const ids = existing.map((r) => r.id);
  const rows = [];
  for (let m = 0; ids.length + rows.length < PERMISSIONS; m += 1) {
    const menu = stableId('bench-menu', String(m));
    rows.push({ id: menu, parent_id: null, menu_type: 0, url: `/bench${m}`, perms: null });
    for (let p = 0; p < 5 && ids.length + rows.length < PERMISSIONS; p += 1) {
      const page = stableId('bench-page', `${m}-${p}`);
      rows.push({
        id: page,
        parent_id: menu,
        menu_type: 1,
        url: `/bench${m}/p${p}`,
        perms: `bench${m}:p${p}:list`,
      });
      for (let b = 0; b < 4 && ids.length + rows.length < PERMISSIONS; b += 1) {
        rows.push({
          id: stableId('bench-button', `${m}-${p}-${b}`),
          parent_id: page,
          menu_type: 2,
          url: null,
          perms: `bench${m}:p${p}:b${b}`,
        });
      }
    }
  }
  for (const [index, r] of rows.entries()) {
    await t.db
      .insertInto('sys_permission')
      .values({
        ...r,
        name: `基准 ${r.id.slice(0, 6)}`,
        name_en: `Bench ${r.id.slice(0, 6)}`,
        component:
          r.menu_type === 2 ? null : r.menu_type === 0 ? 'layouts/RouteView' : 'bench/Page',
        component_name: r.menu_type === 2 ? null : `bench-${r.id.slice(0, 8)}`,
        redirect: null,
        perms_type: '1',
        status: '1',
        sort_no: index,
        icon: r.menu_type === 0 ? 'appstore' : null,
        hidden: 0,
        keep_alive: 0,
        always_show: 0,
        route: 1,
        internal_or_external: 0,
        is_leaf: r.menu_type === 2 ? 1 : 0,
        del_flag: 0,
        create_time: t.clock.now,
      })
      .execute();
  }
  return [...ids, ...rows.map((r) => r.id)];
}

/** 10 roles and 3 department roles whose grants overlap and together cover all 500 rows. */
async function seedUser(
  t: TestContext,
  permissionIds: string[],
): Promise<{ userId: string; roleIds: string[] }> {
  const companyId = await t.createCompany('bench');
  const roleIds: string[] = [];
  for (let r = 0; r < ROLES; r += 1) {
    const id = stableId('bench-role', String(r));
    roleIds.push(id);
    await t.db
      .insertInto('sys_role')
      .values({
        id,
        company_id: companyId,
        role_code: `bench${r}`,
        role_name: `Bench ${r}`,
        role_name_en: null,
        description: null,
        create_time: t.clock.now,
      })
      .execute();
    // Each role holds a tenth of the catalogue plus the next role's tenth: every row twice.
    const slice = permissionIds.filter(
      (_, i) =>
        Math.floor((i * ROLES) / permissionIds.length) % ROLES === r ||
        Math.floor((i * ROLES) / permissionIds.length) % ROLES === (r + 1) % ROLES,
    );
    await t.db
      .insertInto('sys_role_permission')
      .values(slice.map((permission_id) => ({ role_id: id, permission_id, data_rule_ids: null })))
      .execute();
  }
  const departId = stableId('bench-depart', 'root');
  await t.db
    .insertInto('sys_depart')
    .values({
      id: departId,
      company_id: companyId,
      parent_id: null,
      depart_name: 'Bench',
      depart_name_en: null,
      org_code: 'B01',
      org_category: 1,
      depart_order: 0,
      status: 1,
      create_time: t.clock.now,
    })
    .execute();
  const userId = await t.createUser({
    username: 'benchuser',
    password: PASSWORD,
    companyId,
    roleIds,
  });
  const departRoleIds: string[] = [];
  for (let d = 0; d < DEPART_ROLES; d += 1) {
    const id = stableId('bench-drole', String(d));
    departRoleIds.push(id);
    await t.db
      .insertInto('sys_depart_role')
      .values({
        id,
        depart_id: departId,
        role_name: `Bench dept ${d}`,
        role_code: `benchd${d}`,
        create_time: t.clock.now,
      })
      .execute();
    const slice = permissionIds.filter((_, i) => i % DEPART_ROLES === d);
    await t.db
      .insertInto('sys_depart_role_permission')
      .values(
        slice.map((permission_id) => ({
          depart_id: departId,
          role_id: id,
          permission_id,
          data_rule_ids: null,
        })),
      )
      .execute();
    await t.db
      .insertInto('sys_depart_role_user')
      .values({ user_id: userId, drole_id: id })
      .execute();
  }
  return { userId, roleIds: [...roleIds, ...departRoleIds] };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** A server turns its event loop between two requests that arrive on sockets; so does the bench. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function timeRequests(
  t: TestContext,
  token: string,
  before: () => Promise<void>,
  iterations = ITERATIONS,
) {
  const samples: number[] = [];
  const stats = databaseStats(t.db);
  const statementsBefore = stats?.queries.queries ?? 0;
  let cpuMicros = 0;
  let bytes = 0;
  for (let i = 0; i < iterations; i += 1) {
    await nextTurn();
    await before();
    const cpu = process.cpuUsage();
    const start = performance.now();
    // The body is read as the chunks the server wrote, as a socket would take them: buffering
    // mode would decode it into a string as well, work no HTTP client of the server causes.
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/sys/permission/getUserPermissionByToken',
      headers: authHeaders(token),
      payloadAsStream: true,
    });
    bytes = 0;
    for await (const chunk of res.stream()) bytes += (chunk as Buffer).length;
    samples.push(performance.now() - start);
    const used = process.cpuUsage(cpu);
    cpuMicros += used.user + used.system;
    if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
  }
  samples.sort((a, b) => a - b);
  return {
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    max: samples.at(-1) ?? NaN,
    bytes,
    cpuMs: cpuMicros / 1000 / iterations,
    statements: ((stats?.queries.queries ?? 0) - statementsBefore) / iterations,
  };
}

async function measure(label: string) {
  const t = await createTestApp();
  try {
    const permissionIds = await seedCatalogue(t);
    const { userId, roleIds } = await seedUser(t, permissionIds);
    const token = await t.login('benchuser', PASSWORD);
    const check = await t.app.inject({
      method: 'GET',
      url: '/api/sys/permission/getUserPermissionByToken',
      headers: authHeaders(token),
    });
    const auth = (check.json() as { result: { auth: unknown[] } }).result.auth.length;
    const granted = await t.db
      .selectFrom('sys_permission')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('del_flag', '=', 0)
      .executeTakeFirstOrThrow();
    const cases = [
      ['warm', async () => {}],
      // Which roles the user holds changed (what role.service and depart.service announce).
      [
        'cold (user)',
        () => t.bus.publish('auth.permissions-changed', { userId, rolesUnchanged: true }),
      ],
      // What all 13 of the user's roles grant changed: every role is read again.
      ['cold (roles)', () => t.bus.publish('auth.roles-changed', { roleIds })],
      ['cold (all)', () => t.bus.publish('auth.permissions-changed', {})],
    ] as const;
    // JIT, connection pool and statement caches warm up before anything is counted.
    await timeRequests(t, token, cases[1][1], WARM_UP);
    for (const [name, before] of cases) {
      const r = await timeRequests(t, token, before);
      console.log(
        `| ${label} | ${name} | ${Number(granted.n)} | ${auth} | ${(r.bytes / 1024).toFixed(0)} KB | ${r.p50.toFixed(2)} ms | ${r.p99.toFixed(2)} ms | ${r.max.toFixed(1)} ms | ${r.cpuMs.toFixed(2)} ms | ${r.statements.toFixed(2)} | ${r.p99 <= TARGET_P99_MS ? 'met' : 'MISSED'} |`,
      );
    }
  } finally {
    await t.close();
  }
}

console.log(`${ITERATIONS} requests per case, one at a time, after one warm-up pass`);
console.log(
  '| database | cache | catalogue rows | auth entries | response | p50 | p99 | max | CPU/request | statements/request | p99 ≤ 5 ms |',
);
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
const url = process.env.DATABASE_URL;
delete process.env.DATABASE_URL;
await measure('SQLite');
if (url) {
  process.env.DATABASE_URL = url;
  await measure('PostgreSQL');
}
