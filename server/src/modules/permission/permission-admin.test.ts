import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionId } from '../../db/seed/seed.js';
import {
  ADMIN_PASSWORD,
  authHeaders,
  createTestApp,
  type TestContext,
  fieldText,
} from '../../test/app.js';
import { createCompanyAdmin } from '../../test/company-admin.js';

const PASSWORD = 'Strong-Pass-42';

describe('menu permission administration', () => {
  let t: TestContext;
  let admin: string;
  let acmeAdmin: string;
  let plain: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login('admin', ADMIN_PASSWORD);
    await createCompanyAdmin(t, {
      code: 'acme',
      username: 'acmeadmin',
      password: PASSWORD,
      perms: [
        'account:permission:list',
        'account:permission:add',
        'account:permission:edit',
        'account:permission:delete',
        'account:permission:datarule',
      ],
    });
    acmeAdmin = await t.login('acmeadmin', PASSWORD);
    await t.createUser({ username: 'plainop', password: PASSWORD });
    plain = await t.login('plainop', PASSWORD);
  });
  afterAll(() => t.close());

  const call = (
    token: string,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
  ) =>
    t.app.inject({
      method,
      url: `/api${url}`,
      headers: authHeaders(token, { 'accept-language': 'en-US' }),
      ...(payload ? { payload } : {}),
    });
  const page = (extra: object = {}) => ({
    parentId: permissionId('system'),
    name: '报表',
    nameEn: 'Reports',
    menuType: 1,
    url: '/system/report',
    component: 'system/ReportList',
    componentName: 'system-report',
    perms: 'system:report:list',
    sortNo: 30,
    icon: 'bar-chart',
    keepAlive: true,
    ...extra,
  });

  it('lists the catalogue as a tree with every field', async () => {
    const res = await call(acmeAdmin, 'GET', '/sys/permission/list');
    expect(res.statusCode).toBe(200);
    const account = res.json().result.find((n: { url: string }) => n.url === '/account');
    const user = account.children.find((n: { url: string }) => n.url === '/account/user');
    expect(user).toMatchObject({
      name: '登录账户',
      nameEn: 'Login account',
      menuType: 1,
      component: 'account/UserList',
      perms: 'account:user:list',
      route: true,
      hidden: false,
    });
    expect(user.children.map((b: { perms: string }) => b.perms)).toEqual([
      'account:user:add',
      'account:user:edit',
      'account:user:delete',
      'account:user:freeze',
      'account:user:resetPassword',
      'account:user:import',
      'account:user:export',
      'account:user:unlock',
      'account:user:resetTwoFactor',
      'account:user:twoFactorPolicy',
      'system:setting:twoFactor',
    ]);
  });

  describe('changes (platform administrators only)', () => {
    let reportId: string;

    it('refuses a company administrator even with the button permission', async () => {
      const res = await call(acmeAdmin, 'POST', '/sys/permission/add', page());
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('Access denied: platform administrators only');
      const edit = await call(acmeAdmin, 'PUT', '/sys/permission/edit', {
        ...page({ parentId: null, menuType: 0, url: '/dashboard/analysis', perms: null }),
        id: permissionId('dashboard-analysis'),
      });
      expect(edit.statusCode).toBe(403);
      const del = await call(
        acmeAdmin,
        'DELETE',
        `/sys/permission/delete?id=${permissionId('system-log')}`,
      );
      expect(del.statusCode).toBe(403);
    });

    it('adds a page that appears in the admin’s menu on the next request', async () => {
      const res = await call(admin, 'POST', '/sys/permission/add', page());
      expect(res.statusCode).toBe(200);
      reportId = res.json().result.id;
      // The platform admin holds everything; the catalogue change reaches their menu at once.
      const menu = await call(admin, 'GET', '/sys/permission/getUserPermissionByToken');
      expect(JSON.stringify(menu.json().result.menu)).toContain('/system/report');
      const parent = await t.db
        .selectFrom('sys_permission')
        .select('is_leaf')
        .where('id', '=', permissionId('system'))
        .executeTakeFirstOrThrow();
      expect(parent.is_leaf).toBe(0);
    });

    it.each([
      [
        'a duplicate perms code',
        page({ perms: 'system:log:list' }),
        409,
        'perms: this permission code already exists',
      ],
      [
        'a button without a parent',
        page({ parentId: null, menuType: 2, url: null }),
        400,
        'parentId: invalid parent (a button needs a menu parent; no cycles)',
      ],
      ['a page without a path', page({ url: '', perms: null }), 400, 'url: is required'],
      [
        'a malformed perms code',
        page({ perms: "x' or 1=1" }),
        400,
        'perms: comma-separated codes like device:list',
      ],
      [
        'a javascript: path',
        page({ url: 'javascript:alert(document.cookie)' }),
        400,
        'url: must be a console path starting with / or an http(s):// address',
      ],
      [
        'a javascript: link with leading blanks and mixed case',
        page({ url: '/ok', redirect: ' \tJaVaScRiPt:alert(1)' }),
        400,
        'redirect: must be a console path starting with / or an http(s):// address',
      ],
      ['a data: link', page({ url: 'data:text/html,<script>alert(1)</script>' }), 400, undefined],
      ['a protocol-relative link', page({ url: '//evil.example/x' }), 400, undefined],
      ['a backslash host', page({ url: '/\\evil.example/x' }), 400, undefined],
      ['a tab inside the scheme', page({ url: 'java\tscript:alert(1)' }), 400, undefined],
      ['a field the form does not offer', page({ perms: null, delFlag: 1 }), 400, undefined],
      ['an unknown menu type', page({ perms: null, menuType: 7 }), 400, undefined],
    ])('refuses %s', async (_, body, status, message) => {
      const res = await call(admin, 'POST', '/sys/permission/add', body);
      expect(res.statusCode).toBe(status);
      if (message) expect(fieldText(res.json())).toBe(message);
    });

    it('accepts console paths and http(s) links, and refuses javascript: on edit too', async () => {
      const external = await call(admin, 'POST', '/sys/permission/add', {
        ...page({ perms: null, componentName: 'ext-docs' }),
        url: 'https://docs.example.com/guide?x=1',
        internalOrExternal: true,
      });
      expect(external.statusCode).toBe(200);
      const edit = await call(admin, 'PUT', '/sys/permission/edit', {
        ...page({ perms: null, componentName: 'ext-docs' }),
        id: external.json().result.id,
        url: 'javascript:alert(1)',
      });
      expect(edit.statusCode).toBe(400);
      expect(fieldText(edit.json())).toBe(
        'url: must be a console path starting with / or an http(s):// address',
      );
    });

    it('edits a row and refuses a cycle', async () => {
      const res = await call(admin, 'PUT', '/sys/permission/edit', {
        ...page({ name: '报表中心', hidden: true }),
        id: reportId,
      });
      expect(res.statusCode).toBe(200);
      const row = await t.db
        .selectFrom('sys_permission')
        .selectAll()
        .where('id', '=', reportId)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ name: '报表中心', hidden: 1, keep_alive: 1 });
      const cycle = await call(admin, 'PUT', '/sys/permission/edit', {
        ...page({ parentId: reportId, menuType: 0, url: '/system', perms: null }),
        id: permissionId('system'),
      });
      expect(cycle.statusCode).toBe(400);
    });

    it('deletes a row with its children; holders lose them', async () => {
      const button = await call(admin, 'POST', '/sys/permission/add', {
        parentId: reportId,
        name: '导出',
        menuType: 2,
        perms: 'system:report:export',
      });
      expect(button.statusCode).toBe(200);
      const res = await call(admin, 'DELETE', `/sys/permission/delete?id=${reportId}`);
      expect(res.statusCode).toBe(200);
      const rows = await t.db
        .selectFrom('sys_permission')
        .select(['id', 'del_flag'])
        .where('id', 'in', [reportId, button.json().result.id])
        .execute();
      expect(rows.map((r) => r.del_flag)).toEqual([1, 1]);
      const menu = await call(admin, 'GET', '/sys/permission/getUserPermissionByToken');
      expect(JSON.stringify(menu.json().result)).not.toContain('system:report');
      expect(
        (await call(admin, 'DELETE', `/sys/permission/delete?id=${reportId}`)).statusCode,
      ).toBe(404);
    });
  });

  describe('data rules', () => {
    const deviceList = permissionId('device-list');
    const rule = (extra: object = {}) => ({
      permissionId: deviceList,
      ruleName: 'R40 only',
      ruleColumn: 'series',
      ruleConditions: 'EQ',
      ruleValue: 'R40',
      status: '1',
      ...extra,
    });

    it('adds, lists, edits and deletes rules over whitelisted columns', async () => {
      const add = await call(admin, 'POST', '/sys/permission/addPermissionRule', rule());
      expect(add.statusCode).toBe(200);
      const id = add.json().result.id;
      t.clock.advance(1000);
      const inRule = await call(
        admin,
        'POST',
        '/sys/permission/addPermissionRule',
        rule({
          ruleName: 'mine',
          ruleColumn: 'ownerId',
          ruleConditions: 'IN',
          ruleValue: '#{sys_user_id},abc',
        }),
      );
      expect(inRule.statusCode).toBe(200);
      const list = await call(
        acmeAdmin,
        'GET',
        `/sys/permission/getPermRuleListByPermId?permissionId=${deviceList}`,
      );
      expect(list.json().result.map((r: { ruleName: string }) => r.ruleName)).toEqual([
        'R40 only',
        'mine',
      ]);
      const tree = await call(admin, 'GET', '/sys/permission/list');
      const devices = tree
        .json()
        .result.find((n: { url: string }) => n.url === '/device')
        .children.find((n: { id: string }) => n.id === deviceList);
      expect(devices.ruleCount).toBe(2);
      const edit = await call(admin, 'PUT', '/sys/permission/editPermissionRule', {
        ...rule({ ruleValue: 'BL10X' }),
        permissionId: undefined,
        id,
      });
      expect(edit.statusCode).toBe(200);
      const del = await call(admin, 'DELETE', `/sys/permission/deletePermissionRule?id=${id}`);
      expect(del.statusCode).toBe(200);
      const after = await call(
        admin,
        'GET',
        `/sys/permission/getPermRuleListByPermId?permissionId=${deviceList}`,
      );
      expect(after.json().result.map((r: { ruleName: string }) => r.ruleName)).toEqual(['mine']);
    });

    it.each([
      [
        'a column outside the whitelist',
        { ruleColumn: 'password' },
        'ruleColumn: must be one of ownerId, sysOrgCode, series, groupId, status, tokenId',
      ],
      [
        'SQL as a column',
        { ruleColumn: '1=1 or sn' },
        'ruleColumn: must be one of ownerId, sysOrgCode, series, groupId, status, tokenId',
      ],
      ['an operator outside the set', { ruleConditions: 'SQL_RULES' }, undefined],
      [
        'an unknown variable',
        { ruleValue: '#{sys_password}' },
        'ruleValue: variables must be one of #{sys_user_id}, #{sys_user_code}, #{sys_org_code}',
      ],
      ['a field the form does not offer', { id: 'a'.repeat(32) }, undefined],
    ])('refuses %s', async (_, extra, message) => {
      const res = await call(admin, 'POST', '/sys/permission/addPermissionRule', rule(extra));
      expect(res.statusCode).toBe(400);
      if (message) expect(fieldText(res.json())).toBe(message);
    });

    it('refuses rules on a permission without rule columns', async () => {
      const res = await call(
        admin,
        'POST',
        '/sys/permission/addPermissionRule',
        rule({ permissionId: permissionId('system-log') }),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('This permission has no columns data rules may use');
    });

    it('refuses rule changes by a company administrator', async () => {
      const res = await call(acmeAdmin, 'POST', '/sys/permission/addPermissionRule', rule());
      expect(res.statusCode).toBe(403);
    });
  });

  describe('permission denial', () => {
    it.each([
      ['GET', '/sys/permission/list'],
      ['POST', '/sys/permission/add'],
      ['PUT', '/sys/permission/edit'],
      ['DELETE', `/sys/permission/delete?id=${'a'.repeat(32)}`],
      ['GET', `/sys/permission/getPermRuleListByPermId?permissionId=${'a'.repeat(32)}`],
      ['POST', '/sys/permission/addPermissionRule'],
      ['PUT', '/sys/permission/editPermissionRule'],
      ['DELETE', `/sys/permission/deletePermissionRule?id=${'a'.repeat(32)}`],
    ] as const)('%s %s needs its permission', async (method, url) => {
      const body = method === 'POST' || method === 'PUT' ? {} : undefined;
      expect((await call(plain, method, url, body)).statusCode).toBe(403);
      expect((await t.app.inject({ method, url: `/api${url}` })).statusCode).toBe(401);
    });
  });
});
