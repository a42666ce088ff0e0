import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ROLE_ID, OPERATOR_ROLE_ID, permissionId } from '../../db/seed/seed.js';
import {
  ADMIN_PASSWORD,
  PLATFORM_ID,
  authHeaders,
  createTestApp,
  type TestContext,
  fieldText,
} from '../../test/app.js';
import { createCompanyAdmin } from '../../test/company-admin.js';

const PASSWORD = 'Strong-Pass-42';
const ROLE_ADMIN_PERMS = [
  'account:user:list',
  'account:role:list',
  'account:role:add',
  'account:role:edit',
  'account:role:delete',
  'account:role:authorize',
];

describe('role administration', () => {
  let t: TestContext;
  let admin: string;
  let acme: { companyId: string; roleId: string; userId: string };
  let acmeAdmin: string;
  let plain: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login('admin', ADMIN_PASSWORD);
    acme = await createCompanyAdmin(t, {
      code: 'acme',
      username: 'acmeadmin',
      password: PASSWORD,
      perms: ROLE_ADMIN_PERMS,
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
  const menuPaths = async (token: string) => {
    const res = await call(token, 'GET', '/sys/permission/getUserPermissionByToken');
    const paths: string[] = [];
    const walk = (items: { path: string; children?: unknown[] }[]) => {
      for (const i of items) {
        paths.push(i.path);
        walk((i.children ?? []) as { path: string }[]);
      }
    };
    walk(res.json().result.menu);
    return { paths, auth: res.json().result.auth.map((a: { action: string }) => a.action) };
  };

  describe('CRUD', () => {
    let roleId: string;

    it('adds a role whose code is unique in the company', async () => {
      const res = await call(admin, 'POST', '/sys/role/add', {
        roleCode: 'auditor',
        roleName: '审计员',
        roleNameEn: 'Auditor',
        description: 'reads logs',
      });
      expect(res.statusCode).toBe(200);
      roleId = res.json().result.id;
      const again = await call(admin, 'POST', '/sys/role/add', {
        roleCode: 'auditor',
        roleName: 'x',
      });
      expect(again.statusCode).toBe(409);
      expect(fieldText(again.json())).toBe('roleCode: this role code already exists');
      const otherCompany = await call(acmeAdmin, 'POST', '/sys/role/add', {
        roleCode: 'auditor',
        roleName: 'Acme auditor',
      });
      expect(otherCompany.statusCode).toBe(200);
    });

    it('lists, filters and sorts roles of the current company only', async () => {
      const res = await call(admin, 'GET', '/sys/role/list?roleName=audit');
      expect(res.json().result.records.map((r: { roleName: string }) => r.roleName)).toEqual([
        '审计员',
      ]);
      const sorted = await call(admin, 'GET', '/sys/role/list?column=roleCode&order=asc');
      expect(sorted.json().result.records.map((r: { roleCode: string }) => r.roleCode)).toEqual([
        'admin',
        'auditor',
        'operator',
      ]);
      const acmeList = await call(acmeAdmin, 'GET', '/sys/role/queryall');
      expect(acmeList.json().result.map((r: { roleCode: string }) => r.roleCode)).toEqual([
        'admin',
        'auditor',
      ]);
    });

    it.each([
      ['column=updatexml(1,concat(0x7e,user(),0x7e),1)'],
      ['order=desc;drop table x'],
      ['column=company_id'],
    ])('refuses the sort %s', async (query) => {
      expect((await call(admin, 'GET', `/sys/role/list?${query}`)).statusCode).toBe(400);
    });

    it('edits a role and refuses fields the form does not offer', async () => {
      const res = await call(admin, 'PUT', '/sys/role/edit', {
        id: roleId,
        roleCode: 'auditor',
        roleName: '审计',
      });
      expect(res.statusCode).toBe(200);
      const mass = await call(admin, 'PUT', '/sys/role/edit', {
        id: roleId,
        roleCode: 'auditor',
        roleName: '审计',
        companyId: acme.companyId,
      });
      expect(mass.statusCode).toBe(400);
      const row = await t.db
        .selectFrom('sys_role')
        .selectAll()
        .where('id', '=', roleId)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ role_name: '审计', company_id: PLATFORM_ID });
    });

    it('does not find another company’s role by id', async () => {
      expect((await call(acmeAdmin, 'GET', `/sys/role/queryById?id=${roleId}`)).statusCode).toBe(
        404,
      );
      const edit = await call(acmeAdmin, 'PUT', '/sys/role/edit', {
        id: roleId,
        roleCode: 'auditor',
        roleName: 'pwned',
      });
      expect(edit.statusCode).toBe(404);
      expect((await call(acmeAdmin, 'DELETE', `/sys/role/delete?id=${roleId}`)).statusCode).toBe(
        404,
      );
      const grant = await call(acmeAdmin, 'POST', '/sys/permission/saveRolePermission', {
        roleId: ADMIN_ROLE_ID,
        permissionIds: [],
      });
      expect(grant.statusCode).toBe(404);
    });

    it('protects the admin role', async () => {
      const del = await call(admin, 'DELETE', `/sys/role/delete?id=${ADMIN_ROLE_ID}`);
      expect(del.statusCode).toBe(400);
      const recode = await call(admin, 'PUT', '/sys/role/edit', {
        id: ADMIN_ROLE_ID,
        roleCode: 'boss',
        roleName: 'x',
      });
      expect(recode.statusCode).toBe(400);
    });

    it('deletes a role; its holders lose what it granted on their next request', async () => {
      const res = await call(admin, 'POST', '/sys/role/add', {
        roleCode: 'temp',
        roleName: 'Temp',
      });
      const tempId = res.json().result.id;
      await call(admin, 'POST', '/sys/permission/saveRolePermission', {
        roleId: tempId,
        permissionIds: [permissionId('system'), permissionId('system-log')],
      });
      await t.createUser({
        username: 'tempuser',
        password: PASSWORD,
        roleIds: [OPERATOR_ROLE_ID, tempId],
      });
      const token = await t.login('tempuser', PASSWORD);
      expect((await call(token, 'GET', '/sys/log/list')).statusCode).toBe(200);
      // The list says how many users would lose the role, so the console can warn first.
      const listed = await call(admin, 'GET', '/sys/role/list?roleName=temp');
      expect(listed.json().result.records).toMatchObject([{ roleCode: 'temp', userCount: 1 }]);
      expect((await call(admin, 'DELETE', `/sys/role/deleteBatch?ids=${tempId}`)).statusCode).toBe(
        200,
      );
      expect((await call(token, 'GET', '/sys/log/list')).statusCode).toBe(403);
    });
  });

  describe('authorisation', () => {
    it('grants menus and buttons; the holder gets exactly those on the next request', async () => {
      const add = await call(admin, 'POST', '/sys/role/add', {
        roleCode: 'useradmin',
        roleName: 'Users',
      });
      const roleId = add.json().result.id;
      await t.createUser({ username: 'holder', password: PASSWORD, roleIds: [roleId] });
      const token = await t.login('holder', PASSWORD);
      const before = await call(token, 'GET', '/sys/permission/getUserPermissionByToken');
      const version = before.headers['x-permission-version'];

      const ids = [
        permissionId('dashboard-analysis'),
        permissionId('account'),
        permissionId('account-user'),
        permissionId('account-user-add'),
      ];
      const save = await call(admin, 'POST', '/sys/permission/saveRolePermission', {
        roleId,
        permissionIds: ids,
      });
      expect(save.statusCode).toBe(200);
      const got = await call(admin, 'GET', `/sys/permission/queryRolePermission?roleId=${roleId}`);
      expect([...got.json().result].sort()).toEqual([...ids].sort());

      const { paths, auth } = await menuPaths(token);
      expect(paths).toEqual(['/dashboard/analysis', '/account', '/account/user']);
      expect([...auth].sort()).toEqual(['account:user:add', 'account:user:list']);
      const after = await call(token, 'GET', '/sys/permission/getUserPermissionByToken');
      expect(after.headers['x-permission-version']).not.toBe(version);
      expect((await call(token, 'GET', '/sys/user/list')).statusCode).toBe(200);
      expect((await call(token, 'PUT', '/sys/user/edit', {})).statusCode).toBe(403);
    });

    it('refuses unknown permission ids', async () => {
      const res = await call(admin, 'POST', '/sys/permission/saveRolePermission', {
        roleId: OPERATOR_ROLE_ID,
        permissionIds: ['f'.repeat(32)],
      });
      expect(res.statusCode).toBe(400);
      expect(fieldText(res.json())).toBe('permissionIds: contains an unknown permission');
    });

    it('lets a company administrator grant only what they hold', async () => {
      const role = await call(acmeAdmin, 'POST', '/sys/role/add', {
        roleCode: 'helper',
        roleName: 'Helper',
      });
      const roleId = role.json().result.id;
      const tree = await call(acmeAdmin, 'GET', '/sys/permission/queryTreeList');
      const held: string[] = tree.json().result.ids;
      expect(held).toContain(permissionId('account-role'));
      expect(held).not.toContain(permissionId('system-log'));

      const ok = await call(acmeAdmin, 'POST', '/sys/permission/saveRolePermission', {
        roleId,
        permissionIds: [permissionId('account'), permissionId('account-role')],
      });
      expect(ok.statusCode).toBe(200);
      const escalate = await call(acmeAdmin, 'POST', '/sys/permission/saveRolePermission', {
        roleId,
        permissionIds: [
          permissionId('account'),
          permissionId('account-role'),
          permissionId('system-log'),
        ],
      });
      expect(escalate.statusCode).toBe(403);
      const own = await call(acmeAdmin, 'POST', '/sys/permission/saveRolePermission', {
        roleId: acme.roleId,
        permissionIds: [...held, permissionId('system-log')],
      });
      expect(own.statusCode).toBe(403);
      const got = await call(
        acmeAdmin,
        'GET',
        `/sys/permission/queryRolePermission?roleId=${roleId}`,
      );
      expect(got.json().result).not.toContain(permissionId('system-log'));
    });

    it('gives a platform administrator the whole tree', async () => {
      const tree = await call(admin, 'GET', '/sys/permission/queryTreeList');
      const all = await t.db
        .selectFrom('sys_permission')
        .select('id')
        .where('del_flag', '=', 0)
        .execute();
      expect(tree.json().result.ids).toHaveLength(all.length);
      const top = tree.json().result.treeList.map((n: { title: string }) => n.title);
      expect(top).toEqual(
        expect.arrayContaining(['Home', 'Account permissions', 'System management']),
      );
    });
  });

  describe('data rules of a grant', () => {
    it('chooses which rules of a permission the role’s grant carries', async () => {
      const deviceList = permissionId('device-list');
      const rule = await call(admin, 'POST', '/sys/permission/addPermissionRule', {
        permissionId: deviceList,
        ruleName: 'own devices',
        ruleColumn: 'ownerId',
        ruleConditions: 'EQ',
        ruleValue: '#{sys_user_id}',
        status: '1',
      });
      const ruleId = rule.json().result.id;

      await call(admin, 'POST', '/sys/permission/saveRolePermission', {
        roleId: OPERATOR_ROLE_ID,
        permissionIds: [permissionId('dashboard-analysis')],
      });
      const notGranted = await call(admin, 'POST', '/sys/role/datarule', {
        roleId: OPERATOR_ROLE_ID,
        permissionId: deviceList,
        dataRuleIds: [ruleId],
      });
      expect(notGranted.statusCode).toBe(400);

      await call(admin, 'POST', '/sys/permission/saveRolePermission', {
        roleId: OPERATOR_ROLE_ID,
        permissionIds: [permissionId('dashboard-analysis'), deviceList],
      });
      const save = await call(admin, 'POST', '/sys/role/datarule', {
        roleId: OPERATOR_ROLE_ID,
        permissionId: deviceList,
        dataRuleIds: [ruleId],
      });
      expect(save.statusCode).toBe(200);
      const read = await call(
        admin,
        'GET',
        `/sys/permission/queryPermissionRule?permissionId=${deviceList}&roleId=${OPERATOR_ROLE_ID}`,
      );
      expect(read.json().result.drChecked).toEqual([ruleId]);
      expect(read.json().result.datarule[0]).toMatchObject({
        ruleColumn: 'ownerId',
        ruleConditions: 'EQ',
      });
      const row = await t.db
        .selectFrom('sys_role_permission')
        .select('data_rule_ids')
        .where('role_id', '=', OPERATOR_ROLE_ID)
        .where('permission_id', '=', deviceList)
        .executeTakeFirstOrThrow();
      expect(row.data_rule_ids).toBe(ruleId);

      const foreign = await call(admin, 'POST', '/sys/role/datarule', {
        roleId: OPERATOR_ROLE_ID,
        permissionId: deviceList,
        dataRuleIds: ['e'.repeat(32)],
      });
      expect(foreign.statusCode).toBe(400);

      const removed = await call(
        admin,
        'DELETE',
        `/sys/permission/deletePermissionRule?id=${ruleId}`,
      );
      expect(removed.statusCode).toBe(200);
      const after = await t.db
        .selectFrom('sys_role_permission')
        .select('data_rule_ids')
        .where('role_id', '=', OPERATOR_ROLE_ID)
        .where('permission_id', '=', deviceList)
        .executeTakeFirstOrThrow();
      expect(after.data_rule_ids).toBeNull();
    });
  });

  describe('permission denial', () => {
    it.each([
      ['GET', '/sys/role/list'],
      ['GET', '/sys/role/queryall'],
      ['GET', `/sys/role/queryById?id=${'a'.repeat(32)}`],
      ['POST', '/sys/role/add'],
      ['PUT', '/sys/role/edit'],
      ['DELETE', `/sys/role/delete?id=${'a'.repeat(32)}`],
      ['DELETE', `/sys/role/deleteBatch?ids=${'a'.repeat(32)}`],
      ['GET', `/sys/permission/queryRolePermission?roleId=${'a'.repeat(32)}`],
      ['POST', '/sys/permission/saveRolePermission'],
      ['GET', '/sys/permission/queryPermissionRule'],
      ['POST', '/sys/role/datarule'],
      ['GET', '/sys/permission/queryTreeList'],
    ] as const)('%s %s needs its permission', async (method, url) => {
      const body = method === 'POST' || method === 'PUT' ? {} : undefined;
      expect((await call(plain, method, url, body)).statusCode).toBe(403);
      expect((await t.app.inject({ method, url: `/api${url}` })).statusCode).toBe(401);
    });
  });
});
