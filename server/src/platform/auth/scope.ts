import type { FastifyRequest } from 'fastify';

/** Who is acting, and in which company: what services need to apply rules and tenant filters. */
export interface Scope {
  userId: string;
  username: string;
  companyId: string;
  orgCode: string | null;
  sessionId: string;
  /**
   * Set when the request came with a personal API key instead of a session: the key acts as its
   * user with at most these permission codes (`PermissionService.grantsIn` narrows to them).
   */
  apiKey?: ApiKeyScope;
}

export interface ApiKeyScope {
  id: string;
  name: string;
  permissions: ReadonlySet<string>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable without a session. */
    public?: true;
    /** Any signed-in user. */
    authenticated?: true;
    /** Signed-in user holding this permission code in the current company. */
    permission?: string;
    /**
     * A personal API key is refused here although the route declares a permission: managing keys,
     * anything a stolen key must not reach. Keys are refused on `authenticated` routes unless they
     * declare `apiKey: true`.
     */
    sessionOnly?: true;
    /** An `authenticated` route that API keys may call too. */
    apiKey?: true;
    /** Operation-log category; defaults to the HTTP method. */
    operateType?: string;
  }
  interface FastifyRequest {
    /** Set by the guard on every non-public route; reading it on a public route is a bug. */
    scope: Scope;
  }
}

const scopes = new WeakMap<FastifyRequest, Scope>();

export function setScope(request: FastifyRequest, scope: Scope): void {
  scopes.set(request, scope);
}

export function scopeIfSignedIn(request: FastifyRequest): Scope | undefined {
  return scopes.get(request);
}

export function readScope(request: FastifyRequest): Scope {
  const scope = scopes.get(request);
  if (!scope) throw new Error(`request.scope read on a route without a session: ${request.url}`);
  return scope;
}
