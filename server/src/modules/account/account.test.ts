import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ZLoginResult } from '@blrms/contracts';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  authHeaders,
  createTestApp,
  type TestContext,
  fieldText,
} from '../../test/app.js';
import { lastCode, outboxFor } from '../../test/outbox.js';

const EN = { 'accept-language': 'en-US' };
const RESEND_MS = 61_000;

describe('self-service accounts: register, phone login, password reset', () => {
  let t: TestContext;
  let dataDir: string;
  let adminToken: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blrms-accounts-'));
    t = await createTestApp({
      env: { DATA_DIR: dataDir },
      app: { accountRateLimits: { sendCode: 10_000, verify: 10_000, check: 10_000 } },
    });
    adminToken = await t.login('admin', ADMIN_PASSWORD);
    const known = await t.createUser({ username: 'known1', password: 'Known-Pass-1' });
    await t.db
      .updateTable('sys_user')
      .set({ phone: '13800000001', email: 'known1@example.com' })
      .where('id', '=', known)
      .execute();
    const frozen = await t.createUser({
      username: 'frozen2',
      password: 'Frozen-Pass-2',
      status: 2,
    });
    await t.db
      .updateTable('sys_user')
      .set({ phone: '13800000009' })
      .where('id', '=', frozen)
      .execute();
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: `/api${url}`, payload: payload as object, headers });
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `/api${url}`, headers });

  /** Sends a code and waits out the resend pause, so the next send to the same target is allowed. */
  async function emailCode(email: string): Promise<string> {
    const res = await post('/sys/user/registerEmailCode', { email });
    expect(res.statusCode).toBe(200);
    t.clock.advance(RESEND_MS);
    return lastCode(dataDir, email);
  }

  const registration = (over: Record<string, unknown> = {}) => ({
    username: 'newbie1',
    phone: '13900000001',
    email: 'newbie1@example.com',
    emailCode: '000000',
    password: 'Str0ng-Passw0rd',
    confirmpassword: 'Str0ng-Passw0rd',
    ...over,
  });

  describe('registration', () => {
    it('reports taken usernames, phones and emails with the spec messages in both languages', async () => {
      const zh = await get('/sys/user/registerCheck?field=username&value=admin');
      expect(zh.statusCode).toBe(409);
      expect(zh.json().message).toBe('用户名已存在!');
      const en = await get('/sys/user/registerCheck?field=username&value=admin', EN);
      expect(en.json().message).toBe('Username already exists!');
      const phone = await get('/sys/user/registerCheck?field=phone&value=13800000001', EN);
      expect(phone.json().message).toBe('Contact number already exists!');
      const email = await get('/sys/user/registerCheck?field=email&value=KNOWN1@example.com', EN);
      expect(email.statusCode).toBe(409);
      expect(email.json().message).toBe('Email already exists!');
      const free = await get('/sys/user/registerCheck?field=username&value=nobodyyet');
      expect(free.statusCode).toBe(200);
    });

    it('only checks the three registration fields', async () => {
      const res = await get('/sys/user/registerCheck?field=password_hash&value=x', EN);
      expect(res.statusCode).toBe(400);
      expect(fieldText(res.json())).toMatch(/^field: must be one of/);
    });

    it('registers through the emailed code; the user administers a company of their own', async () => {
      const code = await emailCode('newbie1@example.com');
      const mail = outboxFor(dataDir, 'newbie1@example.com').at(-1);
      expect(mail?.channel).toBe('mail');
      expect(mail?.subject).toBe('BLRMS 验证码');

      const res = await post('/sys/user/register', registration({ emailCode: code }));
      expect(res.statusCode).toBe(200);
      expect(res.json().result).toEqual({ username: 'newbie1', email: 'newbie1@example.com' });

      const token = await t.login('newbie1', 'Str0ng-Passw0rd');
      const user = await t.db
        .selectFrom('sys_user as u')
        .innerJoin('sys_company as c', 'c.id', 'u.company_id')
        .select(['u.id', 'u.phone', 'c.is_platform', 'c.id as companyId'])
        .where('u.username', '=', 'newbie1')
        .executeTakeFirstOrThrow();
      expect(user.is_platform).toBe(0);
      expect(user.companyId).not.toBe(t.dialect && (await platformId()));
      const roles = await t.db
        .selectFrom('sys_user_role as ur')
        .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
        .select(['r.role_code', 'r.company_id'])
        .where('ur.user_id', '=', user.id)
        .execute();
      expect(roles).toEqual([{ role_code: 'admin', company_id: user.companyId }]);

      // A company administrator: the company's pages, not the platform's.
      const logs = await get('/sys/log/list', authHeaders(token));
      expect(logs.statusCode).toBe(200);
      const rules = await get('/sys/checkRule/list', authHeaders(token));
      expect(rules.statusCode).toBe(403);
      const sms = await get('/sys/setting/sms', authHeaders(token));
      expect(sms.statusCode).toBe(403);
      const menu = await get('/sys/permission/getUserPermissionByToken', authHeaders(token));
      const paths = JSON.stringify(menu.json().result.menu);
      expect(paths).toContain('/system/log');
      expect(paths).not.toContain('/system/checkRule');

      const departs = await get('/sys/user/getCurrentUserDeparts', authHeaders(token));
      expect(departs.json().result.list).toHaveLength(1);
    });

    it('checks the code on leaving the email step, without using it up', async () => {
      const code = await emailCode('stepcheck@example.com');
      const wrong = await post(
        '/sys/user/registerCodeCheck',
        { email: 'stepcheck@example.com', emailCode: code === '000000' ? '111111' : '000000' },
        EN,
      );
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().message).toBe('Invalid verification code');
      const right = await post('/sys/user/registerCodeCheck', {
        email: 'StepCheck@example.com',
        emailCode: code,
      });
      expect(right.statusCode).toBe(200);
      const registered = await post(
        '/sys/user/register',
        registration({
          username: 'stepcheck',
          phone: '13900000021',
          email: 'stepcheck@example.com',
          emailCode: code,
        }),
      );
      expect(registered.statusCode).toBe(200);
    });

    it('does not take the same code twice', async () => {
      const code = await emailCode('twice@example.com');
      const first = await post(
        '/sys/user/register',
        registration({
          username: 'twice1',
          phone: '13900000011',
          email: 'twice@example.com',
          emailCode: code,
        }),
      );
      expect(first.statusCode).toBe(200);
      const again = await post(
        '/sys/user/register',
        registration({
          username: 'twice2',
          phone: '13900000012',
          email: 'twice@example.com',
          emailCode: code,
        }),
        EN,
      );
      expect(again.statusCode).toBe(400);
      expect(again.json().message).toBe('Invalid verification code');
    });

    it('refuses taken values with the duplicate messages once the code is proven', async () => {
      const code = await emailCode('dup@example.com');
      const res = await post(
        '/sys/user/register',
        registration({
          username: 'admin',
          phone: '13900000021',
          email: 'dup@example.com',
          emailCode: code,
        }),
        EN,
      );
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe('Username already exists!');
      const phone = await post(
        '/sys/user/register',
        registration({
          username: 'dupuser',
          phone: '13800000001',
          email: 'dup@example.com',
          emailCode: code,
        }),
        EN,
      );
      expect(phone.json().message).toBe('Contact number already exists!');
      const known = await emailCode('known1@example.com');
      const email = await post(
        '/sys/user/register',
        registration({
          username: 'dupuser',
          phone: '13900000022',
          email: 'known1@example.com',
          emailCode: known,
        }),
        EN,
      );
      expect(email.json().message).toBe('Email already exists!');
    });

    it('names the field and rule of bad input, and refuses fields the form does not offer', async () => {
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ username: 'bad name!' }, /^username: letters and digits only/],
        [{ phone: '12345' }, /^phone: Your phone number format is incorrect\./],
        [{ email: 'not-an-email' }, /^email: /],
        [
          { password: 'short', confirmpassword: 'short' },
          /^password: must be at least 8 characters/,
        ],
        [{ confirmpassword: 'Other-Passw0rd' }, /^confirmpassword: must equal password/],
        [{ emailCode: '12ab56' }, /^emailCode: must be 6 digits/],
        [{ companyId: 'a'.repeat(32) }, /companyId is not an allowed field/],
        [{ roleIds: ['x'], status: 1 }, /is not an allowed field/],
      ];
      for (const [over, expected] of cases) {
        const res = await post('/sys/user/register', registration(over), EN);
        expect(res.statusCode, JSON.stringify(over)).toBe(400);
        expect(fieldText(res.json())).toMatch(expected);
      }
      const zh = await post('/sys/user/register', registration({ phone: '123' }));
      expect(fieldText(zh.json())).toBe('phone: 手机号码格式不正确');
    });

    it('rejects easy passwords', async () => {
      const code = await emailCode('weak@example.com');
      const res = await post(
        '/sys/user/register',
        registration({
          username: 'weakling',
          phone: '13900000031',
          email: 'weak@example.com',
          emailCode: code,
          password: 'password1',
          confirmpassword: 'password1',
        }),
        EN,
      );
      expect(res.statusCode).toBe(400);
      expect(fieldText(res.json())).toBe('password: is too common');
      const digits = await post(
        '/sys/user/register',
        registration({ password: '12345678', confirmpassword: '12345678' }),
        EN,
      );
      expect(fieldText(digits.json())).toBe('password: must not be only digits');
    });
  });

  describe('codes', () => {
    it('kills a code after 5 wrong guesses: brute force fails even with the right code after', async () => {
      const code = await emailCode('brute@example.com');
      const wrong = code === '111111' ? '222222' : '111111';
      for (let i = 0; i < 5; i++) {
        const res = await post(
          '/sys/user/register',
          registration({
            username: 'brute',
            phone: '13900000041',
            email: 'brute@example.com',
            emailCode: wrong,
          }),
        );
        expect(res.statusCode).toBe(400);
      }
      const right = await post(
        '/sys/user/register',
        registration({
          username: 'brute',
          phone: '13900000041',
          email: 'brute@example.com',
          emailCode: code,
        }),
        EN,
      );
      expect(right.statusCode).toBe(400);
      expect(right.json().message).toBe('Invalid verification code');
    });

    it('stores codes hashed, and lets them expire after 10 minutes', async () => {
      const code = await emailCode('late@example.com');
      const rows = await t.db
        .selectFrom('sys_verify_code')
        .select('code_hash')
        .where('target', '=', 'late@example.com')
        .execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]?.code_hash).not.toContain(code);
      t.clock.advance(10 * 60_000);
      const res = await post(
        '/sys/user/register',
        registration({
          username: 'late',
          phone: '13900000051',
          email: 'late@example.com',
          emailCode: code,
        }),
      );
      expect(res.statusCode).toBe(400);
    });

    it('throttles codes per target: one a minute, five an hour', async () => {
      const target = { email: 'spam@example.com' };
      expect((await post('/sys/user/registerEmailCode', target)).statusCode).toBe(200);
      const soon = await post('/sys/user/registerEmailCode', target, EN);
      expect(soon.statusCode).toBe(429);
      expect(soon.json().message).toMatch(/try again in \d+ seconds/);
      for (let i = 0; i < 4; i++) {
        t.clock.advance(RESEND_MS);
        expect((await post('/sys/user/registerEmailCode', target)).statusCode).toBe(200);
      }
      t.clock.advance(RESEND_MS);
      const sixth = await post('/sys/user/registerEmailCode', target, EN);
      expect(sixth.statusCode).toBe(429);
      expect(sixth.json().message).toMatch(/try again in an hour/);
      t.clock.advance(60 * 60_000);
      expect((await post('/sys/user/registerEmailCode', target)).statusCode).toBe(200);
    });
  });

  describe('phone login', () => {
    it('answers the same for known and unknown numbers, and texts only the known one', async () => {
      const known = await post('/sys/sms', { mobile: '13800000001', smsmode: '0' });
      const unknown = await post('/sys/sms', { mobile: '13700000000', smsmode: '0' });
      expect(known.statusCode).toBe(200);
      expect(unknown.statusCode).toBe(200);
      const strip = (body: string) => ({ ...JSON.parse(body), timestamp: 0 });
      expect(strip(unknown.body)).toEqual(strip(known.body));
      expect(outboxFor(dataDir, '13800000001').at(-1)?.channel).toBe('sms');
      expect(outboxFor(dataDir, '13700000000')).toEqual([]);
      t.clock.advance(RESEND_MS);
    });

    it('logs in with the texted code and returns what /sys/login returns', async () => {
      await post('/sys/sms', { mobile: '13800000001', smsmode: '0' });
      t.clock.advance(RESEND_MS);
      const code = lastCode(dataDir, '13800000001');
      const res = await post('/sys/phoneLogin', { mobile: '13800000001', captcha: code });
      expect(res.statusCode).toBe(200);
      const result = ZLoginResult.parse(res.json().result);
      expect(result.userInfo.username).toBe('known1');
      const me = await get('/sys/user/getCurrentUserDeparts', authHeaders(result.token));
      expect(me.statusCode).toBe(200);
      const reuse = await post('/sys/phoneLogin', { mobile: '13800000001', captcha: code }, EN);
      expect(reuse.statusCode).toBe(400);
      expect(reuse.json().message).toBe('Invalid verification code');
    });

    it('replaces only the password: a user with a second factor gets its challenge', async () => {
      const id = await t.createUser({ username: 'phone2fa', password: 'Phone-2fa-Pass' });
      await t.db
        .updateTable('sys_user')
        .set({ phone: '13800000002' })
        .where('id', '=', id)
        .execute();
      const session = authHeaders(await t.login('phone2fa', 'Phone-2fa-Pass'));
      const setup = await t.app.inject({
        method: 'POST',
        url: '/api/sys/twoFactor/setup',
        headers: session,
      });
      const totp = new TOTP({ secret: Secret.fromBase32(setup.json().result.secret) });
      const enable = await post(
        '/sys/twoFactor/enable',
        { code: totp.generate({ timestamp: t.clock.now }) },
        session,
      );
      expect(enable.statusCode).toBe(200);
      t.clock.advance(30_000);

      await post('/sys/sms', { mobile: '13800000002', smsmode: '0' });
      t.clock.advance(RESEND_MS);
      const res = await post('/sys/phoneLogin', {
        mobile: '13800000002',
        captcha: lastCode(dataDir, '13800000002'),
      });
      expect(res.statusCode).toBe(200);
      const step = res.json().result;
      expect(step).toEqual({ twoFactor: 'verify', challenge: expect.any(String), expiresIn: 300 });
      const done = await post('/sys/login/twoFactor', {
        challenge: step.challenge,
        code: totp.generate({ timestamp: t.clock.now }),
      });
      expect(done.statusCode).toBe(200);
      expect(ZLoginResult.parse(done.json().result).userInfo.username).toBe('phone2fa');
    });

    it('refuses unknown numbers, wrong codes and frozen accounts with no hint', async () => {
      await post('/sys/sms', { mobile: '13700000000', smsmode: '0' });
      const unknown = await post(
        '/sys/phoneLogin',
        { mobile: '13700000000', captcha: '123456' },
        EN,
      );
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().message).toBe('Invalid verification code');
      await post('/sys/sms', { mobile: '13800000009', smsmode: '0' });
      expect(outboxFor(dataDir, '13800000009')).toEqual([]);
      const bad = await post('/sys/phoneLogin', { mobile: '13800000001', captcha: 'abc' }, EN);
      expect(bad.statusCode).toBe(400);
      expect(fieldText(bad.json())).toMatch(/^captcha: must be 6 digits/);
      t.clock.advance(RESEND_MS);
    });
  });

  describe('password reset', () => {
    it('gives no hint whether an email or phone has an account', async () => {
      const known = await post('/sys/user/resetCode', {
        channel: 'email',
        target: 'known1@example.com',
      });
      const unknown = await post('/sys/user/resetCode', {
        channel: 'email',
        target: 'ghost@example.com',
      });
      const strip = (body: string) => ({ ...JSON.parse(body), timestamp: 0 });
      expect(known.statusCode).toBe(200);
      expect(strip(unknown.body)).toEqual(strip(known.body));
      expect(outboxFor(dataDir, 'ghost@example.com')).toEqual([]);
      const ghost = await post(
        '/sys/user/passwordReset',
        {
          channel: 'email',
          target: 'ghost@example.com',
          code: '123456',
          password: 'N3w-Passw0rd!',
          confirmpassword: 'N3w-Passw0rd!',
        },
        EN,
      );
      const wrong = await post(
        '/sys/user/passwordReset',
        {
          channel: 'email',
          target: 'known1@example.com',
          code: '000001',
          password: 'N3w-Passw0rd!',
          confirmpassword: 'N3w-Passw0rd!',
        },
        EN,
      );
      expect(ghost.statusCode).toBe(400);
      expect(strip(ghost.body)).toEqual(strip(wrong.body));
      t.clock.advance(RESEND_MS);
    });

    it('resets by email with the code, ends every session, and the new password works', async () => {
      const before = await t.login('known1', 'Known-Pass-1');
      await post('/sys/user/resetCode', { channel: 'email', target: 'known1@example.com' });
      t.clock.advance(RESEND_MS);
      const code = lastCode(dataDir, 'known1@example.com');
      const weak = await post(
        '/sys/user/passwordReset',
        {
          channel: 'email',
          target: 'known1@example.com',
          code,
          password: 'known1',
          confirmpassword: 'known1',
        },
        EN,
      );
      expect(weak.statusCode).toBe(400);
      const common = await post(
        '/sys/user/passwordReset',
        {
          channel: 'email',
          target: 'known1@example.com',
          code,
          password: 'iloveyou',
          confirmpassword: 'iloveyou',
        },
        EN,
      );
      expect(fieldText(common.json())).toBe('password: is too common');
      const res = await post('/sys/user/passwordReset', {
        channel: 'email',
        target: 'known1@example.com',
        code,
        password: 'Reset-Pass-2',
        confirmpassword: 'Reset-Pass-2',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe('密码重置成功!');
      const old = await get('/sys/user/getCurrentUserDeparts', authHeaders(before));
      expect(old.statusCode).toBe(401);
      expect((await t.loginResponse('known1', 'Known-Pass-1')).statusCode).toBe(400);
      await t.login('known1', 'Reset-Pass-2');
    });

    it('resets by phone, and refuses fields the form does not offer', async () => {
      await post('/sys/user/resetCode', { channel: 'phone', target: '13800000001' });
      t.clock.advance(RESEND_MS);
      const code = lastCode(dataDir, '13800000001');
      const extra = await post(
        '/sys/user/passwordReset',
        {
          channel: 'phone',
          target: '13800000001',
          code,
          password: 'Reset-Pass-3',
          confirmpassword: 'Reset-Pass-3',
          username: 'admin',
        },
        EN,
      );
      expect(extra.statusCode).toBe(400);
      expect(extra.json().message).toBe('username is not an allowed field');
      const res = await post('/sys/user/passwordReset', {
        channel: 'phone',
        target: '13800000001',
        code,
        password: 'Reset-Pass-3',
        confirmpassword: 'Reset-Pass-3',
      });
      expect(res.statusCode).toBe(200);
      await t.login('known1', 'Reset-Pass-3');
      const mixed = await post(
        '/sys/user/resetCode',
        { channel: 'phone', target: 'known1@example.com' },
        EN,
      );
      expect(mixed.statusCode).toBe(400);
      expect(fieldText(mixed.json())).toMatch(/^target: Your phone number format is incorrect\./);
    });
  });

  describe('SMS provider settings', () => {
    it('are for platform administrators, never return the authorization, and route texts to the gateway', async () => {
      const operator = await t.createUser({ username: 'smsop1', password: 'Smsop-Pass-1' });
      const opToken = await t.login('smsop1', 'Smsop-Pass-1');
      expect(operator).toBeTruthy();
      expect((await get('/sys/setting/sms', authHeaders(opToken))).statusCode).toBe(403);

      const initial = await get('/sys/setting/sms', authHeaders(adminToken));
      expect(initial.json().result).toEqual({
        provider: 'log',
        url: null,
        hasAuthorization: false,
      });

      const received: unknown[] = [];
      const gateway = http.createServer((req, res) => {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          received.push({ auth: req.headers.authorization, body: JSON.parse(body) });
          res.end('{}');
        });
      });
      await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
      const url = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/send`;
      try {
        const missingUrl = await t.app.inject({
          method: 'PUT',
          url: '/api/sys/setting/sms',
          payload: { provider: 'http' },
          headers: authHeaders(adminToken, EN),
        });
        expect(missingUrl.statusCode).toBe(400);
        expect(fieldText(missingUrl.json())).toMatch(/^url: is required/);
        const saved = await t.app.inject({
          method: 'PUT',
          url: '/api/sys/setting/sms',
          payload: { provider: 'http', url, authorization: 'Bearer s3cret' },
          headers: authHeaders(adminToken),
        });
        expect(saved.statusCode).toBe(200);
        expect(saved.body).not.toContain('s3cret');
        expect(saved.json().result).toEqual({ provider: 'http', url, hasAuthorization: true });

        const outboxBefore = outboxFor(dataDir, '13800000001').length;
        await post('/sys/sms', { mobile: '13800000001', smsmode: '0' });
        t.clock.advance(RESEND_MS);
        expect(received).toHaveLength(1);
        expect(received[0]).toMatchObject({
          auth: 'Bearer s3cret',
          body: { phone: '13800000001' },
        });
        expect((received[0] as { body: { code: string } }).body.code).toMatch(/^\d{6}$/);
        expect(outboxFor(dataDir, '13800000001')).toHaveLength(outboxBefore);

        gateway.closeAllConnections();
        await new Promise<void>((r) => gateway.close(() => r()));
        const down = await post('/sys/sms', { mobile: '13800000001', smsmode: '0' }, EN);
        expect(down.statusCode).toBe(503);
        expect(down.json().message).toBe('The SMS service is unavailable, please try again later');
        t.clock.advance(RESEND_MS);
      } finally {
        gateway.close();
        await t.app.inject({
          method: 'PUT',
          url: '/api/sys/setting/sms',
          payload: { provider: 'log' },
          headers: authHeaders(adminToken),
        });
      }
    });
  });

  it('declares every account endpoint public except the settings', () => {
    for (const route of [
      'GET /api/sys/user/registerCheck',
      'POST /api/sys/user/registerEmailCode',
      'POST /api/sys/user/register',
      'POST /api/sys/sms',
      'POST /api/sys/phoneLogin',
      'POST /api/sys/user/resetCode',
      'POST /api/sys/user/passwordReset',
    ]) {
      expect(t.app.routeAccess.get(route), route).toEqual({ kind: 'public' });
    }
    expect(t.app.routeAccess.get('PUT /api/sys/setting/sms')).toEqual({
      kind: 'permission',
      code: 'system:setting:sms',
    });
  });

  async function platformId() {
    const row = await t.db
      .selectFrom('sys_company')
      .select('id')
      .where('is_platform', '=', 1)
      .executeTakeFirstOrThrow();
    return row.id;
  }
});

describe('per-IP rate limits of the public account endpoints', () => {
  let t: TestContext;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blrms-accounts-rl-'));
    t = await createTestApp({
      env: { DATA_DIR: dataDir },
      app: { accountRateLimits: { sendCode: 3, verify: 3, check: 3 } },
    });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('stops code requests, code checks and duplicate checks from one IP', async () => {
    const codes = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/sys/sms',
        payload: { mobile: `1370000000${i}`, smsmode: '0' },
      });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([200, 200, 200, 429]);

    const guesses = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/sys/phoneLogin',
        payload: { mobile: '13700000000', captcha: `00000${i}` },
      });
      guesses.push(res.statusCode);
    }
    expect(guesses).toEqual([400, 400, 400, 429]);

    const checks = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/sys/user/registerCheck?field=username&value=probe${i}`,
      });
      checks.push(res.statusCode);
    }
    expect(checks).toEqual([200, 200, 200, 429]);
  });
});
