import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  CAPTCHA_CODE,
  authHeaders,
  createTestApp,
  type TestContext,
  fieldText,
} from '../../test/app.js';

describe('login, captcha and sessions', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
    await t.createUser({ username: 'frozen1', password: 'Frozen-Pass-1', status: 2 });
  });
  afterAll(() => t.close());

  const login = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/sys/login', payload, headers });

  it('issues a captcha as a 120×40 PNG, with no SVG glyph paths to read the code from', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/sys/randomImage/abcdefgh12' });
    expect(res.statusCode).toBe(200);
    const url: string = res.json().result;
    expect(url).toMatch(/^data:image\/png;base64,/);
    const png = PNG.sync.read(Buffer.from(url.slice('data:image/png;base64,'.length), 'base64'));
    expect([png.width, png.height]).toEqual([120, 40]);
    // SVG markup, not the letters: the base64 of a noisy PNG spells "svg" in about one in six.
    expect(res.body).not.toMatch(/<svg|<path/i);
    // Noise and anti-aliasing: far more colours than the few fills of a flat drawing.
    const colours = new Set<number>();
    for (let i = 0; i < png.data.length; i += 4) colours.add(png.data.readUInt32BE(i));
    expect(colours.size).toBeGreaterThan(50);
  });

  it('draws the same code differently every time', async () => {
    const image = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/sys/randomImage/abcdefgh13' })).json()
        .result as string;
    expect(await image()).not.toBe(await image());
  });

  it('rejects a malformed captcha key', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/sys/randomImage/short' });
    expect(res.statusCode).toBe(400);
    expect(fieldText(res.json())).toMatch(/^key: /);
  });

  it('logs in with the right captcha and password and returns the contract shape', async () => {
    const res = await t.loginResponse('admin', ADMIN_PASSWORD);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, code: 200 });
    expect(body.result.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.result.userInfo).toMatchObject({
      username: 'admin',
      realname: '管理员',
      orgCode: 'A01A01',
    });
    expect(body.result.userInfo).not.toHaveProperty('password_hash');
    expect(JSON.stringify(body)).not.toMatch(/argon2|password/i);
    expect(body.result.departs.map((d: { orgCode: string }) => d.orgCode).sort()).toEqual([
      'A01A01',
      'A01A02',
    ]);
    expect(body.result.multiDepart).toBe(2);
    expect(body.result.companies).toHaveLength(1);
  });

  it('matches the captcha case-insensitively', async () => {
    const key = await t.captcha();
    const res = await login({
      username: 'admin',
      password: ADMIN_PASSWORD,
      checkKey: key,
      captcha: CAPTCHA_CODE.toLowerCase(),
    });
    expect(res.statusCode).toBe(200);
  });

  it('refuses a wrong or missing captcha before looking at the password', async () => {
    const key = await t.captcha();
    const wrong = await login({
      username: 'admin',
      password: ADMIN_PASSWORD,
      checkKey: key,
      captcha: 'zzzz',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('验证码错误');

    const missing = await login(
      { username: 'admin', password: ADMIN_PASSWORD },
      { 'accept-language': 'en-US' },
    );
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Invalid verification code');
  });

  it('spends the captcha even when the password is wrong', async () => {
    const key = await t.captcha();
    const first = await login({
      username: 'admin',
      password: 'not-the-password',
      checkKey: key,
      captcha: CAPTCHA_CODE,
    });
    expect(first.statusCode).toBe(400);
    expect(first.json().message).toBe('用户名或密码错误');
    const reuse = await login({
      username: 'admin',
      password: ADMIN_PASSWORD,
      checkKey: key,
      captcha: CAPTCHA_CODE,
    });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().message).toBe('验证码错误');
    await t.db.deleteFrom('sys_login_failure').execute();
  });

  it('refuses an expired captcha', async () => {
    const key = await t.captcha();
    t.clock.advance(61_000);
    const res = await login({
      username: 'admin',
      password: ADMIN_PASSWORD,
      checkKey: key,
      captcha: CAPTCHA_CODE,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('验证码错误');
  });

  it('gives unknown users and wrong passwords the same answer', async () => {
    const unknown = await t.loginResponse('nobody-here', 'whatever-pass');
    const wrong = await t.loginResponse('frozen1', 'wrong-password');
    expect(unknown.statusCode).toBe(400);
    expect(wrong.statusCode).toBe(400);
    expect(unknown.json().message).toBe(wrong.json().message);
    await t.db.deleteFrom('sys_login_failure').execute();
  });

  it('tells a frozen user so only after a correct password', async () => {
    const res = await t.loginResponse('frozen1', 'Frozen-Pass-1');
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('该用户已冻结');
  });

  it('locks a username for 10 minutes after 5 failures, known or not', async () => {
    for (const username of ['admin', 'ghost-user']) {
      for (let i = 0; i < 5; i++) {
        expect((await t.loginResponse(username, 'bad-password')).statusCode).toBe(400);
      }
      const locked = await t.loginResponse(
        username,
        username === 'admin' ? ADMIN_PASSWORD : 'bad-password',
        {},
      );
      expect(locked.statusCode).toBe(429);
      expect(locked.json()).toMatchObject({ success: false, code: 429, result: null });
      expect(locked.json().message).toMatch(/锁定/);
    }
    const english = await t.app.inject({
      method: 'POST',
      url: '/api/sys/login',
      headers: { 'accept-language': 'en-US' },
      payload: {
        username: 'admin',
        password: ADMIN_PASSWORD,
        checkKey: await t.captcha(),
        captcha: CAPTCHA_CODE,
      },
    });
    expect(english.json().message).toMatch(/locked.*10 minutes/);

    t.clock.advance(10 * 60_000 + 1);
    expect((await t.loginResponse('admin', ADMIN_PASSWORD)).statusCode).toBe(200);
  });

  it('rejects unknown body fields', async () => {
    const res = await login({ username: 'admin', password: 'x', isAdmin: true });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('不允许的字段 isAdmin');
  });

  it('needs a session for everything that is not public', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/sys/user/getCurrentUserDeparts' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({
      success: false,
      code: 401,
      message: 'Token失效，请重新登录',
      result: null,
    });
    const en = await t.app.inject({
      method: 'GET',
      url: '/api/sys/user/getCurrentUserDeparts',
      headers: { 'x-access-token': 'forged-token', 'accept-language': 'en-US' },
    });
    expect(en.statusCode).toBe(401);
    expect(en.json().message).toBe('Token expired, please log in again');
  });

  it('ignores a token passed as a query parameter', async () => {
    const token = await t.login('admin', ADMIN_PASSWORD);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/sys/user/getCurrentUserDeparts?token=${token}`,
    });
    expect(res.statusCode).toBe(401);
  });

  it('ends the session on logout', async () => {
    const token = await t.login('admin', ADMIN_PASSWORD);
    const url = '/api/sys/user/getCurrentUserDeparts';
    expect(
      (await t.app.inject({ method: 'GET', url, headers: authHeaders(token) })).statusCode,
    ).toBe(200);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/sys/logout',
      headers: authHeaders(token),
    });
    expect(out.statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url, headers: authHeaders(token) })).statusCode,
    ).toBe(401);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/sys/logout',
      headers: authHeaders(token),
    });
    expect(again.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/sys/logout' })).statusCode).toBe(200);
  });

  it('ends a session after 7 days', async () => {
    const token = await t.login('admin', ADMIN_PASSWORD);
    const url = '/api/sys/user/getCurrentUserDeparts';
    t.clock.advance(7 * 24 * 3600_000 - 60_000);
    expect(
      (await t.app.inject({ method: 'GET', url, headers: authHeaders(token) })).statusCode,
    ).toBe(200);
    t.clock.advance(61_000);
    expect(
      (await t.app.inject({ method: 'GET', url, headers: authHeaders(token) })).statusCode,
    ).toBe(401);
  });

  it('stores only hashes of tokens and captchas', async () => {
    const token = await t.login('admin', ADMIN_PASSWORD);
    const sessions = await t.db.selectFrom('sys_session').select('token_hash').execute();
    expect(sessions.some((s) => s.token_hash === token)).toBe(false);
    expect(sessions.every((s) => /^[0-9a-f]{64}$/.test(s.token_hash))).toBe(true);
    await t.captcha('stored-key-1');
    const row = await t.db
      .selectFrom('sys_captcha')
      .selectAll()
      .where('check_key', '=', 'stored-key-1')
      .executeTakeFirst();
    expect(row?.code_hash).not.toContain(CAPTCHA_CODE);
  });

  it('writes a login log row on success', async () => {
    await t.login('admin', ADMIN_PASSWORD);
    const rows = await t.db.selectFrom('sys_log').selectAll().where('log_type', '=', 1).execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0]).toMatchObject({ username: 'admin', status: 200 });
  });
});

describe('login with CAPTCHA=off', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({ env: { CAPTCHA: 'off' } });
  });
  afterAll(() => t.close());

  it('logs in without a captcha', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/sys/login',
      payload: { username: 'admin', password: ADMIN_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
  });

  it('tells the console there is no captcha to show', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/sys/randomImage/abcdefgh12' });
    expect(res.statusCode).toBe(200);
    expect(res.json().result).toBe('');
  });
});

describe('login rate limit per IP', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({ app: { rateLimits: { login: 3, captcha: 100 } } });
  });
  afterAll(() => t.close());

  it('answers 429 in the envelope once the IP exceeds the limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await t.loginResponse(`u${i}`, 'x')).statusCode);
    expect(statuses).toEqual([400, 400, 400, 429]);
    const res = await t.loginResponse('u9', 'x');
    expect(res.json()).toMatchObject({
      success: false,
      code: 429,
      message: '请求过于频繁，请稍后再试',
    });
  });
});
