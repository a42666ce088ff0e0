import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ADMIN_PASSWORD,
  authHeaders,
  createTestApp,
  type TestContext,
  fieldText,
} from '../../test/app.js';

describe('user self-service', () => {
  let t: TestContext;
  let admin: string;
  let operator: string;
  beforeAll(async () => {
    t = await createTestApp();
    await t.createUser({
      username: 'operator1',
      password: 'Operator-Pass-1',
      orgCodes: ['A01A02'],
    });
    admin = await t.login('admin', ADMIN_PASSWORD);
    operator = await t.login('operator1', 'Operator-Pass-1');
  });
  afterAll(() => t.close());

  const orgCodeOf = async (username: string) =>
    (
      await t.db
        .selectFrom('sys_user')
        .select('org_code')
        .where('username', '=', username)
        .executeTakeFirstOrThrow()
    ).org_code;

  it('lists the caller’s departments and the current one', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/sys/user/getCurrentUserDeparts?_t=1',
      headers: authHeaders(admin),
    });
    expect(res.statusCode).toBe(200);
    const { list, orgCode } = res.json().result;
    expect(orgCode).toBe('A01A01');
    expect(list.map((d: { departName: string }) => d.departName)).toEqual(['研发部', '运维部']);
  });

  it('makes the only department current at login', async () => {
    expect(await orgCodeOf('operator1')).toBe('A01A02');
  });

  describe('selectDepart', () => {
    const select = (token: string, payload: object) =>
      t.app.inject({
        method: 'POST',
        url: '/api/sys/selectDepart',
        headers: authHeaders(token),
        payload,
      });

    it('switches to another of the caller’s departments', async () => {
      const res = await select(admin, { username: 'admin', orgCode: 'A01A02' });
      expect(res.statusCode).toBe(200);
      expect(res.json().result.userInfo).toMatchObject({ username: 'admin', orgCode: 'A01A02' });
      const departs = await t.app.inject({
        method: 'GET',
        url: '/api/sys/user/getCurrentUserDeparts',
        headers: authHeaders(admin),
      });
      expect(departs.json().result.orgCode).toBe('A01A02');
    });

    it('refuses another user’s name and changes nothing', async () => {
      const res = await select(operator, { username: 'admin', orgCode: 'A01A01' });
      expect(res.statusCode).toBe(403);
      expect(await orgCodeOf('admin')).toBe('A01A02');
      expect(await orgCodeOf('operator1')).toBe('A01A02');
    });

    it('refuses a department that is not the caller’s and changes nothing', async () => {
      const res = await select(operator, { username: 'operator1', orgCode: 'A01A01' });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('拒绝访问：不是您的部门');
      expect(await orgCodeOf('operator1')).toBe('A01A02');
    });

    it('validates the body', async () => {
      const res = await select(admin, { username: 'admin' });
      expect(res.statusCode).toBe(400);
      expect(fieldText(res.json())).toBe('orgCode: 不能为空');
    });
  });

  describe('updatePassword', () => {
    const change = (token: string, payload: object, lang = 'zh-CN') =>
      t.app.inject({
        method: 'PUT',
        url: '/api/sys/user/updatePassword',
        headers: authHeaders(token, { 'accept-language': lang }),
        payload,
      });
    const body = (username: string, oldpassword: string, password: string) => ({
      username,
      oldpassword,
      password,
      confirmpassword: password,
    });

    it('refuses another user’s name and changes nothing', async () => {
      const before = await t.db
        .selectFrom('sys_user')
        .select('password_hash')
        .where('username', '=', 'admin')
        .executeTakeFirstOrThrow();
      const res = await change(operator, body('admin', 'Operator-Pass-1', 'Brand-New-Pass-9'));
      expect(res.statusCode).toBe(403);
      const after = await t.db
        .selectFrom('sys_user')
        .select('password_hash')
        .where('username', '=', 'admin')
        .executeTakeFirstOrThrow();
      expect(after.password_hash).toBe(before.password_hash);
      expect((await t.loginResponse('admin', ADMIN_PASSWORD)).statusCode).toBe(200);
    });

    it('refuses a wrong old password', async () => {
      const res = await change(
        operator,
        body('operator1', 'wrong-old-pass', 'Brand-New-Pass-9'),
        'en-US',
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Old password is incorrect');
      // Named as a field problem, so the console puts it under the field.
      expect(res.json().errors).toEqual([
        { field: 'oldpassword', message: 'Old password is incorrect' },
      ]);
    });

    it.each([
      ['short', 'password: must be at least 8 characters'],
      ['Operator-Pass-1', 'password: must differ from the old password'],
      ['aaaaaaaaaa', 'password: must not repeat a single character'],
      ['1234567890', 'password: must not be only digits'],
      ['Operator1', 'password: must not be the username'],
      ['Password123', 'password: is too common'],
    ])('refuses the easy password %s', async (password, message) => {
      const res = await change(operator, body('operator1', 'Operator-Pass-1', password), 'en-US');
      expect(res.statusCode).toBe(400);
      expect(fieldText(res.json())).toBe(message);
    });

    it('names the field in Chinese too', async () => {
      const res = await change(operator, body('operator1', 'Operator-Pass-1', 'short'));
      expect(fieldText(res.json())).toBe('password: 至少 8 个字符');
    });

    it('refuses a confirmation that differs', async () => {
      const res = await change(
        operator,
        { ...body('operator1', 'Operator-Pass-1', 'Brand-New-Pass-9'), confirmpassword: 'x' },
        'en-US',
      );
      expect(res.statusCode).toBe(400);
      expect(fieldText(res.json())).toBe('confirmpassword: must equal password');
    });

    it('changes the password and ends every session of the user', async () => {
      const second = await t.login('operator1', 'Operator-Pass-1');
      const res = await change(operator, body('operator1', 'Operator-Pass-1', 'Brand-New-Pass-9'));
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe('密码修改成功');
      for (const token of [operator, second]) {
        const probe = await t.app.inject({
          method: 'GET',
          url: '/api/sys/user/getCurrentUserDeparts',
          headers: authHeaders(token),
        });
        expect(probe.statusCode).toBe(401);
      }
      expect((await t.loginResponse('operator1', 'Operator-Pass-1')).statusCode).toBe(400);
      expect((await t.loginResponse('operator1', 'Brand-New-Pass-9')).statusCode).toBe(200);
      const adminProbe = await t.app.inject({
        method: 'GET',
        url: '/api/sys/loginfo',
        headers: authHeaders(admin),
      });
      expect(adminProbe.statusCode).toBe(200);
    });

    it('records the change in the operation log without the body', async () => {
      const rows = await vi.waitFor(async () => {
        const found = await t.db
          .selectFrom('sys_log')
          .selectAll()
          .where('log_type', '=', 2)
          .where('request_url', '=', '/api/sys/user/updatePassword')
          .execute();
        expect(found.length).toBeGreaterThan(0);
        return found;
      });
      expect(rows.map((r) => r.operate_type)).toContain('edit');
      expect(JSON.stringify(rows)).not.toMatch(/Brand-New-Pass|Operator-Pass/);
    });
  });
});
