import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_COMPANY_ID, departId, permissionId } from '../../db/seed/seed.js';
import { newId } from '../../platform/db/ids.js';
import {
  ADMIN_PASSWORD,
  authHeaders,
  createTestApp,
  type TestContext,
  fieldText,
} from '../../test/app.js';

/** A role in `companyId` holding exactly the permission rows with these codes. */
async function roleWith(t: TestContext, companyId: string, codes: string[]): Promise<string> {
  const id = newId();
  await t.db
    .insertInto('sys_role')
    .values({
      id,
      company_id: companyId,
      role_code: `r${id.slice(0, 8)}`,
      role_name: 'test role',
      role_name_en: null,
      description: null,
      create_time: t.clock.now,
    })
    .execute();
  const rows = await t.db
    .selectFrom('sys_permission')
    .select('id')
    .where('perms', 'in', codes)
    .execute();
  for (const r of rows) {
    await t.db
      .insertInto('sys_role_permission')
      .values({ role_id: id, permission_id: r.id, data_rule_ids: null })
      .execute();
  }
  return id;
}

const DEPART_CODES = [
  'account:depart:list',
  'account:depart:add',
  'account:depart:edit',
  'account:depart:delete',
  'account:depart:authorize',
  'account:depart:member',
];

type Node = { id: string; orgCode: string; title: string; children: Node[] };

describe('departments, members, department permissions and roles', () => {
  let t: TestContext;
  let admin: string;
  let companyB: string;
  let bossB: string;
  let viewer: string;
  let viewerId: string;
  let memberId: string;
  let member: string;
  let bUserId: string;

  beforeAll(async () => {
    t = await createTestApp();
    companyB = await t.createCompany('company-b');
    bUserId = await t.createUser({
      username: 'bossb',
      password: 'Boss-B-Pass-1',
      companyId: companyB,
      roleIds: [await roleWith(t, companyB, DEPART_CODES)],
    });
    viewerId = await t.createUser({
      username: 'viewer',
      password: 'Viewer-Pass-1',
      roleIds: [await roleWith(t, PLATFORM_COMPANY_ID, ['account:depart:list'])],
    });
    memberId = await t.createUser({ username: 'member', password: 'Member-Pass-1', roleIds: [] });
    admin = await t.login('admin', ADMIN_PASSWORD);
    bossB = await t.login('bossb', 'Boss-B-Pass-1');
    viewer = await t.login('viewer', 'Viewer-Pass-1');
    member = await t.login('member', 'Member-Pass-1');
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

  const tree = async (token: string) =>
    (await call('GET', '/api/sys/sysDepart/queryTreeList', token)).json().result as Node[];

  let rnd: string;

  it('returns the company tree with hierarchical org codes, in the reader language', async () => {
    const nodes = await tree(admin);
    expect(nodes).toHaveLength(1);
    expect(nodes[0]).toMatchObject({ orgCode: 'A01', title: 'BLRMS Platform', orgCategory: '1' });
    expect(nodes[0]?.children.map((c) => c.orgCode)).toEqual(['A01A01', 'A01A02']);
    const zh = await call('GET', '/api/sys/sysDepart/queryIdTree', admin, undefined, {
      'accept-language': 'zh-CN',
    });
    expect(zh.json().result[0].children[0]).toMatchObject({
      title: '研发部',
      key: departId('A01A01'),
    });
    expect(await tree(bossB)).toEqual([]);
  });

  it('adds sub-departments with the next code and a top level one that is free everywhere', async () => {
    const sub = await call('POST', '/api/sys/sysDepart/add', admin, {
      parentId: departId('A01A01'),
      departName: '前端组',
      departNameEn: 'Front end',
      orgCategory: '3',
    });
    expect(sub.statusCode).toBe(200);
    expect(sub.json().result).toMatchObject({ orgCode: 'A01A01A01', orgCategory: '3' });
    rnd = sub.json().result.id;
    const second = await call('POST', '/api/sys/sysDepart/add', admin, {
      parentId: departId('A01A01'),
      departName: '后端组',
      orgCategory: '2',
    });
    expect(second.json().result.orgCode).toBe('A01A01A02');

    const top = await call('POST', '/api/sys/sysDepart/add', bossB, {
      departName: 'B Corp',
      orgCategory: '1',
    });
    expect(top.statusCode).toBe(200);
    expect(top.json().result.orgCode).toBe('A02');
    expect((await tree(bossB)).map((n) => n.orgCode)).toEqual(['A02']);

    const edit = await call('PUT', '/api/sys/sysDepart/edit', admin, {
      id: rnd,
      departName: '前端',
      departNameEn: 'Web',
      orgCategory: '2',
      departOrder: 3,
    });
    expect(edit.json().result).toMatchObject({
      title: 'Web',
      orgCode: 'A01A01A01',
      orgCategory: '2',
    });

    const search = await call('GET', '/api/sys/sysDepart/searchBy?keyWord=Web', admin);
    expect(search.json().result.map((n: Node) => n.id)).toEqual([rnd]);
    expect(
      (await call('GET', '/api/sys/sysDepart/searchBy?keyWord=Web', bossB)).json().result,
    ).toEqual([]);
  });

  it("refuses another company's department as a parent, by id or for editing", async () => {
    const bTop = (await tree(bossB))[0]!.id;
    const child = await call('POST', '/api/sys/sysDepart/add', admin, {
      parentId: bTop,
      departName: 'sneaky',
      orgCategory: '2',
    });
    expect(child.statusCode).toBe(404);
    const edit = await call('PUT', '/api/sys/sysDepart/edit', admin, {
      id: bTop,
      departName: 'x',
      orgCategory: '2',
    });
    expect(edit.statusCode).toBe(404);
    expect((await call('DELETE', `/api/sys/sysDepart/delete?id=${bTop}`, admin)).statusCode).toBe(
      404,
    );
    expect(
      (await call('GET', `/api/sys/sysDepart/departUserList?depId=${bTop}`, admin)).statusCode,
    ).toBe(404);
    const mass = await call('POST', '/api/sys/sysDepart/add', admin, {
      departName: 'x',
      orgCategory: '2',
      companyId: companyB,
      orgCode: 'Z99',
    });
    expect(mass.statusCode).toBe(400);
    const badCategory = await call('POST', '/api/sys/sysDepart/add', admin, {
      departName: 'x',
      orgCategory: '7',
    });
    expect(badCategory.statusCode).toBe(400);
    expect(fieldText(badCategory.json())).toContain('orgCategory');
  });

  it('adds members of the company only, lists them, and refuses to delete a department with members or children', async () => {
    const candidates = await call('GET', `/api/sys/sysDepart/memberCandidates?depId=${rnd}`, admin);
    const names = candidates.json().result.map((u: { username: string }) => u.username);
    expect(names).toEqual(expect.arrayContaining(['admin', 'member', 'viewer']));
    expect(names).not.toContain('bossb');

    const foreign = await call('POST', '/api/sys/sysDepart/editSysDepartWithUser', admin, {
      depId: rnd,
      userIdList: [bUserId],
    });
    expect(foreign.statusCode).toBe(404);

    const add = await call('POST', '/api/sys/sysDepart/editSysDepartWithUser', admin, {
      depId: rnd,
      userIdList: [memberId, viewerId],
    });
    expect(add.statusCode).toBe(200);
    const list = await call(
      'GET',
      `/api/sys/sysDepart/departUserList?depId=${rnd}&column=username&order=asc`,
      admin,
    );
    expect(list.json().result).toMatchObject({ total: 2 });
    expect(list.json().result.records.map((u: { username: string }) => u.username)).toEqual([
      'member',
      'viewer',
    ]);
    expect(list.json().result.records[0]).not.toHaveProperty('passwordHash');

    const withMembers = await call('DELETE', `/api/sys/sysDepart/delete?id=${rnd}`, admin);
    expect(withMembers.statusCode).toBe(409);
    expect(withMembers.json().message).toBe(
      'This department still has 2 members: remove them first',
    );
    const withChildren = await call(
      'DELETE',
      `/api/sys/sysDepart/delete?id=${departId('A01A01')}`,
      admin,
    );
    expect(withChildren.statusCode).toBe(409);
    expect(withChildren.json().message).toBe(
      'This department has sub-departments: delete them first',
    );
  });

  let roleId: string;
  const logList = permissionId('system-log');
  const positionList = permissionId('account-position');

  it('limits department roles to the department ceiling, and the ceiling to what the granter holds', async () => {
    const grantable = await call(
      'GET',
      `/api/sys/sysDepartPermission/queryTreeListForDepart?departId=${rnd}`,
      admin,
    );
    expect(grantable.json().result.ids).toContain(logList);

    const ceiling = await call('POST', '/api/sys/permission/saveDepartPermission', admin, {
      departId: rnd,
      permissionIds: [permissionId('system'), logList, permissionId('account'), positionList],
    });
    expect(ceiling.statusCode).toBe(200);
    const saved = await call(
      'GET',
      `/api/sys/permission/queryDepartPermission?departId=${rnd}`,
      admin,
    );
    expect(saved.json().result).toHaveLength(4);

    const role = await call('POST', '/api/sys/sysDepartRole/add', admin, {
      departId: rnd,
      roleName: 'Log readers',
      roleCode: 'log_readers',
    });
    expect(role.statusCode).toBe(200);
    roleId = role.json().result.id;
    const dupCode = await call('POST', '/api/sys/sysDepartRole/add', admin, {
      departId: rnd,
      roleName: 'again',
      roleCode: 'log_readers',
    });
    expect(dupCode.statusCode).toBe(409);

    const forRole = await call(
      'GET',
      `/api/sys/sysDepartPermission/queryTreeListForDeptRole?departId=${rnd}`,
      admin,
    );
    expect([...forRole.json().result.ids].sort()).toEqual(
      [permissionId('system'), logList, permissionId('account'), positionList].sort(),
    );

    const beyond = await call(
      'POST',
      '/api/sys/sysDepartPermission/saveDeptRolePermission',
      admin,
      {
        roleId,
        permissionIds: [logList, permissionId('account-depart')],
      },
    );
    expect(beyond.statusCode).toBe(403);
    expect(fieldText(beyond.json())).toBe("permissionIds: beyond the department's permissions");

    const within = await call(
      'POST',
      '/api/sys/sysDepartPermission/saveDeptRolePermission',
      admin,
      {
        roleId,
        permissionIds: [permissionId('system'), logList],
      },
    );
    expect(within.statusCode).toBe(200);
    const rolePerms = await call(
      'GET',
      `/api/sys/sysDepartPermission/queryDeptRolePermission?roleId=${roleId}`,
      admin,
    );
    expect(rolePerms.json().result.sort()).toEqual([permissionId('system'), logList].sort());

    // bossb holds no log permission: cannot hand it to a department of their company.
    const bTop = (await tree(bossB))[0]!.id;
    const escalate = await call('POST', '/api/sys/permission/saveDepartPermission', bossB, {
      departId: bTop,
      permissionIds: [logList],
    });
    expect(escalate.statusCode).toBe(403);
    expect(fieldText(escalate.json())).toBe(
      'permissionIds: you cannot grant or take away a permission you do not hold: Backend logs',
    );
  });

  it('gives a member of a department role exactly its permissions on the next request', async () => {
    expect((await call('GET', '/api/sys/log/list', member)).statusCode).toBe(403);

    const outsider = await call('POST', '/api/sys/sysDepartRole/saveRoleUsers', admin, {
      roleId,
      userIds: [bUserId],
    });
    expect(outsider.statusCode).toBe(400);
    expect(fieldText(outsider.json())).toBe('userIds: the user is not a member of this department');

    const assign = await call('POST', '/api/sys/sysDepartRole/saveRoleUsers', admin, {
      roleId,
      userIds: [memberId],
    });
    expect(assign.statusCode).toBe(200);
    expect(
      (await call('GET', `/api/sys/sysDepartRole/queryRoleUsers?roleId=${roleId}`, admin)).json()
        .result,
    ).toEqual([memberId]);
    expect((await call('GET', '/api/sys/log/list', member)).statusCode).toBe(200);
    expect((await call('GET', '/api/sys/position/list', member)).statusCode).toBe(403);

    // Shrinking the ceiling takes the role's grants beyond it away at once.
    await call('POST', '/api/sys/permission/saveDepartPermission', admin, {
      departId: rnd,
      permissionIds: [permissionId('account'), positionList],
    });
    expect((await call('GET', '/api/sys/log/list', member)).statusCode).toBe(403);
    await call('POST', '/api/sys/permission/saveDepartPermission', admin, {
      departId: rnd,
      permissionIds: [permissionId('system'), logList],
    });
    await call('POST', '/api/sys/sysDepartPermission/saveDeptRolePermission', admin, {
      roleId,
      permissionIds: [logList],
    });
    expect((await call('GET', '/api/sys/log/list', member)).statusCode).toBe(200);

    // Leaving the department ends its roles.
    const remove = await call(
      'DELETE',
      `/api/sys/sysDepart/deleteUserInDepartBatch?depId=${rnd}&userIds=${memberId}`,
      admin,
    );
    expect(remove.statusCode).toBe(200);
    expect((await call('GET', '/api/sys/log/list', member)).statusCode).toBe(403);
    expect(
      (await call('GET', `/api/sys/sysDepartRole/queryRoleUsers?roleId=${roleId}`, admin)).json()
        .result,
    ).toEqual([]);
  });

  it('lists, edits and deletes department roles of the company only', async () => {
    const list = await call('GET', `/api/sys/sysDepartRole/list?deptId=${rnd}`, admin);
    expect(list.json().result.records.map((r: { roleCode: string }) => r.roleCode)).toEqual([
      'log_readers',
    ]);
    for (const [method, url, body] of [
      ['GET', `/api/sys/sysDepartRole/queryRoleUsers?roleId=${roleId}`],
      ['GET', `/api/sys/sysDepartPermission/queryDeptRolePermission?roleId=${roleId}`],
      ['PUT', '/api/sys/sysDepartRole/edit', { id: roleId, roleName: 'x', roleCode: 'x' }],
      ['POST', '/api/sys/sysDepartRole/saveRoleUsers', { roleId, userIds: [] }],
      [
        'POST',
        '/api/sys/sysDepartPermission/saveDeptRolePermission',
        { roleId, permissionIds: [] },
      ],
      ['DELETE', `/api/sys/sysDepartRole/delete?id=${roleId}`],
      ['GET', `/api/sys/sysDepartRole/list?deptId=${rnd}`],
      ['GET', `/api/sys/permission/queryDepartPermission?departId=${rnd}`],
    ] as const) {
      const res = await call(method, url, bossB, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const edit = await call('PUT', '/api/sys/sysDepartRole/edit', admin, {
      id: roleId,
      roleName: 'Auditors',
      roleCode: 'auditors',
    });
    expect(edit.json().result).toMatchObject({ roleName: 'Auditors', roleCode: 'auditors' });
    expect(
      (await call('DELETE', `/api/sys/sysDepartRole/delete?id=${roleId}`, admin)).statusCode,
    ).toBe(200);
    expect(
      (await call('GET', `/api/sys/sysDepartRole/list?deptId=${rnd}`, admin)).json().result.total,
    ).toBe(0);
  });

  it('needs the permission for each action; the tree only a session', async () => {
    const denied: [string, string, object?][] = [
      ['POST', '/api/sys/sysDepart/add', { departName: 'x', orgCategory: '2' }],
      ['PUT', '/api/sys/sysDepart/edit', { id: rnd, departName: 'x', orgCategory: '2' }],
      ['DELETE', `/api/sys/sysDepart/delete?id=${rnd}`],
      ['GET', `/api/sys/sysDepart/memberCandidates?depId=${rnd}`],
      ['POST', '/api/sys/sysDepart/editSysDepartWithUser', { depId: rnd, userIdList: [viewerId] }],
      ['DELETE', `/api/sys/sysDepart/deleteUserInDepartBatch?depId=${rnd}&userIds=${viewerId}`],
      ['GET', `/api/sys/sysDepartPermission/queryTreeListForDepart?departId=${rnd}`],
      ['GET', `/api/sys/permission/queryDepartPermission?departId=${rnd}`],
      ['POST', '/api/sys/permission/saveDepartPermission', { departId: rnd, permissionIds: [] }],
      ['POST', '/api/sys/sysDepartRole/add', { departId: rnd, roleName: 'x', roleCode: 'x' }],
      ['GET', `/api/sys/sysDepartPermission/queryTreeListForDeptRole?departId=${rnd}`],
    ];
    for (const [method, url, body] of denied) {
      const res = await call(method as 'GET', url, viewer, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    expect(
      (await call('GET', `/api/sys/sysDepart/departUserList?depId=${rnd}`, viewer)).statusCode,
    ).toBe(200);
    expect((await call('GET', '/api/sys/sysDepart/queryTreeList', member)).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/sys/sysDepart/queryTreeList' })).statusCode,
    ).toBe(401);
    const mine = await call('GET', '/api/sys/sysDepart/queryMyDeptTreeList', viewer);
    expect(mine.json().result.map((n: Node) => n.id)).toEqual([rnd]);
  });

  it('refuses injected sort columns and filters', async () => {
    for (const q of ['column=updatexml(1,concat(0x7e,user()),1)', 'order=desc;drop table x']) {
      expect(
        (await call('GET', `/api/sys/sysDepart/departUserList?depId=${rnd}&${q}`, admin))
          .statusCode,
      ).toBe(400);
      expect(
        (await call('GET', `/api/sys/sysDepartRole/list?deptId=${rnd}&${q}`, admin)).statusCode,
      ).toBe(400);
    }
    const id = await call(
      'DELETE',
      `/api/sys/sysDepart/delete?id=${encodeURIComponent("x' or '1'='1")}`,
      admin,
    );
    expect(id.statusCode).toBe(400);
    const like = await call(
      'GET',
      `/api/sys/sysDepart/departUserList?depId=${rnd}&username=${encodeURIComponent("%' or 1=1 --")}`,
      admin,
    );
    expect(like.json().result.total).toBe(0);
  });

  it('deletes an empty department', async () => {
    await call(
      'DELETE',
      `/api/sys/sysDepart/deleteUserInDepartBatch?depId=${rnd}&userIds=${viewerId}`,
      admin,
    );
    const del = await call('DELETE', `/api/sys/sysDepart/delete?id=${rnd}`, admin);
    expect(del.statusCode).toBe(200);
    const codes = (await tree(admin))[0]!.children[0]!.children.map((c) => c.orgCode);
    expect(codes).toEqual(['A01A01A02']);
  });
});
