import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ROLE_ID, departId } from '../../db/seed/seed.js';
import {
  ADMIN_PASSWORD,
  authHeaders,
  createTestApp,
  type TestContext,
  fieldText,
} from '../../test/app.js';

const R_AND_D = 'A01A01';
const OPERATIONS = 'A01A02';

describe('announcements', () => {
  let t: TestContext;
  let admin: string;
  let member: string;
  let memberId: string;
  let outsider: string;
  let companyB: string;
  let bossB: string;

  beforeAll(async () => {
    t = await createTestApp();
    memberId = await t.createUser({
      username: 'member',
      password: 'Member-Pass-1',
      orgCodes: [R_AND_D],
    });
    await t.createUser({
      username: 'outsider',
      password: 'Outsider-Pass-1',
      orgCodes: [OPERATIONS],
    });
    companyB = await t.createCompany('company-b');
    await t.createUser({
      username: 'bossb',
      password: 'Boss-B-Pass-1',
      companyId: companyB,
      roleIds: [ADMIN_ROLE_ID],
    });
    admin = await t.login('admin', ADMIN_PASSWORD);
    member = await t.login('member', 'Member-Pass-1');
    outsider = await t.login('outsider', 'Outsider-Pass-1');
    bossB = await t.login('bossb', 'Boss-B-Pass-1');
  });
  afterAll(() => t.close());

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    token: string,
    payload?: unknown,
    lang = 'en-US',
  ) =>
    t.app.inject({
      method,
      url,
      headers: authHeaders(token, { 'accept-language': lang }),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  const draft = (extra: Record<string, unknown> = {}) => ({
    titile: 'Maintenance tonight',
    msgContent: '<p>Servers restart at <b>22:00</b></p>',
    priority: 'H',
    msgType: 'depart',
    departIds: [departId(R_AND_D)],
    ...extra,
  });

  async function publish(extra: Record<string, unknown> = {}): Promise<string> {
    const add = await call('POST', '/api/sys/annountCement/add', admin, draft(extra));
    expect(add.statusCode, add.body).toBe(200);
    const id = add.json().result.id as string;
    const release = await call('GET', `/api/sys/annountCement/doReleaseData?id=${id}`, admin);
    expect(release.statusCode, release.body).toBe(200);
    return id;
  }

  const bell = async (token: string) => {
    const res = await call('GET', '/api/sys/annountCement/listByUser', token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result as {
      anntMsgList: { id: string; titile: string; readFlag: string; priority: string }[];
      anntMsgTotal: number;
      sysMsgList: { id: string; titile: string }[];
      sysMsgTotal: number;
    };
  };

  it('strips scripts and event handlers from the content and keeps the formatting', async () => {
    const res = await call(
      'POST',
      '/api/sys/annountCement/add',
      admin,
      draft({
        msgContent:
          '<p onclick="steal()">Hi <script>alert(1)</script><img src="x" onerror="alert(2)">' +
          '<a href="javascript:alert(3)">x</a><a href="https://example.com" target="_blank">ok</a>' +
          '<iframe src="https://evil.example"></iframe><strong>bold</strong></p>',
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const content = res.json().result.msgContent as string;
    expect(content).not.toMatch(/script|onclick|onerror|javascript:|iframe|alert/i);
    expect(content).toContain('<strong>bold</strong>');
    expect(content).toContain('href="https://example.com"');
    expect(content).toContain('rel="noopener noreferrer"');
  });

  it('delivers a published announcement to the chosen department only, unread', async () => {
    const before = await bell(member);
    const id = await publish();
    const mine = await bell(member);
    expect(mine.anntMsgTotal).toBe(before.anntMsgTotal + 1);
    expect(mine.anntMsgList[0]).toMatchObject({
      id,
      titile: 'Maintenance tonight',
      priority: 'H',
      readFlag: '0',
    });
    const theirs = await bell(outsider);
    expect(theirs.anntMsgList.map((a) => a.id)).not.toContain(id);

    const detail = await call('GET', `/api/sys/annountCement/queryById?id=${id}`, member);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().result).toMatchObject({ sender: 'admin', readFlag: '0' });
  });

  it('refuses to show or mark read an announcement addressed to someone else (404)', async () => {
    const id = await publish();
    const read = await call('GET', `/api/sys/annountCement/queryById?id=${id}`, outsider);
    expect(read.statusCode).toBe(404);
    expect(read.json().message).toBe('Announcement not found');
    const mark = await call('PUT', '/api/sys/sysAnnouncementSend/editByAnntIdAndUserId', outsider, {
      anntId: id,
    });
    expect(mark.statusCode).toBe(404);
    const injected = await call(
      'PUT',
      '/api/sys/sysAnnouncementSend/editByAnntIdAndUserId',
      member,
      {
        anntId: "x' or '1'='1",
      },
    );
    expect(injected.statusCode).toBe(400);
    expect(fieldText(injected.json())).toContain('anntId');
    // The member's own delivery is untouched by the outsider's attempt.
    const mine = await call('GET', `/api/sys/annountCement/queryById?id=${id}`, member);
    expect(mine.json().result.readFlag).toBe('0');
  });

  it('marks one read, then the count drops; read all clears the rest', async () => {
    const id = await publish();
    const before = await bell(member);
    const mark = await call('PUT', '/api/sys/sysAnnouncementSend/editByAnntIdAndUserId', member, {
      anntId: id,
    });
    expect(mark.statusCode).toBe(200);
    const after = await bell(member);
    expect(after.anntMsgTotal).toBe(before.anntMsgTotal - 1);
    expect(after.anntMsgList.map((a) => a.id)).not.toContain(id);

    const page = await call(
      'GET',
      '/api/sys/sysAnnouncementSend/getMyAnnouncementSend?readFlag=1&pageSize=50',
      member,
    );
    expect(page.json().result.records.map((r: { id: string }) => r.id)).toContain(id);

    const all = await call('PUT', '/api/sys/sysAnnouncementSend/readAll', member, {});
    expect(all.statusCode).toBe(200);
    expect((await bell(member)).anntMsgTotal).toBe(0);
  });

  it('revoking removes it from the recipients', async () => {
    const id = await publish({ titile: 'To be revoked' });
    expect((await bell(member)).anntMsgList.map((a) => a.id)).toContain(id);
    const revoke = await call(
      'GET',
      `/api/sys/annountCement/doReovkeData?id=${id}`,
      admin,
      undefined,
      'zh-CN',
    );
    expect(revoke.statusCode).toBe(200);
    expect(revoke.json().message).toBe('撤销成功');
    expect((await bell(member)).anntMsgList.map((a) => a.id)).not.toContain(id);
    const read = await call('GET', `/api/sys/annountCement/queryById?id=${id}`, member);
    expect(read.statusCode).toBe(404);
    const again = await call('GET', `/api/sys/annountCement/doReovkeData?id=${id}`, admin);
    expect(again.statusCode).toBe(409);
  });

  it('delivers to everyone of the company, and to chosen users and roles', async () => {
    const everyone = await publish({ msgType: 'all', departIds: [], titile: 'For all' });
    expect((await bell(member)).anntMsgList.map((a) => a.id)).toContain(everyone);
    expect((await bell(outsider)).anntMsgList.map((a) => a.id)).toContain(everyone);
    expect((await bell(bossB)).anntMsgList.map((a) => a.id)).not.toContain(everyone);

    const toUser = await publish({ msgType: 'user', departIds: [], userIds: [memberId] });
    expect((await bell(member)).anntMsgList.map((a) => a.id)).toContain(toUser);
    expect((await bell(outsider)).anntMsgList.map((a) => a.id)).not.toContain(toUser);

    const toAdmins = await publish({ msgType: 'role', departIds: [], roleIds: [ADMIN_ROLE_ID] });
    expect((await bell(admin)).anntMsgList.map((a) => a.id)).toContain(toAdmins);
    expect((await bell(member)).anntMsgList.map((a) => a.id)).not.toContain(toAdmins);
  });

  it('refuses a department, user or role of another company, naming the field', async () => {
    const departB = (
      await t.db
        .selectFrom('sys_depart')
        .select('id')
        .where('company_id', '=', companyB)
        .executeTakeFirst()
    )?.id;
    expect(departB).toBeUndefined();
    const bossBId = (
      await t.db
        .selectFrom('sys_user')
        .select('id')
        .where('username', '=', 'bossb')
        .executeTakeFirstOrThrow()
    ).id;
    // bossb's company has its own department; admin may not address it.
    await t.db
      .insertInto('sys_depart')
      .values({
        id: departId('B01'),
        company_id: companyB,
        parent_id: null,
        depart_name: 'B',
        depart_name_en: 'B',
        org_code: 'B01',
        org_category: 1,
        depart_order: 0,
        status: 1,
        create_time: t.clock.now,
      })
      .execute();
    const depart = await call(
      'POST',
      '/api/sys/annountCement/add',
      admin,
      draft({ departIds: [departId('B01')] }),
    );
    expect(depart.statusCode).toBe(400);
    expect(fieldText(depart.json())).toBe('departIds: choose departments of this company');
    const user = await call(
      'POST',
      '/api/sys/annountCement/add',
      admin,
      draft({ msgType: 'user', departIds: [], userIds: [bossBId] }),
    );
    expect(user.statusCode).toBe(400);
    expect(fieldText(user.json())).toMatch(/^userIds:/);
    const none = await call(
      'POST',
      '/api/sys/annountCement/add',
      admin,
      draft({ departIds: [] }),
      'zh-CN',
    );
    expect(none.statusCode).toBe(400);
    expect(fieldText(none.json())).toBe('departIds: 请至少选择一个接收对象');
  });

  it('validates priority, open page and time range', async () => {
    const priority = await call(
      'POST',
      '/api/sys/annountCement/add',
      admin,
      draft({ priority: 'X' }),
    );
    expect(priority.statusCode).toBe(400);
    expect(fieldText(priority.json())).toContain('priority');
    const url = await call(
      'POST',
      '/api/sys/annountCement/add',
      admin,
      draft({ openType: 'url', openPage: 'javascript:alert(1)' }),
    );
    expect(url.statusCode).toBe(400);
    expect(fieldText(url.json())).toMatch(/^openPage:/);
    const range = await call(
      'POST',
      '/api/sys/annountCement/add',
      admin,
      draft({ startTime: '2026-01-02T00:00:00Z', endTime: '2026-01-01T00:00:00Z' }),
    );
    expect(range.statusCode).toBe(400);
    expect(fieldText(range.json())).toMatch(/^endTime:/);
    const unknown = await call(
      'POST',
      '/api/sys/annountCement/add',
      admin,
      draft({ sendStatus: '1' }),
    );
    expect(unknown.statusCode).toBe(400);
  });

  it('keeps administration to holders of the permission codes, in their own company', async () => {
    const add = await call('POST', '/api/sys/annountCement/add', member, draft());
    expect(add.statusCode).toBe(403);
    const list = await call('GET', '/api/sys/annountCement/list', member);
    expect(list.statusCode).toBe(403);
    const id = await publish();
    const otherCompany = await call('GET', `/api/sys/annountCement/doReovkeData?id=${id}`, bossB);
    expect(otherCompany.statusCode).toBe(404);
    const listB = await call('GET', '/api/sys/annountCement/list?pageSize=100', bossB);
    expect(listB.json().result.total).toBe(0);
    const sorted = await call('GET', '/api/sys/annountCement/list?column=updatexml(1)', admin);
    expect(sorted.statusCode).toBe(400);
  });

  it('lists announcements with recipient and read counts, edits drafts only', async () => {
    const id = await publish({ titile: 'Counted' });
    await call('PUT', '/api/sys/sysAnnouncementSend/editByAnntIdAndUserId', member, { anntId: id });
    const list = await call('GET', '/api/sys/annountCement/list?titile=Counted', admin);
    expect(list.json().result.records[0]).toMatchObject({
      id,
      sendStatus: '1',
      recipients: 2,
      readCount: 1,
    });
    const edit = await call('PUT', '/api/sys/annountCement/edit', admin, { ...draft(), id });
    expect(edit.statusCode).toBe(409);
    const del = await call('DELETE', `/api/sys/annountCement/delete?id=${id}`, admin);
    expect(del.statusCode).toBe(200);
    const gone = await call('GET', `/api/sys/annountCement/queryById?id=${id}`, member);
    expect(gone.statusCode).toBe(404);
  });

  it('offers the users, department tree and roles of the current company', async () => {
    const res = await call('GET', '/api/sys/annountCement/audienceOptions', admin);
    const options = res.json().result;
    expect(options.users.map((u: { username: string }) => u.username)).toEqual(
      expect.arrayContaining(['admin', 'member', 'outsider']),
    );
    expect(options.users.map((u: { username: string }) => u.username)).not.toContain('bossb');
    expect(options.departs[0].children.map((d: { orgCode: string }) => d.orgCode)).toEqual([
      R_AND_D,
      OPERATIONS,
    ]);
    expect(options.roles.map((r: { roleCode: string }) => r.roleCode)).toEqual([
      'admin',
      'operator',
    ]);
  });

  const platformId = async () =>
    (
      await t.db
        .selectFrom('sys_company')
        .select('id')
        .where('code', '=', 'platform')
        .executeTakeFirstOrThrow()
    ).id;

  it('sends system messages from the platform to users and roles', async () => {
    const before = await bell(admin);
    const id = await t.app.announcements.sendSystemMessage({
      companyId: await platformId(),
      roles: ['admin'],
      userIds: [memberId],
      code: 'device.offline',
      params: { count: 1, seconds: 60, devices: 'R40-001 <script>x()</script>', more: 0 },
      priority: 'M',
      openType: 'url',
      openPage: '/device/device',
    });
    const adminBell = await bell(admin);
    expect(adminBell.sysMsgTotal).toBe(before.sysMsgTotal + 1);
    expect(adminBell.anntMsgTotal).toBe(before.anntMsgTotal);
    expect((await bell(member)).sysMsgList.map((m) => m.id)).toContain(id);
    expect((await bell(outsider)).sysMsgList.map((m) => m.id)).not.toContain(id);
    const detail = await call('GET', `/api/sys/annountCement/queryById?id=${id}`, member);
    expect(detail.json().result).toMatchObject({
      msgCategory: '2',
      sender: null,
      msgContent:
        '<p>These devices have been offline for more than 60 s: R40-001 &lt;script&gt;x()&lt;/script&gt;</p>',
    });
  });

  it('renders a system message in the reader’s language on every read path, never both', async () => {
    const id = await t.app.announcements.sendSystemMessage({
      companyId: await platformId(),
      userIds: [memberId],
      roles: ['admin'],
      code: 'device.offline',
      params: { count: 12, seconds: 60, devices: 'R40A0001, R40A0002', more: 10 },
      priority: 'M',
    });
    const zh = {
      titile: '12 台设备离线',
      msgContent: '<p>以下设备已离线超过 60 秒：R40A0001, R40A0002 等 10 台</p>',
    };
    const en = {
      titile: '12 device(s) offline',
      msgContent:
        '<p>These devices have been offline for more than 60 s: R40A0001, R40A0002 and 10 more</p>',
    };
    for (const [lang, expected] of [
      ['zh-CN', zh],
      ['en-US', en],
      ['en-GB,en;q=0.9', en],
      ['', zh],
    ] as const) {
      const read = (url: string, token = member) => call('GET', url, token, undefined, lang);
      const inBell = (await read('/api/sys/annountCement/listByUser')).json().result.sysMsgList;
      expect(inBell.find((m: { id: string }) => m.id === id)).toMatchObject(expected);
      const mine = (await read('/api/sys/sysAnnouncementSend/getMyAnnouncementSend?pageSize=100'))
        .json()
        .result.records.find((m: { id: string }) => m.id === id);
      expect(mine).toMatchObject(expected);
      const detail = (await read(`/api/sys/annountCement/queryById?id=${id}`)).json().result;
      expect(detail).toMatchObject(expected);
      const managed = (await read('/api/sys/annountCement/list?pageSize=100&msgCategory=2', admin))
        .json()
        .result.records.find((m: { id: string }) => m.id === id);
      expect(managed).toMatchObject(expected);
      for (const text of [detail.titile, detail.msgContent]) expect(text).not.toContain(' / ');
    }
  });

  it('shows a system message stored before codes existed as it was written', async () => {
    const id = await t.app.announcements.sendSystemMessage({
      companyId: await platformId(),
      userIds: [memberId],
      code: 'device.unstable',
      params: { count: 1, minutes: 10, times: 4, devices: 'R40A0003', more: 0 },
      priority: 'M',
    });
    await t.db
      .updateTable('sys_announcement')
      .set({ msg_code: null, msg_params: null, titile: 'Old text', msg_content: '<p>Old</p>' })
      .where('id', '=', id)
      .execute();
    for (const lang of ['zh-CN', 'en-US']) {
      const detail = await call(
        'GET',
        `/api/sys/annountCement/queryById?id=${id}`,
        member,
        undefined,
        lang,
      );
      expect(detail.json().result).toMatchObject({ titile: 'Old text', msgContent: '<p>Old</p>' });
    }
  });
});
