import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import { authHeaders, createTestApp, fieldText, type TestContext } from '../../test/app.js';
import {
  startCasServer,
  startOidcProvider,
  type CasServer,
  type RunningProvider,
} from '../../test/sso-providers.js';
import { parseCasResponse } from './cas.service.js';

const CONSOLE = 'http://console.test';
const CAS_CALLBACK = `${CONSOLE}/user/sso/cas`;
const OIDC_CALLBACK = `${CONSOLE}/user/sso/oidc`;
const CLIENT_ID = 'blrms-console';
const OTHER_CLIENT_ID = 'another-app';

/**
 * Signs in at the provider as a browser would: follows redirects with its cookies, fills the
 * login form with `login` and confirms the consent page, until the provider sends the browser to
 * the console's callback. Returns the parameters the console's callback page would receive.
 */
async function signInAtProvider(authorizationUrl: string, login: string) {
  const cookies = new Map<string, string>();
  const send = async (url: string, form?: Record<string, string>) => {
    const res = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    return res;
  };
  let url = authorizationUrl;
  let form: Record<string, string> | undefined;
  for (let step = 0; step < 12; step++) {
    const res = await send(url, form);
    form = undefined;
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, url);
      if (next.href.startsWith(CONSOLE)) return Object.fromEntries(next.searchParams);
      url = next.href;
      continue;
    }
    const html = await res.text();
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    if (res.status !== 200 || !prompt) throw new Error(`provider answered ${res.status}: ${html}`);
    form = prompt === 'login' ? { prompt, login, password: 'any' } : { prompt };
  }
  throw new Error('the provider never sent the browser back');
}

async function closedPortUrl(): Promise<string> {
  const provider = await startOidcProvider([]);
  await provider.stop();
  return provider.url;
}

describe('single sign-on', () => {
  let t: TestContext;
  let cas: CasServer;
  let op: RunningProvider;
  let acmeId: string;

  beforeAll(async () => {
    cas = await startCasServer();
    op = await startOidcProvider([
      { clientId: CLIENT_ID, redirectUris: [OIDC_CALLBACK] },
      { clientId: OTHER_CLIENT_ID, redirectUris: [OIDC_CALLBACK] },
    ]);
    t = await createTestApp({
      env: {
        SSO_CONSOLE_URL: CONSOLE,
        CAS_SERVER_URL: `${cas.url}/`,
        CAS_COMPANY: 'acme',
        CAS_LABEL: 'Acme CAS',
        OIDC_ISSUER: op.url,
        OIDC_CLIENT_ID: CLIENT_ID,
        OIDC_COMPANY: 'acme',
        OIDC_LABEL: 'Acme Keycloak',
      },
    });
    acmeId = await t.createCompany('acme');
    const otherId = await t.createCompany('other');
    const frozenCompanyId = await t.createCompany('frozenco');
    await t.createUser({ username: 'alice', password: 'Alice-Pass-1', companyId: acmeId });
    await t.createUser({ username: 'bob', password: 'Bobby-Pass-1', companyId: acmeId, status: 2 });
    await t.createUser({ username: 'mallory', password: 'Mallo-Pass-1', companyId: otherId });
    await t.createUser({ username: 'carol', password: 'Carol-Pass-1', companyId: frozenCompanyId });
    await t.db
      .updateTable('sys_company')
      .set({ status: 2 })
      .where('id', '=', frozenCompanyId)
      .execute();
  });
  afterAll(async () => {
    await t.close();
    await cas.stop();
    await op.stop();
  });

  const validate = (ticket: string, service = CAS_CALLBACK, lang = 'en-US') =>
    t.app.inject({
      method: 'GET',
      url: '/api/cas/client/validateLogin',
      query: { ticket, service },
      headers: { 'accept-language': lang },
    });

  const authorize = async (redirectUri = OIDC_CALLBACK) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/sys/sso/oidc/authorize',
      query: { redirectUri },
    });
    return res;
  };

  const callback = (params: Record<string, string>, lang = 'en-US') =>
    t.app.inject({
      method: 'POST',
      url: '/api/sys/sso/oidc/callback',
      payload: { code: params.code, state: params.state, iss: params.iss },
      headers: { 'accept-language': lang },
    });

  async function ssoLogRows(username: string) {
    return t.db
      .selectFrom('sys_log')
      .selectAll()
      .where('username', '=', username)
      .where('operate_type', '=', 'login')
      .execute();
  }

  async function expectSession(token: string, username: string) {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/sys/user/getCurrentUserDeparts',
      headers: authHeaders(token),
    });
    expect(res.statusCode).toBe(200);
    expect((await ssoLogRows(username)).length).toBeGreaterThan(0);
  }

  it('tells the console which buttons to show, without secrets', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/sys/sso/config' });
    expect(res.statusCode).toBe(200);
    expect(res.json().result).toEqual({
      cas: { label: 'Acme CAS', loginUrl: `${cas.url}/login` },
      oidc: { label: 'Acme Keycloak' },
    });
  });

  describe('CAS 3.0', () => {
    it('logs in the CAS user as the user of the configured company, in the spec shape', async () => {
      const res = await validate(cas.issue('alice', CAS_CALLBACK));
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.success).toBe(true);
      expect(body.result.userInfo).toMatchObject({ username: 'alice', companyId: acmeId });
      await expectSession(body.result.token, 'alice');
      const rows = await ssoLogRows('alice');
      expect(
        rows.some(
          (r) => r.content_params?.includes('ssoLogin') && r.content_params.includes('CAS'),
        ),
      ).toBe(true);
    });

    it('refuses a ticket the CAS server does not recognise, in both languages', async () => {
      const en = await validate('ST-never-issued');
      expect(en.statusCode).toBe(401);
      expect(en.json()).toMatchObject({
        success: false,
        message: expect.stringMatching(/CAS ticket is invalid/),
      });
      const zh = await validate('ST-never-issued-2', CAS_CALLBACK, 'zh-CN');
      expect(zh.json().message).toMatch(/CAS 票据无效/);
    });

    it('refuses a replayed ticket, even when the CAS server would validate it again', async () => {
      const ticket = cas.issue('alice', CAS_CALLBACK);
      expect((await validate(ticket)).statusCode).toBe(200);
      expect((await validate(ticket)).statusCode).toBe(401);

      const lax = cas.issue('alice', CAS_CALLBACK, { lax: true });
      expect((await validate(lax)).statusCode).toBe(200);
      const asked = cas.validations;
      const replay = await validate(lax);
      expect(replay.statusCode).toBe(401);
      expect(cas.validations).toBe(asked);
    });

    it('refuses unknown, frozen and other-company users and frozen companies', async () => {
      const unknown = await validate(cas.issue('nobody', CAS_CALLBACK));
      expect(unknown.statusCode).toBe(403);
      expect(unknown.json().message).toMatch(/nobody cannot sign in here/);

      const frozen = await validate(cas.issue('bob', CAS_CALLBACK));
      expect(frozen.statusCode).toBe(403);
      expect(frozen.json().message).toBe('This account is frozen');

      const namesake = await validate(cas.issue('mallory', CAS_CALLBACK));
      expect(namesake.statusCode).toBe(403);
      expect(namesake.json().message).toMatch(/mallory cannot sign in here/);

      const admin = await validate(cas.issue('admin', CAS_CALLBACK));
      expect(admin.statusCode).toBe(403);

      const frozenCompany = await validate(cas.issue('carol', CAS_CALLBACK), CAS_CALLBACK, 'zh-CN');
      expect(frozenCompany.statusCode).toBe(403);
      expect(frozenCompany.json().success).toBe(false);
      const sessions = await t.db.selectFrom('sys_session').select('user_id').execute();
      const refused = await t.db
        .selectFrom('sys_user')
        .select('id')
        .where('username', 'in', ['bob', 'mallory', 'carol'])
        .execute();
      const ids = new Set(refused.map((r) => r.id));
      expect(sessions.filter((s) => ids.has(s.user_id))).toEqual([]);
    });

    it('accepts only tickets issued to the console itself', async () => {
      const service = 'http://evil.test/user/sso/cas';
      const res = await validate(cas.issue('alice', service), service);
      expect(res.statusCode).toBe(400);
      expect(fieldText(res.json())).toMatch(/^service: /);
      const other = await validate(
        cas.issue('alice', `${CONSOLE}/elsewhere`),
        `${CONSOLE}/elsewhere`,
      );
      expect(other.statusCode).toBe(400);
    });

    it('names the field and rule of a malformed request', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/cas/client/validateLogin',
        query: { ticket: '', service: 'ftp://x' },
      });
      expect(res.statusCode).toBe(400);
      expect(fieldText(res.json())).toMatch(/ticket: .*service: /);
    });

    it('reads the username from a configured attribute of the CAS answer', () => {
      const parsed = parseCasResponse(`<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas">
  <cas:authenticationSuccess><cas:user>u-001</cas:user>
    <cas:attributes><cas:uid>00123</cas:uid><cas:memberOf>a</cas:memberOf><cas:memberOf>b</cas:memberOf></cas:attributes>
  </cas:authenticationSuccess></cas:serviceResponse>`);
      expect(parsed).toEqual({
        ok: true,
        user: 'u-001',
        attributes: { uid: '00123', memberOf: 'a' },
      });
      expect(
        parseCasResponse(
          '<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas"><cas:authenticationFailure code="INVALID_TICKET">no</cas:authenticationFailure></cas:serviceResponse>',
        ),
      ).toEqual({ ok: false, code: 'INVALID_TICKET' });
      expect(() => parseCasResponse('<html>login</html>')).toThrow();
    });
  });

  describe('OpenID Connect', () => {
    it('starts an authorization code flow with PKCE S256, state and nonce', async () => {
      const res = await authorize();
      expect(res.statusCode).toBe(200);
      const url = new URL(res.json().result.url);
      expect(url.origin).toBe(op.url);
      expect(Object.fromEntries(url.searchParams)).toMatchObject({
        client_id: CLIENT_ID,
        response_type: 'code',
        redirect_uri: OIDC_CALLBACK,
        code_challenge_method: 'S256',
        scope: 'openid profile email',
      });
      expect(url.searchParams.get('state')).toBeTruthy();
      expect(url.searchParams.get('nonce')).toBeTruthy();
      expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    });

    it('logs in the provider account as the user of the configured company, once per state', async () => {
      const params = await signInAtProvider((await authorize()).json().result.url, 'alice');
      const res = await callback(params);
      expect(res.statusCode).toBe(200);
      expect(res.json().result.userInfo).toMatchObject({ username: 'alice', companyId: acmeId });
      await expectSession(res.json().result.token, 'alice');
      const rows = await ssoLogRows('alice');
      expect(rows.some((r) => r.content_params?.includes('OpenID Connect'))).toBe(true);

      const replay = await callback(params, 'zh-CN');
      expect(replay.statusCode).toBe(400);
      expect(replay.json().message).toBe('单点登录请求已过期或已使用，请重新登录');
    });

    it('refuses a state older than ten minutes', async () => {
      const params = await signInAtProvider((await authorize()).json().result.url, 'alice');
      t.clock.advance(10 * 60_000 + 1);
      const res = await callback(params);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/expired or was already used/);
    });

    it('refuses an ID token with another nonce', async () => {
      const url = new URL((await authorize()).json().result.url);
      url.searchParams.set('nonce', 'a-nonce-the-server-never-issued');
      const res = await callback(await signInAtProvider(url.href, 'alice'));
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toMatch(/failed verification/);
    });

    it('refuses a code issued to another client (another audience)', async () => {
      const url = new URL((await authorize()).json().result.url);
      url.searchParams.set('client_id', OTHER_CLIENT_ID);
      const res = await callback(await signInAtProvider(url.href, 'alice'), 'zh-CN');
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe('身份提供方的应答未通过校验，请重新登录');
    });

    it('refuses a forged state and unknown or other-company accounts', async () => {
      const params = await signInAtProvider((await authorize()).json().result.url, 'alice');
      const forged = await callback({ ...params, state: 'forged-state' });
      expect(forged.statusCode).toBe(400);

      const unknown = await callback(
        await signInAtProvider((await authorize()).json().result.url, 'nobody'),
      );
      expect(unknown.statusCode).toBe(403);
      expect(unknown.json().message).toMatch(/nobody cannot sign in here/);

      const namesake = await callback(
        await signInAtProvider((await authorize()).json().result.url, 'mallory'),
      );
      expect(namesake.statusCode).toBe(403);

      const frozen = await callback(
        await signInAtProvider((await authorize()).json().result.url, 'bob'),
      );
      expect(frozen.statusCode).toBe(403);
      expect(frozen.json().message).toBe('This account is frozen');
    });

    it('accepts only the console as the redirect URI', async () => {
      const res = await authorize('http://evil.test/user/sso/oidc');
      expect(res.statusCode).toBe(400);
      expect(fieldText(res.json())).toMatch(/^redirectUri: /);
    });
  });
});

describe('single sign-on with its providers down', () => {
  let t: TestContext;
  beforeAll(async () => {
    const down = await closedPortUrl();
    t = await createTestApp({
      env: {
        CAS_SERVER_URL: down,
        CAS_COMPANY: 'acme',
        OIDC_ISSUER: down,
        OIDC_CLIENT_ID: CLIENT_ID,
        OIDC_COMPANY: 'acme',
      },
    });
  });
  afterAll(() => t.close());

  it('answers 502 with a translated message, for CAS and OpenID Connect', async () => {
    const service = 'http://localhost/user/sso/cas';
    const casRes = await t.app.inject({
      method: 'GET',
      url: '/api/cas/client/validateLogin',
      query: { ticket: 'ST-1', service },
      headers: { 'accept-language': 'zh-CN' },
    });
    expect(casRes.statusCode).toBe(502);
    expect(casRes.json().message).toBe('无法连接单点登录服务，请稍后再试或使用账号密码登录');

    const oidcRes = await t.app.inject({
      method: 'GET',
      url: '/api/sys/sso/oidc/authorize',
      query: { redirectUri: 'http://localhost/user/sso/oidc' },
      headers: { 'accept-language': 'en-US' },
    });
    expect(oidcRes.statusCode).toBe(502);
    expect(oidcRes.json().message).toMatch(/cannot be reached/);
  });
});

describe('single sign-on not configured', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('shows no buttons and refuses the endpoints', async () => {
    const config = await t.app.inject({ method: 'GET', url: '/api/sys/sso/config' });
    expect(config.json().result).toEqual({ cas: null, oidc: null });
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/cas/client/validateLogin',
      query: { ticket: 'ST-1', service: 'http://localhost/user/sso/cas' },
      headers: { 'accept-language': 'en-US' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Single sign-on through CAS is not configured');
  });
});

describe('single sign-on configuration', () => {
  it('names the variable a protocol is missing', () => {
    expect(() => loadConfig({ CAS_SERVER_URL: 'https://cas.example.com/cas' })).toThrow(
      /CAS_COMPANY: required when CAS_SERVER_URL is set/,
    );
    expect(() => loadConfig({ OIDC_ISSUER: 'https://id.example.com' })).toThrow(ConfigError);
    expect(() => loadConfig({ OIDC_ISSUER: 'not a url' })).toThrow(/OIDC_ISSUER: must be an http/);
    expect(loadConfig({}).sso).toEqual({ consoleUrl: null, cas: null, oidc: null });
  });
});
