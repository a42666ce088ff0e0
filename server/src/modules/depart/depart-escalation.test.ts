import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_COMPANY_ID, departId } from '../../db/seed/seed.js';
import { newId } from '../../platform/db/ids.js';
import {
  ADMIN_PASSWORD,
  authHeaders,
  createTestApp,
  type TestContext,
  fieldText,
} from '../../test/app.js';

async function idOf(t: TestContext, code: string): Promise<string> {
  const [id] = await idsOf(t, [code]);
  if (!id) throw new Error(`no permission row for ${code}`);
  return id;
}

async function idsOf(t: TestContext, codes: string[]): Promise<string[]> {
  const rows = await t.db
    .selectFrom('sys_permission')
    .select('id')
    .where('perms', 'in', codes)
    .execute();
  return rows.map((r) => r.id);
}

async function roleWith(t: TestContext, codes: string[]): Promise<string> {
  const id = newId();
  await t.db
    .insertInto('sys_role')
    .values({
      id,
      company_id: PLATFORM_COMPANY_ID,
      role_code: `r${id.slice(0, 8)}`,
      role_name: 'depart authorisers',
      role_name_en: null,
      description: null,
      create_time: t.clock.now,
    })
    .execute();
  for (const permissionId of await idsOf(t, codes)) {
    await t.db
      .insertInto('sys_role_permission')
      .values({ role_id: id, permission_id: permissionId, data_rule_ids: null })
      .execute();
  }
  return id;
}

/**
 * Issue 14 item 1: a user holding only the department authorisation button could give a
 * department role `token:reveal` and user deletion, assign it to themselves and use it.
 */
describe('no escalation through department roles', () => {
  let t: TestContext;
  let admin: string;
  let authoriser: string;
  let authoriserId: string;
  let peerId: string;
  let reveal: string;
  let userDelete: string;
  let departList: string;
  const rnd = departId('A01A01');

  beforeAll(async () => {
    t = await createTestApp();
    const role = await roleWith(t, ['account:depart:list', 'account:depart:authorize']);
    authoriserId = await t.createUser({
      username: 'authoriser',
      password: 'Authoriser-Pass-1',
      roleIds: [role],
      orgCodes: ['A01A01'],
    });
    peerId = await t.createUser({
      username: 'peer',
      password: 'Peer-Pass-1',
      roleIds: [],
      orgCodes: ['A01A01'],
    });
    admin = await t.login('admin', ADMIN_PASSWORD);
    authoriser = await t.login('authoriser', 'Authoriser-Pass-1');
    reveal = await idOf(t, 'token:reveal');
    userDelete = await idOf(t, 'account:user:delete');
    departList = await idOf(t, 'account:depart:list');
    // The platform administrator gave the department a wide ceiling.
    const ceiling = await call('POST', '/api/sys/permission/saveDepartPermission', admin, {
      departId: rnd,
      permissionIds: [reveal, userDelete, departList],
    });
    expect(ceiling.statusCode).toBe(200);
  });
  afterAll(() => t.close());

  const call = (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    token: string,
    payload?: object,
    lang = 'en-US',
  ) =>
    t.app.inject({
      method,
      url,
      headers: authHeaders(token, { 'accept-language': lang }),
      ...(payload ? { payload } : {}),
    });

  const newDeptRole = async (token: string, code: string) => {
    const res = await call('POST', '/api/sys/sysDepartRole/add', token, {
      departId: rnd,
      roleName: code,
      roleCode: code,
    });
    expect(res.statusCode).toBe(200);
    return res.json().result.id as string;
  };

  it('refuses to grant a department role a permission the caller does not hold, naming it', async () => {
    const roleId = await newDeptRole(authoriser, 'escalate');
    const grant = await call(
      'POST',
      '/api/sys/sysDepartPermission/saveDeptRolePermission',
      authoriser,
      { roleId, permissionIds: [reveal, userDelete] },
    );
    expect(grant.statusCode).toBe(403);
    expect(fieldText(grant.json())).toBe(
      'permissionIds: you cannot grant or take away a permission you do not hold: Reveal key',
    );
    const zh = await call(
      'POST',
      '/api/sys/sysDepartPermission/saveDeptRolePermission',
      authoriser,
      { roleId, permissionIds: [userDelete] },
      'zh-CN',
    );
    expect(zh.json().message).toContain('删除用户');
    const held = await call(
      'GET',
      `/api/sys/sysDepartPermission/queryDeptRolePermission?roleId=${roleId}`,
      admin,
    );
    expect(held.json().result).toEqual([]);

    // What the caller holds, within the ceiling, can be handed out.
    const within = await call(
      'POST',
      '/api/sys/sysDepartPermission/saveDeptRolePermission',
      authoriser,
      { roleId, permissionIds: [departList] },
    );
    expect(within.statusCode).toBe(200);
  });

  it('refuses to take away a grant the caller does not hold', async () => {
    const roleId = await newDeptRole(admin, 'revealers');
    await call('POST', '/api/sys/sysDepartPermission/saveDeptRolePermission', admin, {
      roleId,
      permissionIds: [reveal],
    });
    const strip = await call(
      'POST',
      '/api/sys/sysDepartPermission/saveDeptRolePermission',
      authoriser,
      { roleId, permissionIds: [] },
    );
    expect(strip.statusCode).toBe(403);
    const remove = await call('DELETE', `/api/sys/sysDepartRole/delete?id=${roleId}`, authoriser);
    expect(remove.statusCode).toBe(403);
    const ceiling = await call('POST', '/api/sys/permission/saveDepartPermission', authoriser, {
      departId: rnd,
      permissionIds: [departList],
    });
    expect(ceiling.statusCode).toBe(403);
    expect(fieldText(ceiling.json())).toContain('Reveal key');
  });

  it('refuses department role assignments to oneself or of permissions not held', async () => {
    const roleId = await newDeptRole(admin, 'deleters');
    await call('POST', '/api/sys/sysDepartPermission/saveDeptRolePermission', admin, {
      roleId,
      permissionIds: [reveal, userDelete],
    });
    const self = await call('POST', '/api/sys/sysDepartRole/saveRoleUsers', authoriser, {
      roleId,
      userIds: [authoriserId],
    });
    expect(self.statusCode).toBe(403);
    expect(fieldText(self.json())).toBe(
      'userIds: you cannot give yourself a department role or take one from yourself',
    );
    const peer = await call('POST', '/api/sys/sysDepartRole/saveRoleUsers', authoriser, {
      roleId,
      userIds: [peerId],
    });
    expect(peer.statusCode).toBe(403);
    expect(fieldText(peer.json())).toContain('you cannot grant or take away a permission');

    // The caller's own role, carrying only what they hold, may go to a peer but not to themselves.
    const own = await newDeptRole(authoriser, 'listers');
    await call('POST', '/api/sys/sysDepartPermission/saveDeptRolePermission', authoriser, {
      roleId: own,
      permissionIds: [departList],
    });
    const toPeer = await call('POST', '/api/sys/sysDepartRole/saveRoleUsers', authoriser, {
      roleId: own,
      userIds: [peerId],
    });
    expect(toPeer.statusCode).toBe(200);
    const toSelf = await call('POST', '/api/sys/sysDepartRole/saveRoleUsers', authoriser, {
      roleId: own,
      userIds: [peerId, authoriserId],
    });
    expect(toSelf.statusCode).toBe(403);
  });

  it('leaves the caller unable to reveal token keys or delete users', async () => {
    const revealKey = await call('GET', `/api/device/token/revealKey?id=${newId()}`, authoriser);
    expect(revealKey.statusCode).toBe(403);
    const del = await call('DELETE', `/api/sys/user/delete?id=${peerId}`, authoriser);
    expect(del.statusCode).toBe(403);
    const peerStill = await t.db
      .selectFrom('sys_user')
      .select('del_flag')
      .where('id', '=', peerId)
      .executeTakeFirstOrThrow();
    expect(peerStill.del_flag).toBe(0);
  });
});
