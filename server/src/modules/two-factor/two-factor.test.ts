import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, authHeaders, createTestApp, type TestContext } from '../../test/app.js';
import { createCompanyAdmin } from '../../test/company-admin.js';

const PASSWORD = 'Second-Factor-9';

describe('two-factor login (TOTP)', () => {
  let t: TestContext;
  let acme: { companyId: string; userId: string };
  const secrets = new Map<string, string>();

  beforeAll(async () => {
    t = await createTestApp();
    acme = await createCompanyAdmin(t, {
      code: 'acme-2fa',
      username: 'acme2fa',
      password: PASSWORD,
      perms: ['account:user:list', 'account:user:resetTwoFactor', 'account:user:twoFactorPolicy'],
    });
  });
  afterAll(() => t.close());

  const codeFor = (username: string, at = t.clock.now) =>
    new TOTP({ secret: Secret.fromBase32(secrets.get(username) ?? '') }).generate({
      timestamp: at,
    });

  const call = (
    token: string | null,
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload?: object,
    lang = 'en-US',
  ) =>
    t.app.inject({
      method,
      url: `/api${url}`,
      headers: token
        ? authHeaders(token, { 'accept-language': lang })
        : { 'accept-language': lang },
      ...(payload && { payload }),
    });

  const passwordStep = async (username: string, password = PASSWORD) => {
    const res = await t.loginResponse(username, password);
    expect(res.statusCode).toBe(200);
    return res.json().result;
  };

  /** Turns the factor on for a signed-in user; returns the recovery codes. */
  const enrol = async (username: string): Promise<string[]> => {
    const token = await t.login(username, PASSWORD);
    const setup = await call(token, 'POST', '/sys/twoFactor/setup');
    expect(setup.statusCode).toBe(200);
    const { secret, otpauthUri, qrCode } = setup.json().result;
    expect(otpauthUri).toMatch(new RegExp(`^otpauth://totp/BLRMS:${username}\\?`));
    expect(qrCode).toMatch(/^data:image\/png;base64,/);
    secrets.set(username, secret);
    const enable = await call(token, 'POST', '/sys/twoFactor/enable', { code: codeFor(username) });
    expect(enable.statusCode).toBe(200);
    const codes: string[] = enable.json().result.recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    // The next code must be of a later time step.
    t.clock.advance(30_000);
    return codes;
  };

  it('enrols: secret and QR code, confirmed by a code, 10 recovery codes once', async () => {
    await t.createUser({ username: 'alice2fa', password: PASSWORD });
    const token = await t.login('alice2fa', PASSWORD);
    const before = await call(token, 'GET', '/sys/twoFactor/status');
    expect(before.json().result).toEqual({ enabled: false, required: false, recoveryCodesLeft: 0 });

    const early = await call(token, 'POST', '/sys/twoFactor/enable', { code: '123456' });
    expect(early.statusCode).toBe(400);
    expect(early.json().message).toBe('Start the set-up (QR code) before entering a code');

    const setup = await call(token, 'POST', '/sys/twoFactor/setup');
    secrets.set('alice2fa', setup.json().result.secret);
    const wrong = await call(token, 'POST', '/sys/twoFactor/enable', { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('Incorrect authentication code');
    const bad = await call(token, 'POST', '/sys/twoFactor/enable', { code: 'abc' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([{ field: 'code', message: 'must be 6 digits' }]);

    const ok = await call(token, 'POST', '/sys/twoFactor/enable', { code: codeFor('alice2fa') });
    expect(ok.statusCode).toBe(200);
    const codes: string[] = ok.json().result.recoveryCodes;
    expect(codes).toHaveLength(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);

    const after = await call(token, 'GET', '/sys/twoFactor/status');
    expect(after.json().result).toEqual({ enabled: true, required: false, recoveryCodesLeft: 10 });
    const again = await call(token, 'POST', '/sys/twoFactor/setup');
    expect(again.statusCode).toBe(400);

    const stored = await t.db
      .selectFrom('sys_user_two_factor')
      .selectAll()
      .executeTakeFirstOrThrow();
    expect(stored.secret_enc).not.toContain(secrets.get('alice2fa'));
    const hashes = await t.db.selectFrom('sys_two_factor_recovery').select('code_hash').execute();
    expect(hashes.map((h) => h.code_hash)).not.toContain(codes[0]);
    t.clock.advance(30_000);
  });

  it('asks for the code after the password, and a challenge is not a session', async () => {
    const step = await passwordStep('alice2fa');
    expect(step).toEqual({ twoFactor: 'verify', challenge: expect.any(String), expiresIn: 300 });
    expect(step).not.toHaveProperty('token');
    const asSession = await call(step.challenge, 'GET', '/sys/twoFactor/status');
    expect(asSession.statusCode).toBe(401);

    const wrong = await call(
      null,
      'POST',
      '/sys/login/twoFactor',
      {
        challenge: step.challenge,
        code: '000000',
      },
      'zh-CN',
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('动态验证码错误');

    const code = codeFor('alice2fa');
    const res = await call(null, 'POST', '/sys/login/twoFactor', {
      challenge: step.challenge,
      code,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().result.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.json().result.userInfo.username).toBe('alice2fa');

    // The challenge is spent, and the same code is refused within its window.
    const replayChallenge = await call(null, 'POST', '/sys/login/twoFactor', {
      challenge: step.challenge,
      code,
    });
    expect(replayChallenge.statusCode).toBe(400);
    expect(replayChallenge.json().message).toBe('The two-factor step has expired: log in again');
    const next = await passwordStep('alice2fa');
    const reuse = await call(null, 'POST', '/sys/login/twoFactor', {
      challenge: next.challenge,
      code,
    });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().message).toBe('Incorrect authentication code');
  });

  it('accepts the codes of the neighbouring time steps only', async () => {
    const step = await passwordStep('alice2fa');
    const stale = await call(null, 'POST', '/sys/login/twoFactor', {
      challenge: step.challenge,
      code: codeFor('alice2fa', t.clock.now - 90_000),
    });
    expect(stale.statusCode).toBe(400);
    const previous = await call(null, 'POST', '/sys/login/twoFactor', {
      challenge: step.challenge,
      code: codeFor('alice2fa', t.clock.now + 30_000),
    });
    expect(previous.statusCode).toBe(200);
    t.clock.advance(90_000);
  });

  it('ends the challenge after 5 wrong codes and locks the source like wrong passwords', async () => {
    await t.db.deleteFrom('sys_login_failure').execute();
    const step = await passwordStep('alice2fa');
    for (let i = 0; i < 4; i++) {
      const res = await call(null, 'POST', '/sys/login/twoFactor', {
        challenge: step.challenge,
        code: '000000',
      });
      expect(res.statusCode).toBe(400);
    }
    const fifth = await call(null, 'POST', '/sys/login/twoFactor', {
      challenge: step.challenge,
      code: '000000',
    });
    expect(fifth.statusCode).toBe(400);
    const afterwards = await call(null, 'POST', '/sys/login/twoFactor', {
      challenge: step.challenge,
      code: codeFor('alice2fa'),
    });
    expect(afterwards.statusCode).toBe(400);
    expect(afterwards.json().message).toBe('The two-factor step has expired: log in again');
    // Five wrong codes are five failed logins from this address: it is locked out.
    const locked = await t.loginResponse('alice2fa', PASSWORD);
    expect(locked.statusCode).toBe(429);
    t.clock.advance(10 * 60_000 + 1);
  });

  it('takes each recovery code once', async () => {
    await t.createUser({ username: 'bob2fa', password: PASSWORD });
    const codes = await enrol('bob2fa');
    const first = await passwordStep('bob2fa');
    const used = await call(null, 'POST', '/sys/login/twoFactor', {
      challenge: first.challenge,
      code: (codes[0] ?? '').toUpperCase(),
    });
    expect(used.statusCode).toBe(200);
    const token = used.json().result.token;
    expect(
      (await call(token, 'GET', '/sys/twoFactor/status')).json().result.recoveryCodesLeft,
    ).toBe(9);
    const second = await passwordStep('bob2fa');
    const again = await call(null, 'POST', '/sys/login/twoFactor', {
      challenge: second.challenge,
      code: codes[0],
    });
    expect(again.statusCode).toBe(400);
    const other = await call(null, 'POST', '/sys/login/twoFactor', {
      challenge: second.challenge,
      code: codes[1],
    });
    expect(other.statusCode).toBe(200);
  });

  it('turns off with a current code or the password, not with neither', async () => {
    const token = await (async () => {
      const step = await passwordStep('bob2fa');
      const res = await call(null, 'POST', '/sys/login/twoFactor', {
        challenge: step.challenge,
        code: codeFor('bob2fa'),
      });
      return res.json().result.token as string;
    })();
    t.clock.advance(30_000);
    const none = await call(token, 'POST', '/sys/twoFactor/disable', {});
    expect(none.statusCode).toBe(400);
    expect(none.json().errors).toEqual([
      { field: 'code', message: 'a current code or the password is required' },
    ]);
    const wrongPassword = await call(token, 'POST', '/sys/twoFactor/disable', {
      password: 'not-it',
    });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().message).toBe('Incorrect password');
    const off = await call(token, 'POST', '/sys/twoFactor/disable', { password: PASSWORD });
    expect(off.statusCode).toBe(200);
    const step = await passwordStep('bob2fa');
    expect(step.token).toBeTruthy();
  });

  it('lets a company require it: a user without a factor must enrol before any session', async () => {
    await t.createUser({
      username: 'acmeemp',
      password: PASSWORD,
      companyId: acme.companyId,
    });
    const acmeAdmin = await t.login('acme2fa', PASSWORD);
    const set = await call(acmeAdmin, 'PUT', '/sys/twoFactor/policy/company', { required: true });
    expect(set.statusCode).toBe(200);
    expect(set.json().result).toEqual({ companyRequired: true, platformRequired: false });
    const platform = await call(acmeAdmin, 'PUT', '/sys/twoFactor/policy/platform', {
      required: true,
    });
    expect(platform.statusCode).toBe(403);

    const step = await passwordStep('acmeemp');
    expect(step).toMatchObject({ twoFactor: 'enrol' });
    const guess = await call(null, 'POST', '/sys/login/twoFactor', {
      challenge: step.challenge,
      code: '123456',
    });
    expect(guess.statusCode).toBe(400);
    const setup = await call(null, 'POST', '/sys/login/twoFactor/setup', {
      challenge: step.challenge,
    });
    expect(setup.statusCode).toBe(200);
    const same = await call(null, 'POST', '/sys/login/twoFactor/setup', {
      challenge: step.challenge,
    });
    expect(same.json().result.secret).toBe(setup.json().result.secret);
    secrets.set('acmeemp', setup.json().result.secret);
    const done = await call(null, 'POST', '/sys/login/twoFactor', {
      challenge: step.challenge,
      code: codeFor('acmeemp'),
    });
    expect(done.statusCode).toBe(200);
    expect(done.json().result.recoveryCodes).toHaveLength(10);
    const token = done.json().result.token;
    const status = await call(token, 'GET', '/sys/twoFactor/status');
    expect(status.json().result).toMatchObject({ enabled: true, required: true });
    const off = await call(token, 'POST', '/sys/twoFactor/disable', { password: PASSWORD });
    expect(off.statusCode).toBe(400);
    expect(off.json().message).toMatch(/requires two-factor login/);

    // Users of other companies are not concerned.
    await t.createUser({ username: 'carol2fa', password: PASSWORD });
    expect((await passwordStep('carol2fa')).token).toBeTruthy();
    await call(acmeAdmin, 'PUT', '/sys/twoFactor/policy/company', { required: false });
    t.clock.advance(30_000);
  });

  it('lets the platform administrator require it of everyone', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD);
    const set = await call(admin, 'PUT', '/sys/twoFactor/policy/platform', { required: true });
    expect(set.statusCode).toBe(200);
    expect((await passwordStep('carol2fa')).twoFactor).toBe('enrol');
    await call(admin, 'PUT', '/sys/twoFactor/policy/platform', { required: false });
    expect((await passwordStep('carol2fa')).token).toBeTruthy();
  });

  it('lets an administrator reset a second factor, in their own company only', async () => {
    const acmeAdmin = await t.login('acme2fa', PASSWORD);
    const alice = (
      await t.db
        .selectFrom('sys_user')
        .select('id')
        .where('username', '=', 'alice2fa')
        .executeTakeFirstOrThrow()
    ).id;
    const emp = (
      await t.db
        .selectFrom('sys_user')
        .select('id')
        .where('username', '=', 'acmeemp')
        .executeTakeFirstOrThrow()
    ).id;
    const foreign = await call(acmeAdmin, 'PUT', '/sys/user/resetTwoFactor', { id: alice });
    expect(foreign.statusCode).toBe(404);
    const seen = await call(acmeAdmin, 'GET', `/sys/user/loginSecurity?ids=${alice},${emp}`);
    expect(seen.json().result).toEqual([
      { userId: emp, twoFactorEnabled: true, locked: false, sources: [] },
    ]);

    const reset = await call(acmeAdmin, 'PUT', '/sys/user/resetTwoFactor', { id: emp }, 'zh-CN');
    expect(reset.statusCode).toBe(200);
    expect(reset.json().message).toBe('已重置该用户的二次验证');
    expect((await passwordStep('acmeemp')).token).toBeTruthy();

    const admin = await t.login('admin', ADMIN_PASSWORD);
    expect((await call(admin, 'PUT', '/sys/user/resetTwoFactor', { id: alice })).statusCode).toBe(
      200,
    );
    expect((await passwordStep('alice2fa')).token).toBeTruthy();
    const logged = await t.db
      .selectFrom('sys_log')
      .select('username')
      .where('request_url', '=', '/api/sys/user/resetTwoFactor')
      .execute();
    expect(logged.map((l) => l.username).sort()).toEqual(['acme2fa', 'acme2fa', 'admin']);
  });
});
