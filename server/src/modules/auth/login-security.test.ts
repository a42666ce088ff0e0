import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  CAPTCHA_CODE,
  authHeaders,
  createTestApp,
  type TestContext,
} from '../../test/app.js';
import { createCompanyAdmin } from '../../test/company-admin.js';

const PASSWORD = 'Owner-Pass-42';
const ATTACKER = '203.0.113.7';
const OWNER = '198.51.100.20';
const STRANGER = '192.0.2.55';

describe('login lockout by username and source address', () => {
  let t: TestContext;
  const delays: number[] = [];
  let ownerId: string;
  let acme: { companyId: string; userId: string };
  let acmeUserId: string;

  beforeAll(async () => {
    t = await createTestApp({
      app: {
        loginDelay: async (ms) => {
          delays.push(ms);
        },
      },
    });
    ownerId = await t.createUser({ username: 'owner1', password: PASSWORD });
    acme = await createCompanyAdmin(t, {
      code: 'acme-lock',
      username: 'acmelocks',
      password: PASSWORD,
      perms: ['account:user:list', 'account:user:unlock'],
    });
    acmeUserId = await t.createUser({
      username: 'acmeworker',
      password: PASSWORD,
      companyId: acme.companyId,
    });
  });
  afterAll(() => t.close());

  const loginFrom = async (ip: string, username: string, password: string, lang = 'zh-CN') =>
    t.app.inject({
      method: 'POST',
      url: '/api/sys/login',
      remoteAddress: ip,
      headers: { 'accept-language': lang },
      payload: { username, password, captcha: CAPTCHA_CODE, checkKey: await t.captcha() },
    });

  const hammer = async (ip: string, username: string, times = 5) => {
    for (let i = 0; i < times; i++) {
      expect((await loginFrom(ip, username, 'wrong-password')).statusCode).toBe(400);
    }
  };

  it('locks out the attacking address while the owner logs in from theirs', async () => {
    // The owner has logged in from home before.
    expect((await loginFrom(OWNER, 'owner1', PASSWORD)).statusCode).toBe(200);
    await hammer(ATTACKER, 'owner1');

    const attacker = await loginFrom(ATTACKER, 'owner1', PASSWORD, 'en-US');
    expect(attacker.statusCode).toBe(429);
    expect(attacker.json().message).toMatch(/locked.*10 minutes/);

    delays.length = 0;
    const owner = await loginFrom(OWNER, 'owner1', PASSWORD);
    expect(owner.statusCode).toBe(200);
    expect(owner.json().result.token).toBeTruthy();
    // From an address the owner has had a session from, no slowdown either.
    expect(delays).toEqual([]);
  });

  it('slows down, without locking, other addresses once a username collected failures', async () => {
    delays.length = 0;
    const stranger = await loginFrom(STRANGER, 'owner1', 'wrong-password');
    expect(stranger.statusCode).toBe(400);
    expect(delays).toEqual([500]);
    await hammer('192.0.2.56', 'owner1', 4);
    delays.length = 0;
    // A correct password from a new address still gets in, after the capped delay.
    expect((await loginFrom('192.0.2.57', 'owner1', PASSWORD)).statusCode).toBe(200);
    expect(delays).toEqual([2500]);
  });

  it('shows administrators the lock with its reason, and lifts it', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD);
    const info = await t.app.inject({
      method: 'GET',
      url: `/api/sys/user/loginSecurity?ids=${ownerId}`,
      headers: authHeaders(admin),
    });
    expect(info.statusCode).toBe(200);
    const [security] = info.json().result;
    expect(security).toMatchObject({ userId: ownerId, locked: true, twoFactorEnabled: false });
    expect(security.sources).toContainEqual({
      ip: ATTACKER,
      failCount: 5,
      lockedUntil: new Date(t.clock.now + 10 * 60_000).toISOString(),
    });

    const unlock = await t.app.inject({
      method: 'PUT',
      url: '/api/sys/user/unlock',
      headers: authHeaders(admin, { 'accept-language': 'en-US' }),
      payload: { id: ownerId },
    });
    expect(unlock.statusCode).toBe(200);
    expect(unlock.json().message).toBe('Login lock lifted');
    expect((await loginFrom(ATTACKER, 'owner1', PASSWORD)).statusCode).toBe(200);

    const logged = await t.db
      .selectFrom('sys_log')
      .select(['username', 'request_url'])
      .where('request_url', 'like', '%/sys/user/unlock%')
      .execute();
    expect(logged).toEqual([{ username: 'admin', request_url: '/api/sys/user/unlock' }]);
  });

  it('keeps a company administrator to their own company', async () => {
    await hammer(ATTACKER, 'acmeworker');
    const acmeAdmin = await t.login('acmelocks', PASSWORD);
    const own = await t.app.inject({
      method: 'GET',
      url: `/api/sys/user/loginSecurity?ids=${acmeUserId},${ownerId}`,
      headers: authHeaders(acmeAdmin),
    });
    expect(own.json().result.map((s: { userId: string }) => s.userId)).toEqual([acmeUserId]);
    expect(own.json().result[0].locked).toBe(true);

    const foreign = await t.app.inject({
      method: 'PUT',
      url: '/api/sys/user/unlock',
      headers: authHeaders(acmeAdmin),
      payload: { id: ownerId },
    });
    expect(foreign.statusCode).toBe(404);

    const mine = await t.app.inject({
      method: 'PUT',
      url: '/api/sys/user/unlock',
      headers: authHeaders(acmeAdmin),
      payload: { id: acmeUserId },
    });
    expect(mine.statusCode).toBe(200);
    expect((await loginFrom(ATTACKER, 'acmeworker', PASSWORD)).statusCode).toBe(200);
  });

  it('refuses the unlock to users without the button, and names a bad id', async () => {
    const worker = await t.login('acmeworker', PASSWORD);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/sys/user/unlock',
      headers: authHeaders(worker),
      payload: { id: ownerId },
    });
    expect(res.statusCode).toBe(403);
    const admin = await t.login('admin', ADMIN_PASSWORD);
    const bad = await t.app.inject({
      method: 'PUT',
      url: '/api/sys/user/unlock',
      headers: authHeaders(admin, { 'accept-language': 'en-US' }),
      payload: { id: 'nope' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([{ field: 'id', message: 'must be a 32-character id' }]);
  });
});

describe('login lockout of IPv6 clients', () => {
  let t: TestContext;
  const delays: number[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      app: {
        loginDelay: async (ms) => {
          delays.push(ms);
        },
      },
    });
    await t.createUser({ username: 'v6owner', password: PASSWORD });
  });
  afterAll(() => t.close());

  const loginFrom = async (ip: string, password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/sys/login',
      remoteAddress: ip,
      payload: {
        username: 'v6owner',
        password,
        captcha: CAPTCHA_CODE,
        checkKey: await t.captcha(),
      },
    });

  it('locks the /64 of an attacker who takes a fresh address for every try', async () => {
    // The owner's phone has logged in before from an address of its own network.
    expect((await loginFrom('2001:db8:aaaa:1::10', PASSWORD)).statusCode).toBe(200);
    for (let i = 1; i <= 5; i++) {
      expect((await loginFrom(`2001:db8:bad:1::${i}`, 'wrong-password')).statusCode).toBe(400);
    }
    expect((await loginFrom('2001:db8:bad:1:ffff::77', PASSWORD)).statusCode).toBe(429);

    // The phone took a new privacy address since: still its usual place, not slowed.
    delays.length = 0;
    expect((await loginFrom('2001:db8:aaaa:1:9f3e:12::5', PASSWORD)).statusCode).toBe(200);
    expect(delays).toEqual([]);
  });
});

describe('login lockout behind a load balancer', () => {
  const PROXY = '10.1.2.3';
  let t: TestContext;

  beforeAll(async () => {
    t = await createTestApp({
      env: { TRUSTED_PROXIES: `${PROXY}, 10.9.0.0/16` },
      app: { loginDelay: async () => undefined },
    });
    await t.createUser({ username: 'proxied1', password: PASSWORD });
  });
  afterAll(() => t.close());

  const loginVia = async (socket: string, forwardedFor: string | null, password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/sys/login',
      remoteAddress: socket,
      headers: forwardedFor === null ? {} : { 'x-forwarded-for': forwardedFor },
      payload: {
        username: 'proxied1',
        password,
        captcha: CAPTCHA_CODE,
        checkKey: await t.captcha(),
      },
    });

  it('counts failures under the client the trusted proxy names, so the owner gets in', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await loginVia(PROXY, ATTACKER, 'wrong-password')).statusCode).toBe(400);
    }
    expect((await loginVia(PROXY, ATTACKER, PASSWORD)).statusCode).toBe(429);
    // The owner comes through the same balancer, and through another one of the pool.
    expect((await loginVia(PROXY, OWNER, PASSWORD)).statusCode).toBe(200);
    expect((await loginVia('10.9.4.4', OWNER, PASSWORD)).statusCode).toBe(200);
  });

  it('ignores X-Forwarded-For from an address that is not a trusted proxy', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await loginVia(STRANGER, `198.51.100.${i}`, 'wrong-password')).statusCode).toBe(400);
    }
    // A fresh forged address does not get the locked client out of its lock.
    expect((await loginVia(STRANGER, '198.51.100.99', PASSWORD)).statusCode).toBe(429);
    // Nor can a forged address lock out a client the proxy forwards.
    expect((await loginVia(PROXY, STRANGER, PASSWORD)).statusCode).toBe(429);
    expect((await loginVia(PROXY, '198.51.100.3', PASSWORD)).statusCode).toBe(200);
  });
});
