import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_COMPANY_ID } from '../../db/seed/seed.js';
import { newId } from '../../platform/db/ids.js';
import {
  ADMIN_PASSWORD,
  authHeaders,
  createTestApp,
  type TestContext,
  fieldText,
} from '../../test/app.js';

const NEW_ADMIN = {
  username: 'acmeadmin',
  realname: 'Acme Admin',
  password: 'Acme-Admin-9',
  phone: '13800000001',
  email: 'admin@acme.example',
};

describe('companies (platform administrators only)', () => {
  let t: TestContext;
  let admin: string;
  let operator: string;
  let acmeId: string;
  let acmeAdmin: string;

  beforeAll(async () => {
    t = await createTestApp();
    await t.createUser({ username: 'operator', password: 'Operator-Pass-1' });
    admin = await t.login('admin', ADMIN_PASSWORD);
    operator = await t.login('operator', 'Operator-Pass-1');
  });
  afterAll(() => t.close());

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    token: string,
    payload?: object,
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method,
      url,
      headers: authHeaders(token, { 'accept-language': 'en-US', ...headers }),
      ...(payload ? { payload } : {}),
    });

  it('creates a company with its first administrator, who signs in to that company only', async () => {
    const res = await call('POST', '/api/sys/company/add', admin, {
      name: 'Acme Ltd',
      code: 'acme',
      admin: NEW_ADMIN,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().result).toMatchObject({ name: 'Acme Ltd', status: 1, userCount: 1 });
    acmeId = res.json().result.id;

    const login = await t.loginResponse(NEW_ADMIN.username, NEW_ADMIN.password);
    expect(login.statusCode).toBe(200);
    expect(login.json().result.userInfo.companyId).toBe(acmeId);
    acmeAdmin = login.json().result.token;

    const tree = await call('GET', '/api/sys/sysDepart/queryTreeList', acmeAdmin);
    expect(tree.json().result.map((n: { title: string }) => n.title)).toEqual(['Acme Ltd']);
    const platform = await call('GET', '/api/sys/sysDepart/queryTreeList', acmeAdmin, undefined, {
      'x-company-id': PLATFORM_COMPANY_ID,
    });
    expect(platform.statusCode).toBe(403);

    // The standard admin role: the company's pages, not the platform's.
    expect((await call('GET', '/api/sys/position/list', acmeAdmin)).statusCode).toBe(200);
    expect((await call('GET', '/api/sys/log/list', acmeAdmin)).statusCode).toBe(200);
    const menu = await call('GET', '/api/sys/permission/getUserPermissionByToken', acmeAdmin);
    const codes = menu.json().result.auth.map((a: { action: string }) => a.action);
    expect(codes).toContain('account:depart:add');
    expect(codes).not.toContain('system:company:list');

    const admins = await call('GET', `/api/sys/company/queryAdmins?id=${acmeId}`, admin);
    expect(admins.json().result).toEqual([
      expect.objectContaining({ username: 'acmeadmin', realname: 'Acme Admin', status: 1 }),
    ]);
    expect(admins.json().result[0]).not.toHaveProperty('passwordHash');
  });

  it('lists, filters, sorts and renames companies', async () => {
    const list = await call('GET', '/api/sys/company/list?column=name&order=asc', admin);
    expect(list.json().result.records.map((c: { code: string }) => c.code)).toEqual([
      'acme',
      'platform',
    ]);
    const filtered = await call('GET', '/api/sys/company/list?name=acm&status=1', admin);
    expect(filtered.json().result.total).toBe(1);
    const edit = await call('PUT', '/api/sys/company/edit', admin, {
      id: acmeId,
      name: 'Acme Group',
    });
    expect(edit.json().result.name).toBe('Acme Group');
    expect(
      (await call('GET', `/api/sys/company/queryById?id=${acmeId}`, admin)).json().result.name,
    ).toBe('Acme Group');
    for (const q of [
      'column=updatexml(1,concat(0x7e,user()),1)',
      'order=desc;drop table x',
      'status=3',
    ]) {
      expect((await call('GET', `/api/sys/company/list?${q}`, admin)).statusCode).toBe(400);
    }
    expect((await call('GET', `/api/sys/company/queryById?id=${newId()}`, admin)).statusCode).toBe(
      404,
    );
  });

  it('refuses duplicates, weak passwords and fields the form does not offer', async () => {
    const dupCode = await call('POST', '/api/sys/company/add', admin, {
      name: 'x',
      code: 'acme',
      admin: { ...NEW_ADMIN, username: 'other1', phone: null, email: null },
    });
    expect(dupCode.statusCode).toBe(409);
    expect(fieldText(dupCode.json())).toBe('code: this company code already exists');
    const dupUser = await call('POST', '/api/sys/company/add', admin, {
      name: 'x',
      code: 'x-corp',
      admin: { ...NEW_ADMIN, phone: null, email: null },
    });
    expect(dupUser.statusCode).toBe(409);
    expect(fieldText(dupUser.json())).toBe('admin.username: this username already exists');
    const dupPhone = await call('POST', '/api/sys/company/add', admin, {
      name: 'x',
      code: 'x-corp',
      admin: { ...NEW_ADMIN, username: 'other2', email: null },
    });
    expect(fieldText(dupPhone.json())).toBe('admin.phone: this phone already exists');
    const weak = await call('POST', '/api/sys/company/add', admin, {
      name: 'x',
      code: 'x-corp',
      admin: { username: 'other3', realname: 'o', password: 'password123' },
    });
    expect(weak.statusCode).toBe(400);
    expect(fieldText(weak.json())).toBe('password: is too common');
    for (const extra of [{ status: 2 }, { isPlatform: true }, { is_platform: 1 }]) {
      const mass = await call('POST', '/api/sys/company/add', admin, {
        name: 'x',
        code: 'x-corp',
        admin: { username: 'other4', realname: 'o', password: 'Good-Pass-77' },
        ...extra,
      });
      expect(mass.statusCode).toBe(400);
    }
    const roleInAdmin = await call('POST', '/api/sys/company/add', admin, {
      name: 'x',
      code: 'x-corp',
      admin: { username: 'other5', realname: 'o', password: 'Good-Pass-77', roleIds: ['x'] },
    });
    expect(roleInAdmin.statusCode).toBe(400);
    expect((await call('GET', '/api/sys/company/list?name=x', admin)).json().result.total).toBe(0);
  });

  it('freezing a company ends its sessions and stops its users signing in, until unfrozen', async () => {
    // A platform user who is also a member of Acme can act there while it is active.
    const opId = (
      await t.db
        .selectFrom('sys_user')
        .select('id')
        .where('username', '=', 'operator')
        .executeTakeFirstOrThrow()
    ).id;
    await t.db
      .insertInto('sys_user_company')
      .values({ user_id: opId, company_id: acmeId })
      .execute();
    await t.bus.publish('auth.user-changed', { userId: opId });
    const inAcme = { 'x-company-id': acmeId };
    expect(
      (await call('GET', '/api/sys/sysDepart/queryTreeList', operator, undefined, inAcme))
        .statusCode,
    ).toBe(200);

    const freeze = await call('PUT', '/api/sys/company/frozen', admin, { id: acmeId, status: 2 });
    expect(freeze.statusCode).toBe(200);
    expect(freeze.json().result.status).toBe(2);

    expect((await call('GET', '/api/sys/sysDepart/queryTreeList', acmeAdmin)).statusCode).toBe(401);
    const login = await t.loginResponse(NEW_ADMIN.username, NEW_ADMIN.password, {});
    expect(login.statusCode).toBe(403);
    expect(login.json().message).toBe('该公司已冻结，无法登录');
    const member = await call(
      'GET',
      '/api/sys/sysDepart/queryTreeList',
      operator,
      undefined,
      inAcme,
    );
    expect(member.statusCode).toBe(403);
    expect((await call('GET', '/api/sys/sysDepart/queryTreeList', operator)).statusCode).toBe(200);
    const opLogin = await t.loginResponse('operator', 'Operator-Pass-1');
    expect(opLogin.statusCode).toBe(200);
    expect(opLogin.json().result.companies.map((c: { id: string }) => c.id)).toEqual([
      PLATFORM_COMPANY_ID,
    ]);

    const platform = await call('PUT', '/api/sys/company/frozen', admin, {
      id: PLATFORM_COMPANY_ID,
      status: 2,
    });
    expect(platform.statusCode).toBe(400);
    expect(platform.json().message).toBe('The platform company cannot be frozen');

    await call('PUT', '/api/sys/company/frozen', admin, { id: acmeId, status: 1 });
    acmeAdmin = await t.login(NEW_ADMIN.username, NEW_ADMIN.password);
    const again = await t.loginResponse('operator', 'Operator-Pass-1');
    expect(again.json().result.companies.map((c: { id: string }) => c.id)).toEqual([
      PLATFORM_COMPANY_ID,
      acmeId,
    ]);
    expect((await call('GET', '/api/sys/sysDepart/queryTreeList', acmeAdmin)).statusCode).toBe(200);
  });

  it('refuses company endpoints to everyone but platform administrators, even with the code', async () => {
    const endpoints: [string, string, object?][] = [
      ['GET', '/api/sys/company/list'],
      ['GET', `/api/sys/company/queryById?id=${acmeId}`],
      ['GET', `/api/sys/company/queryAdmins?id=${acmeId}`],
      [
        'POST',
        '/api/sys/company/add',
        {
          name: 'y',
          code: 'y-corp',
          admin: { username: 'yy', realname: 'y', password: 'Good-Pass-77' },
        },
      ],
      ['PUT', '/api/sys/company/edit', { id: acmeId, name: 'mine' }],
      ['PUT', '/api/sys/company/frozen', { id: PLATFORM_COMPANY_ID, status: 1 }],
    ];
    for (const [method, url, body] of endpoints) {
      expect((await call(method as 'GET', url, operator, body)).statusCode, url).toBe(403);
      expect((await call(method as 'GET', url, acmeAdmin, body)).statusCode, url).toBe(403);
    }

    // Handed the codes through a role of their own company, Acme's admin is still refused.
    const roleId = (
      await t.db
        .selectFrom('sys_role')
        .select('id')
        .where('company_id', '=', acmeId)
        .where('role_code', '=', 'admin')
        .executeTakeFirstOrThrow()
    ).id;
    const companyPerms = await t.db
      .selectFrom('sys_permission')
      .select('id')
      .where('perms', 'like', 'system:company:%')
      .execute();
    for (const p of companyPerms) {
      await t.db
        .insertInto('sys_role_permission')
        .values({ role_id: roleId, permission_id: p.id, data_rule_ids: null })
        .execute();
    }
    await t.bus.publish('auth.permissions-changed', {});
    const res = await call('GET', '/api/sys/company/list', acmeAdmin);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Only platform administrators manage companies');
    const freeze = await call('PUT', '/api/sys/company/frozen', acmeAdmin, {
      id: PLATFORM_COMPANY_ID,
      status: 2,
    });
    expect(freeze.statusCode).toBe(403);
  });
});
