import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_ROLE_ID } from '../../db/seed/seed.js';
import {
  ADMIN_PASSWORD,
  PLATFORM_ID,
  authHeaders,
  createTestApp,
  type TestContext,
  fieldText,
} from '../../test/app.js';
import { client } from '../../test/devices.js';

describe('logs and login statistics', () => {
  let t: TestContext;
  let admin: string;
  let companyB: string;
  let bossB: string;
  beforeAll(async () => {
    t = await createTestApp();
    companyB = await t.createCompany('company-b');
    await t.createUser({
      username: 'bossb',
      password: 'Boss-B-Pass-1',
      companyId: companyB,
      roleIds: [ADMIN_ROLE_ID],
    });
    admin = await t.login('admin', ADMIN_PASSWORD);
    bossB = await t.login('bossb', 'Boss-B-Pass-1');
  });
  afterAll(() => t.close());

  const get = (url: string, token: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: authHeaders(token, headers) });

  it('lists the login log of the current company only', async () => {
    const res = await get('/api/sys/log/list?logType=1&pageNo=1&pageSize=50', admin);
    expect(res.statusCode).toBe(200);
    const page = res.json().result;
    expect(page).toMatchObject({ current: 1, size: 50 });
    expect(page.total).toBeGreaterThan(0);
    expect(page.records.every((r: { username: string }) => r.username === 'admin')).toBe(true);
    expect(page.records[0].createTime).toMatch(/^\d{4}-\d\d-\d\dT/);

    const b = await get('/api/sys/log/list?logType=1', bossB);
    expect(b.statusCode).toBe(200);
    expect(b.json().result.records.map((r: { username: string }) => r.username)).toEqual(['bossb']);
  });

  it('refuses a company the user does not belong to', async () => {
    const res = await get('/api/sys/log/list', bossB, { 'x-company-id': PLATFORM_ID });
    expect(res.statusCode).toBe(403);
    const other = await get('/api/sys/loginfo', admin, { 'x-company-id': companyB });
    expect(other.statusCode).toBe(403);
    const garbage = await get('/api/sys/loginfo', admin, { 'x-company-id': "x' or '1'='1" });
    expect(garbage.statusCode).toBe(403);
  });

  it('acts in another company the user is a member of', async () => {
    const adminId = (
      await t.db
        .selectFrom('sys_user')
        .select('id')
        .where('username', '=', 'admin')
        .executeTakeFirstOrThrow()
    ).id;
    await t.db
      .insertInto('sys_user_company')
      .values({ user_id: adminId, company_id: companyB })
      .execute();
    await t.bus.publish('auth.user-changed', { userId: adminId });
    const res = await get('/api/sys/log/list?logType=1', admin, { 'x-company-id': companyB });
    expect(res.statusCode).toBe(200);
    expect(res.json().result.records.map((r: { username: string }) => r.username)).toEqual([
      'bossb',
    ]);
  });

  it('filters by keyword and time, sorts by whitelisted columns, pages', async () => {
    await t.login('admin', ADMIN_PASSWORD);
    const all = (
      await get('/api/sys/log/list?logType=1&pageSize=1&column=username&order=asc', admin)
    ).json().result;
    expect(all.records).toHaveLength(1);
    expect(all.pages).toBe(all.total);
    const none = await get('/api/sys/log/list?logType=1&keyWord=%25', admin);
    expect(none.json().result.total).toBe(0);
    const future = new Date(t.clock.now + 3600_000).toISOString();
    const later = await get(
      `/api/sys/log/list?logType=1&createTime_begin=${encodeURIComponent(future)}`,
      admin,
    );
    expect(later.json().result.total).toBe(0);
  });

  it.each([
    'column=updatexml(1,concat(0x7e,user(),0x7e),1)',
    'column=create_time',
    `order=${encodeURIComponent('desc;drop table x')}`,
    'pageSize=1001',
    'pageNo=0',
    'logType=3',
    `keyWord=${'x'.repeat(101)}`,
    'createTime_begin=yesterday',
    'companyId=anything',
  ])('refuses %s with 400', async (query) => {
    const res = await get(`/api/sys/log/list?${query}`, admin, { 'accept-language': 'en-US' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 400, result: null });
    expect(fieldText(res.json())).toMatch(/^\w+: /);
  });

  it('records operations by signed-in users, never reads', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/api/sys/selectDepart?x=1',
      headers: authHeaders(admin),
      payload: { username: 'admin', orgCode: 'A01A02' },
    });
    // The row is written after the response has gone out.
    const records = await vi.waitFor(async () => {
      const res = await get('/api/sys/log/list?logType=2', admin);
      const rows = res.json().result.records;
      expect(rows).toHaveLength(1);
      return rows;
    });
    expect(records[0]).toMatchObject({
      method: 'POST',
      requestUrl: '/api/sys/selectDepart',
      status: 200,
      username: 'admin',
      operateType: 'edit',
      logContent: '切换部门 admin',
    });
    expect(JSON.parse(records[0].requestParams)).toEqual({
      body: { username: 'admin', orgCode: 'A01A02' },
    });
  });

  // Issue 16: the type column showed POST, delete, selectDepart and the content `POST /api/...`.
  it('says what happened in words, in the reader’s language, with passwords left out', async () => {
    const added = await t.app.inject({
      method: 'POST',
      url: '/api/sys/user/add',
      headers: authHeaders(admin),
      payload: { username: 'viewer1', realname: 'Viewer', password: 'Viewer-Pass-77' },
    });
    expect(added.statusCode).toBe(200);
    const row = async (lang: string) =>
      vi.waitFor(async () => {
        const res = await get('/api/sys/log/list?logType=2&keyWord=viewer1', admin, {
          'accept-language': lang,
        });
        const rows = res.json().result.records;
        expect(rows).toHaveLength(1);
        return rows[0];
      });
    expect(await row('zh-CN')).toMatchObject({
      operateType: 'add',
      logContent: '新增用户 viewer1',
    });
    const en = await row('en-US');
    expect(en).toMatchObject({ operateType: 'add', logContent: 'Added user viewer1' });
    expect(en.requestParams).toContain('"username":"viewer1"');
    expect(en.requestParams).not.toContain('Viewer-Pass-77');
  });

  it('counts today’s logins, distinct IPs and all logins', async () => {
    const res = await get('/api/sys/loginfo', admin);
    expect(res.statusCode).toBe(200);
    const info = res.json().result;
    expect(info.todayVisitCount).toBeGreaterThanOrEqual(2);
    expect(info.todayIp).toBe(1);
    expect(info.totalVisitCount).toBe(info.todayVisitCount);
  });

  it('reports the last 7 days with zeros for quiet days', async () => {
    const res = await get('/api/sys/visitInfo', admin);
    const days = res.json().result;
    expect(days).toHaveLength(7);
    expect(
      days.slice(0, 6).every((d: { visit: number; ip: number }) => d.visit === 0 && d.ip === 0),
    ).toBe(true);
    expect(days[6].visit).toBeGreaterThan(0);
    expect(days[6].ymd).toMatch(/^\d{4}-\d\d-\d\d$/);
  });

  it('returns the caller’s last logins', async () => {
    const res = await get('/api/sys/user/lastLogins', bossB);
    expect(res.statusCode).toBe(200);
    expect(res.json().result.map((r: { username: string }) => r.username)).toEqual(['bossb']);
  });

  it('shows login rows in the reader’s language', async () => {
    const zh = await get('/api/sys/user/lastLogins', bossB);
    expect(zh.json().result[0].logContent).toBe('用户 bossb 登录成功');
    const en = await get('/api/sys/log/list?logType=1', bossB, { 'accept-language': 'en-US' });
    expect(en.json().result.records[0].logContent).toBe('User bossb logged in');
  });

  // Issue 16: deletes carry only ids, and the log said "删除设备" without saying which.
  describe('names the records a request acts on by id', () => {
    type Row = { logContent: string; requestUrl: string; requestParams: string | null };
    const rowFor = (url: string, id: string, lang: string, token = admin) =>
      vi.waitFor(async () => {
        const res = await get('/api/sys/log/list?logType=2&pageSize=200', token, {
          'accept-language': lang,
        });
        const row = (res.json().result.records as Row[]).find(
          (r) => r.requestUrl === url && (r.requestParams ?? '').includes(id),
        );
        expect(row).toBeDefined();
        return row as Row;
      });

    it.each([
      ['device', 'R40A0001', '删除设备 R40A0001', 'Deleted device R40A0001'],
      ['group', 'Lab north', '删除设备分组 Lab north', 'Deleted device group Lab north'],
      ['token', 'Plant key', '删除Token密钥 Plant key', 'Deleted token key Plant key'],
      ['role', 'Auditors', '删除角色 Auditors', 'Deleted role Auditors'],
      ['position', 'Night shift', '删除职务 Night shift', 'Deleted position Night shift'],
      ['announcement', 'Old notice', '删除通告 Old notice', 'Deleted announcement Old notice'],
    ])('a deleted %s: "%s"', async (kind, name, zh, en) => {
      const api = client(t, admin);
      let url = '';
      let id = '';
      if (kind === 'device') {
        const tokenId = (await api.ok('POST', '/device/token/add', { name: 'log names' })).id;
        id = (
          await api.ok('POST', '/device/device/add', {
            tokenId,
            sn: name,
            name: 'Gate',
            series: 'R40',
          })
        ).id;
        url = '/api/device/device/delete';
      } else if (kind === 'group') {
        id = (await api.ok('POST', '/device/group/add', { name })).id;
        url = '/api/device/group/delete';
      } else if (kind === 'token') {
        id = (await api.ok('POST', '/device/token/add', { name })).id;
        url = '/api/device/token/delete';
      } else if (kind === 'role') {
        id = (await api.ok('POST', '/sys/role/add', { roleCode: 'auditors', roleName: name })).id;
        url = '/api/sys/role/delete';
      } else if (kind === 'position') {
        id = (await api.ok('POST', '/sys/position/add', { code: 'night', name, postRank: '3' })).id;
        url = '/api/sys/position/delete';
      } else {
        id = (
          await api.ok('POST', '/sys/annountCement/add', {
            titile: name,
            msgContent: '<p>x</p>',
            priority: 'L',
            msgType: 'all',
          })
        ).id;
        url = '/api/sys/annountCement/delete';
      }
      const res = await t.app.inject({
        method: 'DELETE',
        url: `${url}?id=${id}`,
        headers: authHeaders(admin),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect((await rowFor(url, id, 'zh-CN')).logContent).toBe(zh);
      expect((await rowFor(url, id, 'en-US')).logContent).toBe(en);
    });

    it('lists the first names of a batch and counts the rest', async () => {
      const api = client(t, admin);
      const ids: string[] = [];
      for (let i = 1; i <= 7; i++) {
        ids.push(
          (
            await api.ok('POST', '/sys/user/add', {
              username: `batch${i}`,
              realname: `B${i}`,
              password: 'Batch-Pass-77',
            })
          ).id,
        );
      }
      const url = '/api/sys/user/deleteBatch';
      const res = await t.app.inject({
        method: 'DELETE',
        url: `${url}?ids=${ids.join(',')}`,
        headers: authHeaders(admin),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect((await rowFor(url, ids[0]!, 'zh-CN')).logContent).toBe(
        '删除用户 batch1, batch2, batch3, batch4, batch5 等 2 项',
      );
      expect((await rowFor(url, ids[0]!, 'en-US')).logContent).toBe(
        'Deleted user batch1, batch2, batch3, batch4, batch5 and 2 more',
      );
    });

    it('never names a record of another company', async () => {
      const group = await client(t, admin).ok('POST', '/device/group/add', {
        name: 'Secret group',
      });
      const url = '/api/device/group/delete';
      const res = await t.app.inject({
        method: 'DELETE',
        url: `${url}?id=${group.id}`,
        headers: authHeaders(bossB),
      });
      expect(res.statusCode).not.toBe(200);
      expect((await rowFor(url, group.id, 'zh-CN', bossB)).logContent).toBe('删除设备分组');
    });
  });
});
