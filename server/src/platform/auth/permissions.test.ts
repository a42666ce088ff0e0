import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.js';
import { loadConfig } from '../../config.js';
import { ADMIN_ROLE_ID, PLATFORM_COMPANY_ID, permissionId } from '../../db/seed/seed.js';
import {
  ADMIN_PASSWORD,
  TEST_HASH_COST,
  authHeaders,
  createTestApp,
  type TestContext,
} from '../../test/app.js';
import { createRole } from '../../test/company-admin.js';
import { RedisBus } from '../bus/redis-bus.js';
import { createDatabase, databaseStats, type DatabaseHandle } from '../db/database.js';
import { newId } from '../db/ids.js';
import { PermissionService } from './permissions.js';

const PASSWORD = 'Grants-Pass-2026';
const LOG = 'system:log:list';
const POSITIONS = 'account:position:list';

describe('PermissionService caches', () => {
  let t: TestContext;
  let permissions: PermissionService;
  let companyId: string;
  let logRole: string;
  let positionRole: string;
  const statements = () => databaseStats(t.db)?.queries.queries ?? 0;
  const user = (username: string, roleIds: string[], company = companyId) =>
    t.createUser({ username, password: PASSWORD, companyId: company, roleIds });
  const codes = async (userId: string, company = companyId) =>
    (await permissions.grantsOf(userId, company)).codes;

  beforeAll(async () => {
    t = await createTestApp();
    permissions = new PermissionService(t.db, t.bus, t.clock.read);
    companyId = await t.createCompany('grants');
    logRole = await createRole(t, companyId, 'logs', [LOG]);
    positionRole = await createRole(t, companyId, 'positions', [POSITIONS]);
  });
  afterAll(() => t.close());

  const revoke = (roleId: string, key: string) =>
    t.db
      .deleteFrom('sys_role_permission')
      .where('role_id', '=', roleId)
      .where('permission_id', '=', permissionId(key))
      .execute();
  const grant = (roleId: string, key: string) =>
    t.db
      .insertInto('sys_role_permission')
      .values({ role_id: roleId, permission_id: permissionId(key), data_rule_ids: null })
      .execute();

  it('stops granting what a role lost for every holder once the role’s event arrives', async () => {
    const role = await createRole(t, companyId, 'shared', [LOG]);
    const [a, b, c] = [
      await user('shared-a', [role]),
      await user('shared-b', [role]),
      await user('shared-c', [role]),
    ];
    expect(await codes(a)).toContain(LOG);
    expect(await codes(b)).toContain(LOG);
    await revoke(role, 'system-log');
    // Cached until told: the event is what makes the change visible.
    expect(await codes(a)).toContain(LOG);
    await t.bus.publish('auth.roles-changed', { roleIds: [role] });
    expect(await codes(a)).not.toContain(LOG);
    expect(await codes(b)).not.toContain(LOG);
    // A holder never resolved before gets the role from the database too, not an old copy.
    expect(await codes(c)).not.toContain(LOG);
  });

  it('resolves a user whose roles changed with one statement while their roles are cached', async () => {
    const other = await user('has-positions', [positionRole]);
    const changing = await user('changing', [logRole]);
    expect(await codes(other)).toContain(POSITIONS);
    expect(await codes(changing)).not.toContain(POSITIONS);
    await t.db
      .insertInto('sys_user_role')
      .values({ user_id: changing, role_id: positionRole })
      .execute();
    await t.bus.publish('auth.permissions-changed', { userId: changing, rolesUnchanged: true });
    const before = statements();
    const got = await codes(changing);
    expect(statements() - before).toBe(1);
    expect(got).toContain(LOG);
    expect(got).toContain(POSITIONS);

    // A role taken away is gone on the next resolution.
    await t.db
      .deleteFrom('sys_user_role')
      .where('user_id', '=', changing)
      .where('role_id', '=', logRole)
      .execute();
    await t.bus.publish('auth.permissions-changed', { userId: changing, rolesUnchanged: true });
    expect(await codes(changing)).not.toContain(LOG);
  });

  it('shares the grants of users holding the same roles, until one of the roles changes', async () => {
    const role = await createRole(t, companyId, 'twins', [LOG, POSITIONS]);
    const [a, b] = [await user('twin-1', [role]), await user('twin-2', [role])];
    const first = await permissions.grantsOf(a, companyId);
    expect(await permissions.grantsOf(b, companyId)).toBe(first);
    await revoke(role, 'system-log');
    await t.bus.publish('auth.roles-changed', { roleIds: [role] });
    const after = await permissions.grantsOf(b, companyId);
    expect(after).not.toBe(first);
    expect(after.codes).not.toContain(LOG);
    expect(after.version).not.toBe(first.version);
  });

  it('treats a user’s event that does not say rolesUnchanged as a change of any role', async () => {
    const role = await createRole(t, companyId, 'unsaid', [LOG]);
    const holder = await user('unsaid', [role]);
    expect(await codes(holder)).toContain(LOG);
    await revoke(role, 'system-log');
    await t.bus.publish('auth.permissions-changed', { userId: holder });
    expect(await codes(holder)).not.toContain(LOG);
  });

  it('does not keep what a resolution read while the role’s change was announced', async () => {
    const role = await createRole(t, companyId, 'racing', [LOG]);
    const [a, b] = [await user('racing-a', [role]), await user('racing-b', [role])];
    const during = permissions.grantsOf(a, companyId);
    await revoke(role, 'system-log');
    await t.bus.publish('auth.roles-changed', { roleIds: [role] });
    await during;
    expect(await codes(a)).not.toContain(LOG);
    expect(await codes(b)).not.toContain(LOG);
    await grant(role, 'system-log');
    await t.bus.publish('auth.roles-changed', { roleIds: [role] });
    expect(await codes(a)).toContain(LOG);
  });

  it('keeps at most its bound of users, roles and role sets, resolving the least recent again', async () => {
    const bounded = new PermissionService(t.db, t.bus, t.clock.read, {
      users: 2,
      roles: 2,
      roleSets: 2,
    });
    const grantsSets = [[LOG], [POSITIONS], [LOG, POSITIONS]];
    const users: string[] = [];
    for (const [i, grants] of grantsSets.entries()) {
      users.push(
        await user(`bounded-${i}`, [await createRole(t, companyId, `bounded-${i}`, grants)]),
      );
    }
    for (const id of users) await bounded.grantsOf(id, companyId);
    const [first, second, third] = users as [string, string, string];
    let before = statements();
    await bounded.grantsOf(third, companyId);
    await bounded.grantsOf(second, companyId);
    expect(statements() - before).toBe(0);
    // The first user, their role and their set of roles went to make room: all read again.
    before = statements();
    const again = await bounded.grantsOf(first, companyId);
    expect(statements() - before).toBe(2);
    expect(again.codes).toContain(LOG);
    expect(again.codes).not.toContain(POSITIONS);
  });

  it('grants through department roles, and drops them on their event', async () => {
    const departId = newId();
    await t.db
      .insertInto('sys_depart')
      .values({
        id: departId,
        company_id: companyId,
        parent_id: null,
        depart_name: 'Grants',
        depart_name_en: null,
        org_code: 'G01',
        org_category: 1,
        depart_order: 0,
        status: 1,
        create_time: t.clock.now,
      })
      .execute();
    const drole = newId();
    await t.db
      .insertInto('sys_depart_role')
      .values({
        id: drole,
        depart_id: departId,
        role_name: 'Dept logs',
        role_code: 'dlogs',
        create_time: t.clock.now,
      })
      .execute();
    for (const key of ['system', 'system-log']) {
      await t.db
        .insertInto('sys_depart_role_permission')
        .values({
          depart_id: departId,
          role_id: drole,
          permission_id: permissionId(key),
          data_rule_ids: null,
        })
        .execute();
    }
    const member = await user('dept-member', []);
    await t.db
      .insertInto('sys_depart_role_user')
      .values({ user_id: member, drole_id: drole })
      .execute();
    await t.bus.publish('auth.permissions-changed', { userId: member, rolesUnchanged: true });
    expect(await codes(member)).toContain(LOG);
    // The department's roles count in the department's company only.
    expect(await codes(member, PLATFORM_COMPANY_ID)).not.toContain(LOG);
    await t.db
      .deleteFrom('sys_depart_role_permission')
      .where('role_id', '=', drole)
      .where('permission_id', '=', permissionId('system-log'))
      .execute();
    await t.bus.publish('auth.roles-changed', { roleIds: [drole] });
    expect(await codes(member)).not.toContain(LOG);
  });

  it('counts a company’s roles in that company only; the platform admin role everywhere', async () => {
    const otherCompany = await t.createCompany('grants-other');
    const foreign = await createRole(t, otherCompany, 'foreign', [LOG]);
    const member = await user('two-companies', [positionRole]);
    await t.db.insertInto('sys_user_role').values({ user_id: member, role_id: foreign }).execute();
    await t.bus.publish('auth.permissions-changed', { userId: member, rolesUnchanged: true });
    const here = await permissions.grantsOf(member, companyId);
    expect(here.codes).toContain(POSITIONS);
    expect(here.codes).not.toContain(LOG);
    expect(here.platformAdmin).toBe(false);
    const there = await permissions.grantsOf(member, otherCompany);
    expect(there.codes).toContain(LOG);
    expect(there.codes).not.toContain(POSITIONS);

    // The platform's admin role, held alongside, makes every row of any company granted, and is
    // read in the same statement as the roles.
    await t.db
      .insertInto('sys_user_role')
      .values({ user_id: member, role_id: ADMIN_ROLE_ID })
      .execute();
    await t.bus.publish('auth.permissions-changed', { userId: member, rolesUnchanged: true });
    const before = statements();
    const admin = await permissions.grantsOf(member, companyId);
    expect(statements() - before).toBe(1);
    expect(admin.platformAdmin).toBe(true);
    expect(admin.rows).toEqual(await permissions.catalogue(companyId));
    // A role of the company named `admin` is not the platform's.
    const companyAdmin = await createRole(t, companyId, 'admin', [POSITIONS]);
    const local = await user('local-admin', [companyAdmin]);
    expect((await permissions.grantsOf(local, companyId)).platformAdmin).toBe(false);
  });
});

describe('role changes through the services', () => {
  let t: TestContext;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login('admin', ADMIN_PASSWORD);
  });
  afterAll(() => t.close());

  it('denies every holder at once when a role loses a permission, and keeps other roles cached', async () => {
    const role = await createRole(t, PLATFORM_COMPANY_ID, 'svc-logs', [LOG]);
    const other = await createRole(t, PLATFORM_COMPANY_ID, 'svc-positions', [POSITIONS]);
    await t.createUser({ username: 'svc-a', password: PASSWORD, roleIds: [role, other] });
    await t.createUser({ username: 'svc-b', password: PASSWORD, roleIds: [role] });
    const [a, b] = [await t.login('svc-a', PASSWORD), await t.login('svc-b', PASSWORD)];
    const get = (token: string, url: string) =>
      t.app.inject({ method: 'GET', url: `/api${url}`, headers: authHeaders(token) });
    expect((await get(a, '/sys/log/list')).statusCode).toBe(200);
    expect((await get(b, '/sys/log/list')).statusCode).toBe(200);

    const save = await t.app.inject({
      method: 'POST',
      url: '/api/sys/permission/saveRolePermission',
      headers: authHeaders(admin),
      payload: { roleId: role, permissionIds: [permissionId('dashboard-analysis')] },
    });
    expect(save.statusCode).toBe(200);
    expect((await get(a, '/sys/log/list')).statusCode).toBe(403);
    expect((await get(b, '/sys/log/list')).statusCode).toBe(403);
    expect((await get(a, '/sys/position/list')).statusCode).toBe(200);
  });
});

const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;

// DATABASE_URL=postgres://... REDIS_URL=redis://127.0.0.1:6379 npx vitest run ...
describe.skipIf(!databaseUrl || !redisUrl)('role changes across two nodes', () => {
  let nodeA: TestContext;
  let nodeB: App;
  let databaseB: DatabaseHandle;
  const log = pino({ level: 'silent' });

  beforeAll(async () => {
    nodeA = await createTestApp({ app: { bus: await RedisBus.connect(redisUrl ?? '', log) } });
    const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(
      nodeA.db,
    );
    const url = new URL(databaseUrl ?? '');
    url.pathname = `/${rows[0]?.name ?? ''}`;
    databaseB = createDatabase({ dialect: 'postgres', url: url.toString() });
    nodeB = await buildApp(
      {
        ...loadConfig({ ADMIN_PASSWORD, LOG_LEVEL: 'silent' }),
        webDist: path.join(os.tmpdir(), 'blrms-no-console'),
      },
      {
        database: databaseB,
        bus: await RedisBus.connect(redisUrl ?? '', log),
        hashCost: TEST_HASH_COST,
        clock: nodeA.clock.read,
        logger: false,
      },
    );
    await nodeB.ready();
  });
  afterAll(async () => {
    await nodeB?.close();
    await databaseB?.db.destroy();
    await nodeA?.close();
  });

  it('a role’s grants changed on node A stop granting on node B, to holders it never resolved too', async () => {
    const role = await createRole(nodeA, PLATFORM_COMPANY_ID, 'nodes', [LOG]);
    for (const username of ['node-a', 'node-b']) {
      await nodeA.createUser({ username, password: PASSWORD, roleIds: [role] });
    }
    const admin = await nodeA.login('admin', ADMIN_PASSWORD);
    const [first, second] = [
      await nodeA.login('node-a', PASSWORD),
      await nodeA.login('node-b', PASSWORD),
    ];
    const onB = (token: string) =>
      nodeB.inject({ method: 'GET', url: '/api/sys/log/list', headers: authHeaders(token) });
    // Node B caches the role through the first holder.
    expect((await onB(first)).statusCode).toBe(200);

    const save = await nodeA.app.inject({
      method: 'POST',
      url: '/api/sys/permission/saveRolePermission',
      headers: authHeaders(admin),
      payload: { roleId: role, permissionIds: [permissionId('dashboard-analysis')] },
    });
    expect(save.statusCode).toBe(200);
    // The events cross Redis: node B denies the first holder once they have arrived...
    let status = 200;
    for (let i = 0; i < 100 && status === 200; i++) {
      status = (await onB(first)).statusCode;
      if (status === 200) await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toBe(403);
    // ...and the second, whose grants it never cached, gets the role from the database.
    expect((await onB(second)).statusCode).toBe(403);
  });
});
