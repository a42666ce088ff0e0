import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { API_KEY_HEADER, PERMISSION_VERSION_HEADER } from '@blrms/contracts';
import { AppError, forbidden, unauthorized } from '../http/app-error.js';
import type { ApiKeyAuthenticator } from './api-key-auth.js';
import type { PermissionService } from './permissions.js';
import { setScope } from './scope.js';
import type { SessionService } from './sessions.js';

const DOCS_PREFIX = '/api/docs';

export type Access =
  { kind: 'public' } | { kind: 'authenticated' } | { kind: 'permission'; code: string };

/** Exactly one access declaration per route; anything else is a programming error. */
export function accessOf(config: RouteOptions['config'] | undefined, url: string): Access {
  const declared = [
    config?.public === true && ({ kind: 'public' } as const),
    config?.authenticated === true && ({ kind: 'authenticated' } as const),
    typeof config?.permission === 'string' &&
      config.permission !== '' &&
      ({ kind: 'permission', code: config.permission } as const),
  ].filter((a) => a !== false);
  if (declared.length !== 1 || !declared[0]) {
    throw new Error(
      `Route ${url} must declare exactly one of config.public, config.authenticated or config.permission`,
    );
  }
  return declared[0];
}

function headerValue(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function sessionToken(request: FastifyRequest): string | undefined {
  return headerValue(request, 'x-access-token');
}

/** A personal API key: `X-Api-Key: <key>` or `Authorization: Bearer <key>`. */
export function apiKeyOf(request: FastifyRequest): string | undefined {
  const header = headerValue(request, API_KEY_HEADER);
  if (header) return header.trim();
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headerValue(request, 'authorization') ?? '');
  return bearer?.[1];
}

/**
 * Where a key may be used: routes that declare a permission (the key's codes then decide) unless
 * they are session-only, and `authenticated` routes only when they opt in. Failing closed keeps
 * keys out of account routes (password, second factor, key management) added later.
 */
function keyAccepted(access: Access, config: RouteOptions['config'] | undefined): boolean {
  if (config?.sessionOnly) return false;
  return (
    access.kind === 'permission' || (access.kind === 'authenticated' && config?.apiKey === true)
  );
}

/**
 * Fails closed: a route without an access declaration stops the server at start-up, and every
 * request to a non-public route needs a live session (and the permission, when one is declared)
 * before its body is even validated.
 */
export function registerGuard(
  app: FastifyInstance,
  deps: {
    sessions: SessionService;
    permissions: PermissionService;
    apiKeys: ApiKeyAuthenticator;
  },
): ReadonlyMap<string, Access> {
  const routes = new Map<string, Access>();
  app.addHook('onRoute', (route) => {
    const url = route.url ?? route.path;
    // Outside /api only the built console is served, and the API docs are public by design: both
    // come from plugins that cannot carry our route config.
    if (!(url === '/api' || url.startsWith('/api/')) || url.startsWith(DOCS_PREFIX)) {
      const config = route.config ?? {};
      const hasDeclaration = config.public || config.authenticated || config.permission;
      if (!hasDeclaration) route.config = { ...config, public: true };
    }
    const access = accessOf(route.config, url);
    for (const method of [route.method].flat()) routes.set(`${method} ${url}`, access);
  });

  app.addHook('onRequest', async (request, reply) => {
    if (request.is404) return;
    const access = accessOf(request.routeOptions.config, request.routeOptions.url ?? request.url);
    if (access.kind === 'public') return;

    const token = sessionToken(request);
    const key = token ? undefined : apiKeyOf(request);
    if (key !== undefined) {
      const config = request.routeOptions.config;
      if (!keyAccepted(access, config)) throw new AppError('apiKeyNotAllowed', 403);
      const identity = await deps.apiKeys.authenticate(key, request.ip);
      const wait = deps.apiKeys.consume(identity.keyId);
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        throw new AppError('apiKeyRateLimited', 429, { seconds: wait });
      }
      // A key acts in the company it was made in; the guard does not let it switch.
      const companyHeader = headerValue(request, 'x-company-id');
      if (companyHeader !== undefined && companyHeader !== identity.companyId) {
        throw new AppError('companyDenied', 403);
      }
      const scope = {
        userId: identity.userId,
        username: identity.username,
        companyId: identity.companyId,
        orgCode: identity.orgCode,
        sessionId: `apikey:${identity.keyId}`,
        apiKey: { id: identity.keyId, name: identity.name, permissions: identity.permissions },
      };
      setScope(request, scope);
      const grants = await deps.permissions.grantsIn(scope);
      reply.header(PERMISSION_VERSION_HEADER, grants.version);
      if (access.kind === 'permission' && !grants.codes.has(access.code)) {
        throw new AppError('apiKeyForbidden', 403, { code: access.code });
      }
      return;
    }
    const session = token ? await deps.sessions.resolve(token) : null;
    if (!session) {
      // A frozen user is told why they are out (the console shows it on the login page).
      const frozen = token !== undefined && (await deps.sessions.endedByFreeze(token));
      throw frozen ? new AppError('userFrozen', 401) : unauthorized();
    }

    const companyId = headerValue(request, 'x-company-id') ?? session.companyId;
    if (!session.companyIds.includes(companyId)) throw new AppError('companyDenied', 403);

    setScope(request, {
      userId: session.userId,
      username: session.username,
      companyId,
      orgCode: session.orgCode,
      sessionId: session.sessionId,
    });
    const grants = await deps.permissions.grantsOf(session.userId, companyId);
    reply.header(PERMISSION_VERSION_HEADER, grants.version);
    if (access.kind === 'permission' && !grants.codes.has(access.code)) throw forbidden();
  });
  return routes;
}
