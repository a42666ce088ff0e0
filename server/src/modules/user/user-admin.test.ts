import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ROLE_ID, OPERATOR_ROLE_ID, departId, permissionId } from '../../db/seed/seed.js';
import { newId } from '../../platform/db/ids.js';
import {
  ADMIN_PASSWORD,
  PLATFORM_ID,
  authHeaders,
  createTestApp,
  type TestContext,
  fieldText,
} from '../../test/app.js';
import { createCompanyAdmin, createRole } from '../../test/company-admin.js';

const PASSWORD = 'Strong-Pass-42';
const USER_ADMIN_PERMS = [
  'account:user:list',
  'account:user:add',
  'account:user:edit',
  'account:user:delete',
  'account:user:freeze',
  'account:user:resetPassword',
  'account:user:import',
  'account:user:export',
];

describe('login account administration', () => {
  let t: TestContext;
  let admin: string;
  let acme: { companyId: string; roleId: string; userId: string };
  let acmeAdmin: string;
  let operator: string;
  /** An operator whose role never changes in this file. */
  let plain: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login('admin', ADMIN_PASSWORD);
    acme = await createCompanyAdmin(t, {
      code: 'acme',
      username: 'acmeadmin',
      password: PASSWORD,
      perms: USER_ADMIN_PERMS,
    });
    acmeAdmin = await t.login('acmeadmin', PASSWORD);
    await t.createUser({ username: 'operator1', password: PASSWORD });
    operator = await t.login('operator1', PASSWORD);
    await t.createUser({ username: 'plainop', password: PASSWORD });
    plain = await t.login('plainop', PASSWORD);
  });
  afterAll(() => t.close());

  const call = (
    token: string,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
    lang = 'en-US',
  ) =>
    t.app.inject({
      method,
      url: `/api${url}`,
      headers: authHeaders(token, { 'accept-language': lang }),
      ...(payload ? { payload } : {}),
    });
  const userId = async (username: string) =>
    (
      await t.db
        .selectFrom('sys_user')
        .select('id')
        .where('username', '=', username)
        .executeTakeFirstOrThrow()
    ).id;
  const usernamesOf = (res: { json(): { result: { records: { username: string }[] } } }) =>
    res.json().result.records.map((r) => r.username);

  describe('list', () => {
    it('shows a company administrator only their company’s users', async () => {
      const res = await call(acmeAdmin, 'GET', '/sys/user/list?pageSize=100');
      expect(res.statusCode).toBe(200);
      expect(usernamesOf(res)).toEqual(['acmeadmin']);
    });

    it('shows a platform administrator every company, and one company when asked', async () => {
      const all = await call(admin, 'GET', '/sys/user/list?pageSize=100');
      expect(usernamesOf(all)).toEqual(expect.arrayContaining(['admin', 'acmeadmin', 'operator1']));
      const one = await call(admin, 'GET', `/sys/user/list?companyId=${acme.companyId}`);
      expect(usernamesOf(one)).toEqual(['acmeadmin']);
    });

    it('refuses the company filter to a company administrator', async () => {
      const res = await call(acmeAdmin, 'GET', `/sys/user/list?companyId=${PLATFORM_ID}`);
      expect(res.statusCode).toBe(403);
    });

    it('filters by name, status and department and returns roles and departments', async () => {
      const res = await call(
        admin,
        'GET',
        `/sys/user/list?username=dmi&status=1&realname=${encodeURIComponent('管理')}`,
        undefined,
        'zh-CN',
      );
      const [row] = res.json().result.records;
      expect(usernamesOf(res)).toEqual(['admin']);
      expect(row.roleNames).toEqual(['管理员']);
      expect(row.departNames).toEqual(['研发部', '运维部']);
      const byDepart = await call(admin, 'GET', `/sys/user/list?departId=${departId('A01A02')}`);
      expect(usernamesOf(byDepart)).toEqual(['admin']);
      const literal = await call(admin, 'GET', '/sys/user/list?username=%25');
      expect(usernamesOf(literal)).toEqual([]);
    });

    it.each([
      ['column=updatexml(1,concat(0x7e,user(),0x7e),1)'],
      ['order=desc;drop table sys_user'],
      ['column=password_hash'],
      ['pageSize=100000'],
      ['realname=x&password=y'],
    ])('refuses %s', async (query) => {
      const res = await call(admin, 'GET', `/sys/user/list?${query}`);
      expect(res.statusCode).toBe(400);
    });
  });

  describe('add', () => {
    const body = (extra: object = {}) => ({
      username: 'newbie',
      realname: 'New Bie',
      password: PASSWORD,
      phone: '13800000001',
      email: 'newbie@example.com',
      roleIds: [OPERATOR_ROLE_ID],
      departIds: [departId('A01A02')],
      positionIds: [],
      ...extra,
    });

    it('adds a user who can log in and gets the menu of their roles', async () => {
      const res = await call(admin, 'POST', '/sys/user/add', body());
      expect(res.statusCode).toBe(200);
      expect(res.json().result).toMatchObject({
        username: 'newbie',
        roleIds: [OPERATOR_ROLE_ID],
        departIds: [departId('A01A02')],
        companyId: PLATFORM_ID,
        status: 1,
      });
      const token = await t.login('newbie', PASSWORD);
      const menu = await call(token, 'GET', '/sys/permission/getUserPermissionByToken');
      expect(menu.json().result.menu.map((m: { path: string }) => m.path)).toEqual([
        '/dashboard/analysis',
        '/device',
        '/alarm',
        '/base',
        '/isps/userAnnouncement',
      ]);
    });

    it.each([
      ['username', { username: 'newbie' }, 409, 'Username already exists!'],
      [
        'phone',
        { username: 'other1', phone: '13800000001' },
        409,
        'Contact number already exists!',
      ],
      [
        'email',
        { username: 'other2', phone: null, email: 'newbie@example.com' },
        409,
        'Email already exists!',
      ],
      [
        'weak password',
        { username: 'other3', phone: null, email: null, password: '12345678901' },
        400,
        'password: must not be only digits',
      ],
      [
        'bad phone',
        { username: 'other4', phone: '123', email: null },
        400,
        'phone: must be a valid mobile number',
      ],
      ['bad username', { username: 'bad name' }, 400, 'username: letters and digits only'],
    ])('refuses a duplicate or invalid %s', async (_, extra, status, message) => {
      const res = await call(admin, 'POST', '/sys/user/add', body(extra));
      expect(res.statusCode).toBe(status);
      expect(fieldText(res.json())).toBe(message);
    });

    it.each([['status'], ['del_flag'], ['password_hash'], ['isPlatform']])(
      'refuses the field %s that the form does not offer',
      async (field) => {
        const res = await call(
          admin,
          'POST',
          '/sys/user/add',
          body({ username: 'mass1', [field]: 1 }),
        );
        expect(res.statusCode).toBe(400);
        expect(
          await t.db
            .selectFrom('sys_user')
            .select('id')
            .where('username', '=', 'mass1')
            .executeTakeFirst(),
        ).toBeUndefined();
      },
    );

    it('refuses roles and departments of another company', async () => {
      const role = await call(
        admin,
        'POST',
        '/sys/user/add',
        body({ username: 'x1', phone: null, email: null, roleIds: [acme.roleId] }),
      );
      expect(role.statusCode).toBe(400);
      expect(fieldText(role.json())).toBe('roleIds: contains an entry of another company');
      const depart = await call(
        acmeAdmin,
        'POST',
        '/sys/user/add',
        body({
          username: 'x2',
          phone: null,
          email: null,
          roleIds: [],
          departIds: [departId('A01A01')],
        }),
      );
      expect(depart.statusCode).toBe(400);
      expect(fieldText(depart.json())).toBe('departIds: contains an entry of another company');
    });

    it('lets a platform administrator add a user to a customer company', async () => {
      const res = await call(
        admin,
        'POST',
        '/sys/user/add',
        body({
          username: 'acmeuser',
          phone: null,
          email: null,
          roleIds: [],
          departIds: [],
          companyId: acme.companyId,
        }),
      );
      expect(res.statusCode).toBe(200);
      expect(res.json().result.companyId).toBe(acme.companyId);
      const list = await call(acmeAdmin, 'GET', '/sys/user/list?pageSize=100');
      expect(usernamesOf(list)).toContain('acmeuser');
    });

    it('keeps a company administrator in their company', async () => {
      const res = await call(
        acmeAdmin,
        'POST',
        '/sys/user/add',
        body({
          username: 'sneaky',
          phone: null,
          email: null,
          roleIds: [],
          departIds: [],
          companyId: PLATFORM_ID,
        }),
      );
      expect(res.statusCode).toBe(403);
      const own = await call(
        acmeAdmin,
        'POST',
        '/sys/user/add',
        body({ username: 'acmeuser2', phone: null, email: null, roleIds: [], departIds: [] }),
      );
      expect(own.statusCode).toBe(200);
      expect(own.json().result.companyId).toBe(acme.companyId);
    });
  });

  describe('escalation and tenancy', () => {
    it('does not find another company’s user by id', async () => {
      const adminId = await userId('admin');
      const edit = await call(acmeAdmin, 'PUT', '/sys/user/edit', {
        id: adminId,
        realname: 'pwned',
      });
      expect(edit.statusCode).toBe(404);
      const role = await call(acmeAdmin, 'GET', `/sys/user/queryUserRole?userid=${adminId}`);
      expect(role.statusCode).toBe(404);
      const freeze = await call(acmeAdmin, 'PUT', '/sys/user/frozenBatch', {
        ids: adminId,
        status: '2',
      });
      expect(freeze.statusCode).toBe(404);
      const del = await call(acmeAdmin, 'DELETE', `/sys/user/delete?id=${adminId}`);
      expect(del.statusCode).toBe(404);
    });

    it('does not reset the platform administrator’s password', async () => {
      const res = await call(acmeAdmin, 'PUT', '/sys/user/changePassword', {
        username: 'admin',
        password: 'Taken-Over-77',
        confirmpassword: 'Taken-Over-77',
      });
      expect(res.statusCode).toBe(404);
      expect((await t.loginResponse('admin', ADMIN_PASSWORD)).statusCode).toBe(200);
    });

    it('refuses a user assigning themselves a role', async () => {
      const richer = await createRole(t, acme.companyId, 'richer', [
        ...USER_ADMIN_PERMS,
        'account:role:list',
      ]);
      const res = await call(acmeAdmin, 'PUT', '/sys/user/edit', {
        id: acme.userId,
        realname: 'me',
        roleIds: [acme.roleId, richer],
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('You cannot do this to your own account');
    });

    it('refuses handing out a role that carries permissions the caller lacks', async () => {
      const richer = await createRole(t, acme.companyId, 'richer2', ['account:role:list']);
      const target = await userId('acmeuser');
      const res = await call(acmeAdmin, 'PUT', '/sys/user/edit', {
        id: target,
        realname: 'u',
        roleIds: [richer],
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(
        'Access denied: you cannot grant or revoke permissions you do not hold',
      );
      const roles = await call(admin, 'GET', `/sys/user/queryUserRole?userid=${target}`);
      expect(roles.json().result).toEqual([]);
    });

    it('refuses acting on a user who holds more than the caller', async () => {
      const richer = await createRole(t, acme.companyId, 'richer3', ['account:role:list']);
      const boss = await t.createUser({
        username: 'acmeboss',
        password: PASSWORD,
        companyId: acme.companyId,
        roleIds: [richer],
      });
      const reset = await call(acmeAdmin, 'PUT', '/sys/user/changePassword', {
        username: 'acmeboss',
        password: 'Taken-Over-77',
        confirmpassword: 'Taken-Over-77',
      });
      expect(reset.statusCode).toBe(403);
      const freeze = await call(acmeAdmin, 'PUT', '/sys/user/frozenBatch', {
        ids: boss,
        status: '2',
      });
      expect(freeze.statusCode).toBe(403);
      expect((await t.loginResponse('acmeboss', PASSWORD)).statusCode).toBe(200);
    });
  });

  describe('role changes', () => {
    it('take effect on the user’s next request, and the permission version changes', async () => {
      const id = await userId('operator1');
      const before = await call(operator, 'GET', '/sys/user/list');
      expect(before.statusCode).toBe(403);
      const version = before.headers['x-permission-version'];
      expect(version).toBeTruthy();
      const viewer = await createRole(t, PLATFORM_ID, 'viewer', ['account:user:list']);
      const edit = await call(admin, 'PUT', '/sys/user/edit', {
        id,
        realname: 'Operator One',
        roleIds: [OPERATOR_ROLE_ID, viewer],
      });
      expect(edit.statusCode).toBe(200);
      const after = await call(operator, 'GET', '/sys/user/list');
      expect(after.statusCode).toBe(200);
      expect(after.headers['x-permission-version']).not.toBe(version);
      const menu = await call(operator, 'GET', '/sys/permission/getUserPermissionByToken');
      expect(JSON.stringify(menu.json().result.menu)).toContain('/account/user');
    });
  });

  describe('department changes', () => {
    it('end the department roles of a department the user leaves, on their next request', async () => {
      const id = await t.createUser({
        username: 'deptuser',
        password: PASSWORD,
        orgCodes: ['A01A02'],
      });
      const token = await t.login('deptuser', PASSWORD);
      const droleId = newId();
      await t.db
        .insertInto('sys_depart_role')
        .values({
          id: droleId,
          depart_id: departId('A01A02'),
          role_name: 'Logs',
          role_code: 'logs',
          create_time: t.clock.now,
        })
        .execute();
      for (const key of ['system', 'system-log']) {
        await t.db
          .insertInto('sys_depart_role_permission')
          .values({
            depart_id: departId('A01A02'),
            role_id: droleId,
            permission_id: permissionId(key),
            data_rule_ids: null,
          })
          .execute();
      }
      await t.db
        .insertInto('sys_depart_role_user')
        .values({ user_id: id, drole_id: droleId })
        .execute();
      await t.bus.publish('auth.permissions-changed', { userId: id });
      expect((await call(token, 'GET', '/sys/log/list')).statusCode).toBe(200);

      const edit = await call(admin, 'PUT', '/sys/user/edit', {
        id,
        realname: 'Dept User',
        roleIds: [OPERATOR_ROLE_ID],
        departIds: [],
      });
      expect(edit.statusCode).toBe(200);
      expect((await call(token, 'GET', '/sys/log/list')).statusCode).toBe(403);
      const row = await t.db
        .selectFrom('sys_user')
        .select('org_code')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.org_code).toBeNull();
    });
  });

  describe('freeze', () => {
    it('ends a frozen user’s sessions and stops their logins until unfrozen', async () => {
      const token = await t.login('newbie', PASSWORD);
      const id = await userId('newbie');
      const res = await call(admin, 'PUT', '/sys/user/frozenBatch', { ids: id, status: '2' });
      expect(res.statusCode).toBe(200);
      const probe = await call(token, 'GET', '/sys/user/getCurrentUserDeparts');
      expect(probe.statusCode).toBe(401);
      // The session's end says why, in the user's language, for the login page to show.
      expect(probe.json().message).toBe('This account is frozen');
      const zh = await call(token, 'GET', '/sys/user/getCurrentUserDeparts', undefined, 'zh-CN');
      expect(zh.json().message).toBe('该用户已冻结');
      const login = await t.loginResponse('newbie', PASSWORD);
      expect(login.statusCode).toBe(403);
      const list = await call(admin, 'GET', '/sys/user/list?status=2');
      expect(usernamesOf(list)).toEqual(['newbie']);
      await call(admin, 'PUT', '/sys/user/frozenBatch', { ids: id, status: '1' });
      expect((await t.loginResponse('newbie', PASSWORD)).statusCode).toBe(200);
    });

    it('refuses freezing yourself and bad ids', async () => {
      const self = await call(admin, 'PUT', '/sys/user/frozenBatch', {
        ids: await userId('admin'),
        status: '2',
      });
      expect(self.statusCode).toBe(400);
      const bad = await call(admin, 'PUT', '/sys/user/frozenBatch', {
        ids: "x' or '1'='1",
        status: '2',
      });
      expect(bad.statusCode).toBe(400);
      expect(fieldText(bad.json())).toBe('ids: not a valid list of ids');
    });
  });

  describe('reset password', () => {
    it('sets a new password and ends the user’s sessions', async () => {
      const token = await t.login('newbie', PASSWORD);
      const res = await call(admin, 'PUT', '/sys/user/changePassword', {
        username: 'newbie',
        password: 'Fresh-Start-88',
        confirmpassword: 'Fresh-Start-88',
      });
      expect(res.statusCode).toBe(200);
      expect((await call(token, 'GET', '/sys/user/getCurrentUserDeparts')).statusCode).toBe(401);
      expect((await t.loginResponse('newbie', PASSWORD)).statusCode).toBe(400);
      expect((await t.loginResponse('newbie', 'Fresh-Start-88')).statusCode).toBe(200);
    });

    it('enforces the password policy', async () => {
      const res = await call(admin, 'PUT', '/sys/user/changePassword', {
        username: 'newbie',
        password: 'password123',
        confirmpassword: 'password123',
      });
      expect(res.statusCode).toBe(400);
      expect(fieldText(res.json())).toBe('password: is too common');
    });
  });

  describe('delete', () => {
    it('refuses deleting yourself', async () => {
      const res = await call(admin, 'DELETE', `/sys/user/delete?id=${await userId('admin')}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('You cannot do this to your own account');
    });

    it('refuses deleting or freezing the last administrator of a company', async () => {
      const second = await t.createUser({
        username: 'acmeadmin2',
        password: PASSWORD,
        companyId: acme.companyId,
        roleIds: [acme.roleId],
      });
      const first = await call(acmeAdmin, 'DELETE', `/sys/user/delete?id=${second}`);
      expect(first.statusCode).toBe(200);
      const last = await call(admin, 'DELETE', `/sys/user/delete?id=${acme.userId}`);
      expect(last.statusCode).toBe(400);
      expect(last.json().message).toBe(
        'The last administrator cannot be deleted, frozen or demoted',
      );
      const freeze = await call(admin, 'PUT', '/sys/user/frozenBatch', {
        ids: acme.userId,
        status: '2',
      });
      expect(freeze.statusCode).toBe(400);
      const demote = await call(admin, 'PUT', '/sys/user/edit', {
        id: acme.userId,
        realname: 'x',
        roleIds: [],
      });
      expect(demote.statusCode).toBe(400);
    });

    it('soft-deletes: the user disappears, their sessions end and the name stays reserved', async () => {
      const token = await t.login('acmeuser2', PASSWORD);
      const id = await userId('acmeuser2');
      const res = await call(admin, 'DELETE', `/sys/user/deleteBatch?ids=${id}`);
      expect(res.statusCode).toBe(200);
      expect((await call(token, 'GET', '/sys/user/getCurrentUserDeparts')).statusCode).toBe(401);
      expect(usernamesOf(await call(admin, 'GET', '/sys/user/list?username=acmeuser2'))).toEqual(
        [],
      );
      expect((await t.loginResponse('acmeuser2', PASSWORD)).statusCode).toBe(400);
      const row = await t.db
        .selectFrom('sys_user')
        .select('del_flag')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.del_flag).toBe(1);
    });
  });

  describe('export and import', () => {
    /** 09:23:38 UTC is 17:23:38 in Shanghai and 04:23:38 in New York. */
    const created = Date.UTC(2026, 10, 25, 9, 23, 38, 362);
    const setCreated = () =>
      t.db
        .updateTable('sys_user')
        .set({ create_time: created })
        .where('username', '=', 'newbie')
        .execute();
    const csvLines = (body: string) => body.replace(/^\uFEFF/, '').split('\r\n');

    it.each([
      [
        'zh-CN',
        'Asia/Shanghai',
        '用户账号,用户姓名,手机号,邮箱,状态,创建时间',
        'newbie,New Bie,13800000001,newbie@example.com,正常,2026-11-25 17:23:38',
      ],
      [
        'en-US',
        'America/New_York',
        'Username,Name,Phone,Email,Status,Created',
        'newbie,New Bie,13800000001,newbie@example.com,Normal,2026-11-25 04:23:38',
      ],
    ])('exports CSV in %s with local times of %s', async (lang, tz, header, row) => {
      await setCreated();
      const url = `/sys/user/exportXls?format=csv&username=newbie&tz=${encodeURIComponent(tz)}`;
      const csv = await call(admin, 'GET', url, undefined, lang);
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-disposition']).toBe(
        `attachment; filename="users.csv"; filename*=UTF-8''users.csv`,
      );
      expect(csvLines(csv.body).slice(0, 2)).toEqual([header, row]);
    });

    it('exports XLSX with the creation time as a date cell of the requested zone', async () => {
      await setCreated();
      const xlsx = await call(admin, 'GET', '/sys/user/exportXls?format=xlsx&tz=Asia%2FShanghai');
      expect(xlsx.headers['content-type']).toContain('spreadsheetml');
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
      const sheet = book.worksheets[0];
      const names: string[] = [];
      sheet?.eachRow((row) => names.push(String(row.getCell(1).value)));
      expect(names).toEqual(expect.arrayContaining(['Username', 'admin', 'newbie']));
      const row = sheet?.getRow(names.indexOf('newbie') + 1);
      expect(row?.getCell(5).value).toBe('Normal');
      const time = row?.getCell(6);
      expect(time?.type).toBe(ExcelJS.ValueType.Date);
      // A spreadsheet date has no zone: it holds the Shanghai wall-clock reading.
      expect(time?.value).toEqual(new Date(Date.UTC(2026, 10, 25, 17, 23, 38)));
      expect(time?.numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    });

    it('refuses a time zone that does not exist', async () => {
      const url = '/sys/user/exportXls?format=csv&tz=Mars%2FOlympus';
      const res = await call(admin, 'GET', url, undefined, 'zh-CN');
      expect(res.statusCode).toBe(400);
      expect(fieldText(res.json())).toBe('tz: 必须是 IANA 时区，如 Asia/Shanghai');
    });

    it('still defuses a cell that would run as a formula', async () => {
      await t.db
        .updateTable('sys_user')
        .set({ realname: '=HYPERLINK("x")' })
        .where('username', '=', 'newbie')
        .execute();
      const csv = await call(admin, 'GET', '/sys/user/exportXls?format=csv&username=newbie');
      expect(csvLines(csv.body)[1]).toContain(`,"'=HYPERLINK(""x"")",`);
      await t.db
        .updateTable('sys_user')
        .set({ realname: 'New Bie' })
        .where('username', '=', 'newbie')
        .execute();
    });

    it('imports again what it exported, labels and all', async () => {
      const exported = await call(
        admin,
        'GET',
        '/sys/user/exportXls?format=csv&username=newbie',
        undefined,
        'zh-CN',
      );
      const [header = '', row = ''] = csvLines(exported.body);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/sys/user/importExcel',
        headers: authHeaders(acmeAdmin, { 'content-type': 'text/csv', 'accept-language': 'en-US' }),
        payload: [header, row.replace('newbie,', 'roundtrip,').replace('正常', '冻结')]
          .map((l) => l.replace(/13800000001|newbie@example.com/g, ''))
          .join('\n'),
      });
      expect(res.json().result).toEqual({ created: 1, errors: [] });
      const list = await call(acmeAdmin, 'GET', '/sys/user/list?username=roundtrip');
      expect(list.json().result.records.map((r: { status: number }) => r.status)).toEqual([2]);
    });

    it('imports valid rows into the current company and reports the bad ones', async () => {
      const file = [
        'username,realname,phone,email,status',
        'imported1,Imported One,13900000001,,1',
        'newbie,Duplicate,,,1',
        'bad name,Bad,,,1',
        'imported2,"Two, with comma",,i2@example.com,2',
      ].join('\n');
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/sys/user/importExcel',
        headers: authHeaders(acmeAdmin, { 'content-type': 'text/csv', 'accept-language': 'en-US' }),
        payload: file,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().result).toEqual({
        created: 2,
        errors: [
          { row: 3, message: 'Username already exists!' },
          { row: 4, message: 'username: invalid format' },
        ],
      });
      const list = await call(acmeAdmin, 'GET', '/sys/user/list?username=imported');
      expect(
        list
          .json()
          .result.records.map((r: { realname: string; status: number }) => [r.realname, r.status]),
      ).toEqual(
        expect.arrayContaining([
          ['Imported One', 1],
          ['Two, with comma', 2],
        ]),
      );
    });

    it('refuses a file without a username column', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/sys/user/importExcel',
        headers: authHeaders(admin, { 'content-type': 'text/csv' }),
        payload: 'name\nx',
      });
      expect(res.statusCode).toBe(400);
    });
  });

  describe('permission denial', () => {
    it.each([
      ['GET', '/sys/user/list'],
      ['GET', `/sys/user/queryUserRole?userid=${'a'.repeat(32)}`],
      ['GET', '/sys/user/checkOnlyUser?username=admin'],
      ['GET', `/sys/user/queryUserByDepId?id=${'a'.repeat(32)}`],
      ['POST', '/sys/user/add'],
      ['PUT', '/sys/user/edit'],
      ['PUT', '/sys/user/frozenBatch'],
      ['PUT', '/sys/user/changePassword'],
      ['DELETE', `/sys/user/delete?id=${'a'.repeat(32)}`],
      ['DELETE', `/sys/user/deleteBatch?ids=${'a'.repeat(32)}`],
      ['GET', '/sys/user/exportXls'],
      ['POST', '/sys/user/importExcel'],
    ] as const)('%s %s needs its permission', async (method, url) => {
      const res = await call(
        plain,
        method,
        url,
        method === 'GET' || method === 'DELETE' ? undefined : {},
      );
      expect(res.statusCode).toBe(403);
      const anonymous = await t.app.inject({ method, url: `/api${url}` });
      expect(anonymous.statusCode).toBe(401);
    });
  });

  describe('helpers of the form', () => {
    it('checks that a username is free', async () => {
      const taken = await call(admin, 'GET', '/sys/user/checkOnlyUser?username=admin');
      expect(taken.statusCode).toBe(409);
      expect(taken.json().message).toBe('Username already exists!');
      const free = await call(admin, 'GET', '/sys/user/checkOnlyUser?username=nobody42');
      expect(free.statusCode).toBe(200);
      const self = await call(
        admin,
        'GET',
        `/sys/user/checkOnlyUser?username=admin&id=${await userId('admin')}`,
      );
      expect(self.statusCode).toBe(200);
    });

    it('lists a department’s users, only in the current company', async () => {
      const res = await call(admin, 'GET', `/sys/user/queryUserByDepId?id=${departId('A01A01')}`);
      expect(res.json().result.map((u: { username: string }) => u.username)).toEqual(['admin']);
      const other = await call(
        acmeAdmin,
        'GET',
        `/sys/user/queryUserByDepId?id=${departId('A01A01')}`,
      );
      expect(other.statusCode).toBe(404);
    });

    it('returns a user’s role ids', async () => {
      const res = await call(
        admin,
        'GET',
        `/sys/user/queryUserRole?userid=${await userId('admin')}`,
      );
      expect(res.json().result).toEqual([ADMIN_ROLE_ID]);
    });
  });
});
