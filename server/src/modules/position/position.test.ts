import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  const rows = codes.length
    ? await t.db.selectFrom('sys_permission').select('id').where('perms', 'in', codes).execute()
    : [];
  for (const r of rows) {
    await t.db
      .insertInto('sys_role_permission')
      .values({ role_id: id, permission_id: r.id, data_rule_ids: null })
      .execute();
  }
  return id;
}

describe('positions', () => {
  let t: TestContext;
  let admin: string;
  let companyB: string;
  let bossB: string;
  let reader: string;
  const ALL = [
    'account:position:list',
    'account:position:add',
    'account:position:edit',
    'account:position:delete',
  ];
  beforeAll(async () => {
    t = await createTestApp();
    companyB = await t.createCompany('company-b');
    await t.createUser({
      username: 'bossb',
      password: 'Boss-B-Pass-1',
      companyId: companyB,
      roleIds: [await roleWith(t, companyB, ALL)],
    });
    await t.createUser({
      username: 'reader',
      password: 'Reader-Pass-1',
      roleIds: [
        await roleWith(
          t,
          (
            await t.db
              .selectFrom('sys_company')
              .select('id')
              .where('is_platform', '=', 1)
              .executeTakeFirstOrThrow()
          ).id,
          ['account:position:list'],
        ),
      ],
    });
    admin = await t.login('admin', ADMIN_PASSWORD);
    bossB = await t.login('bossb', 'Boss-B-Pass-1');
    reader = await t.login('reader', 'Reader-Pass-1');
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
      headers: authHeaders(token, headers),
      ...(payload ? { payload } : {}),
    });

  it('adds, lists with filters and sorting, edits and deletes a position', async () => {
    const add = await call('POST', '/api/sys/position/add', admin, {
      code: 'ENG',
      name: 'Engineer',
      postRank: '3',
    });
    expect(add.statusCode).toBe(200);
    const id = add.json().result.id as string;
    await call('POST', '/api/sys/position/add', admin, {
      code: 'MGR',
      name: 'Manager',
      postRank: '4',
    });

    const byName = await call('GET', '/api/sys/position/list?name=gine', admin);
    expect(byName.json().result.records.map((r: { code: string }) => r.code)).toEqual(['ENG']);
    const byRank = await call('GET', '/api/sys/position/list?postRank=4', admin);
    expect(byRank.json().result.records.map((r: { code: string }) => r.code)).toEqual(['MGR']);
    const sorted = await call('GET', '/api/sys/position/list?column=code&order=asc', admin);
    expect(sorted.json().result).toMatchObject({ total: 2, current: 1 });
    expect(sorted.json().result.records.map((r: { code: string }) => r.code)).toEqual([
      'ENG',
      'MGR',
    ]);

    const all = await call('GET', '/api/sys/position/queryall', admin);
    expect(all.json().result.map((r: { name: string }) => r.name)).toEqual(['Engineer', 'Manager']);

    const edit = await call('PUT', '/api/sys/position/edit', admin, {
      id,
      code: 'ENG2',
      name: 'Senior engineer',
      postRank: '5',
    });
    expect(edit.statusCode).toBe(200);
    const one = await call('GET', `/api/sys/position/queryById?id=${id}`, admin);
    expect(one.json().result).toMatchObject({
      code: 'ENG2',
      name: 'Senior engineer',
      postRank: '5',
    });

    const del = await call('DELETE', `/api/sys/position/delete?id=${id}`, admin);
    expect(del.statusCode).toBe(200);
    expect((await call('GET', `/api/sys/position/queryById?id=${id}`, admin)).statusCode).toBe(404);
  });

  it('refuses a duplicate code in the same company but allows it in another', async () => {
    const dup = await call(
      'POST',
      '/api/sys/position/add',
      admin,
      { code: 'MGR', name: 'Other', postRank: '1' },
      { 'accept-language': 'en-US' },
    );
    expect(dup.statusCode).toBe(409);
    expect(fieldText(dup.json())).toBe('code: this position code already exists');
    const inB = await call('POST', '/api/sys/position/add', bossB, {
      code: 'MGR',
      name: 'B mgr',
      postRank: '1',
    });
    expect(inB.statusCode).toBe(200);
  });

  it('refuses a rank outside the dictionary, unknown fields and injected sort columns', async () => {
    const rank = await call(
      'POST',
      '/api/sys/position/add',
      admin,
      { code: 'X1', name: 'X', postRank: '9' },
      { 'accept-language': 'en-US' },
    );
    expect(rank.statusCode).toBe(400);
    expect(fieldText(rank.json())).toBe('postRank: not a valid rank');
    const mass = await call('POST', '/api/sys/position/add', admin, {
      code: 'X2',
      name: 'X',
      postRank: '1',
      companyId: companyB,
    });
    expect(mass.statusCode).toBe(400);
    expect(mass.json().message).toContain('companyId');
    for (const q of [
      'column=updatexml(1,concat(0x7e,user()),1)',
      'order=desc;drop table x',
      'column=post_rank',
    ]) {
      expect((await call('GET', `/api/sys/position/list?${q}`, admin)).statusCode).toBe(400);
    }
    const like = await call(
      'GET',
      `/api/sys/position/list?name=${encodeURIComponent("%' or '1'='1")}`,
      admin,
    );
    expect(like.json().result.total).toBe(0);
  });

  it("keeps companies apart: another company's position is not found, listed or deleted", async () => {
    const list = await call('GET', '/api/sys/position/list', bossB);
    const bId = list.json().result.records[0].id as string;
    expect(list.json().result.total).toBe(1);
    expect((await call('GET', `/api/sys/position/queryById?id=${bId}`, admin)).statusCode).toBe(
      404,
    );
    expect(
      (
        await call('PUT', '/api/sys/position/edit', admin, {
          id: bId,
          code: 'Z',
          name: 'Z',
          postRank: '1',
        })
      ).statusCode,
    ).toBe(404);
    expect((await call('DELETE', `/api/sys/position/delete?id=${bId}`, admin)).statusCode).toBe(
      404,
    );
    expect(
      (await call('DELETE', `/api/sys/position/deleteBatch?ids=${bId}`, admin)).statusCode,
    ).toBe(404);
    expect((await call('GET', '/api/sys/position/list', bossB)).json().result.total).toBe(1);
    const queryall = await call('GET', '/api/sys/position/queryall', bossB);
    expect(queryall.json().result.map((r: { code: string }) => r.code)).toEqual(['MGR']);
  });

  it('needs the permission for each action', async () => {
    expect((await call('GET', '/api/sys/position/list', reader)).statusCode).toBe(200);
    expect((await call('GET', '/api/sys/position/queryall', reader)).statusCode).toBe(200);
    const add = await call('POST', '/api/sys/position/add', reader, {
      code: 'R',
      name: 'R',
      postRank: '1',
    });
    expect(add.statusCode).toBe(403);
    const some = (await call('GET', '/api/sys/position/list', admin)).json().result.records[0].id;
    expect(
      (
        await call('PUT', '/api/sys/position/edit', reader, {
          id: some,
          code: 'R',
          name: 'R',
          postRank: '1',
        })
      ).statusCode,
    ).toBe(403);
    expect((await call('DELETE', `/api/sys/position/delete?id=${some}`, reader)).statusCode).toBe(
      403,
    );
    expect(
      (await call('DELETE', `/api/sys/position/deleteBatch?ids=${some}`, reader)).statusCode,
    ).toBe(403);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/sys/position/queryall' })).statusCode,
    ).toBe(401);
    await t.createUser({ username: 'nobody', password: 'Nobody-Pass-1', roleIds: [] });
    const nobody = await t.login('nobody', 'Nobody-Pass-1');
    expect((await call('GET', '/api/sys/position/list', nobody)).statusCode).toBe(403);
    expect((await call('GET', `/api/sys/position/queryById?id=${some}`, nobody)).statusCode).toBe(
      403,
    );
    expect((await call('GET', '/api/sys/position/queryall', nobody)).statusCode).toBe(200);
  });
});
