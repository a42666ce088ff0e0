import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.js';
import type { ApiKeyAuthenticator } from './api-key-auth.js';
import { registerGuard } from './guard.js';
import type { PermissionService } from './permissions.js';
import type { SessionService } from './sessions.js';

describe('route access declarations', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('every API route declares exactly one access rule, and only the listed ones are public', () => {
    const apiRoutes = [...t.app.routeAccess].filter(([key]) =>
      key.split(' ')[1]?.startsWith('/api/'),
    );
    expect(apiRoutes.length).toBeGreaterThan(10);
    const publicRoutes = apiRoutes
      .filter(([key, access]) => access.kind === 'public' && !key.includes('/api/docs'))
      .map(([key]) => key)
      .sort();
    expect(publicRoutes).toEqual([
      // Single sign-on: the CAS ticket or the OIDC code and state prove the user (sso.test.ts).
      'GET /api/cas/client/validateLogin',
      // Firmware downloads: no session, a signed and expiring link instead (firmware.test.ts).
      'GET /api/firmware/download/:id',
      'GET /api/health',
      // File library links: no session, a signed link bound to its company (oss-file.test.ts).
      'GET /api/sys/oss/file/content/:id',
      'GET /api/sys/randomImage/:key',
      'GET /api/sys/sso/config',
      'GET /api/sys/sso/oidc/authorize',
      'GET /api/sys/user/registerCheck',
      'HEAD /api/cas/client/validateLogin',
      'HEAD /api/firmware/download/:id',
      'HEAD /api/health',
      'HEAD /api/sys/oss/file/content/:id',
      'HEAD /api/sys/randomImage/:key',
      'HEAD /api/sys/sso/config',
      'HEAD /api/sys/sso/oidc/authorize',
      'HEAD /api/sys/user/registerCheck',
      // The broker's hooks: no session, the shared secret instead (mqtt-hook.routes.test.ts).
      'POST /api/mqtt/acl',
      'POST /api/mqtt/auth',
      'POST /api/sys/login',
      // The second login step: the challenge a correct password returned (two-factor.test.ts).
      'POST /api/sys/login/twoFactor',
      'POST /api/sys/login/twoFactor/setup',
      'POST /api/sys/logout',
      'POST /api/sys/phoneLogin',
      'POST /api/sys/sms',
      'POST /api/sys/sso/oidc/callback',
      'POST /api/sys/user/passwordReset',
      'POST /api/sys/user/register',
      'POST /api/sys/user/registerCodeCheck',
      'POST /api/sys/user/registerEmailCode',
      'POST /api/sys/user/resetCode',
    ]);
    expect(t.app.routeAccess.get('GET /api/sys/log/list')).toEqual({
      kind: 'permission',
      code: 'system:log:list',
    });
  });

  it('refuses to start with a route that declares nothing, or two things', async () => {
    const deps = {
      sessions: {} as SessionService,
      permissions: {} as PermissionService,
      apiKeys: {} as ApiKeyAuthenticator,
    };
    const bare = Fastify();
    registerGuard(bare, deps);
    expect(() => bare.get('/api/forgotten', async () => 'x')).toThrow(/must declare exactly one/);

    const both = Fastify();
    registerGuard(both, deps);
    expect(() =>
      both.get('/api/both', { config: { public: true, permission: 'x:y' } }, async () => 'x'),
    ).toThrow(/must declare exactly one/);
  });
});
