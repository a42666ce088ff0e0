import {
  ADMIN_USER_STATUS,
  SSO_CALLBACK_PATHS,
  type TCasValidateQuery,
  type TLoginResult,
  type TOidcAuthorizeResult,
  type TOidcCallbackRequest,
  type TSsoConfig,
} from '@blrms/contracts';
import type { FastifyBaseLogger } from 'fastify';
import * as oidc from 'openid-client';
import type { CasConfig, OidcConfig, SsoConfig } from '../../config.js';
import { sha256 } from '../../platform/auth/tokens.js';
import type { Clock } from '../../platform/clock.js';
import { AppError } from '../../platform/http/app-error.js';
import type { AuthService, LoginContext } from '../auth/auth.service.js';
import type { LogService } from '../log/log.service.js';
import type { UserService } from '../user/user.service.js';
import { parseCasResponse } from './cas.service.js';
import type { SsoRepository } from './sso.repository.js';

/** A user has this long at the identity provider to come back with the code. */
export const OIDC_STATE_TTL_MS = 10 * 60_000;
/** CAS tickets live seconds to minutes; a spent one is remembered far longer than that. */
const SPENT_TICKET_TTL_MS = 24 * 60 * 60_000;
const PROVIDER_TIMEOUT_S = 5;

type Protocol = 'cas' | 'oidc';
const PROTOCOL_NAMES: Record<Protocol, string> = { cas: 'CAS', oidc: 'OpenID Connect' };

export interface SsoRequest extends LoginContext {
  /** `host[:port]` the browser used: the callback must be on it when no console URL is set. */
  host: string | undefined;
}

/** Errors of the way to the provider (down, timing out, answering with an error page). */
function isProviderUnreachable(error: unknown): boolean {
  if (error instanceof TypeError) return true;
  if (error instanceof DOMException)
    return error.name === 'TimeoutError' || error.name === 'AbortError';
  if (error instanceof oidc.ClientError) {
    return ['OAUTH_RESPONSE_IS_NOT_CONFORM', 'OAUTH_RESPONSE_IS_NOT_JSON'].includes(
      error.code ?? '',
    );
  }
  return false;
}

/**
 * Single sign-on: an identity proven by the CAS server or the OpenID provider of the deployment
 * becomes a session of the existing BLRMS user with that username in the configured company.
 */
export class SsoService {
  private discovery: Promise<oidc.Configuration> | null = null;

  constructor(
    private readonly config: SsoConfig,
    private readonly repository: SsoRepository,
    private readonly users: UserService,
    private readonly auth: AuthService,
    private readonly logs: LogService,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  publicConfig(): TSsoConfig {
    const { cas, oidc: openid } = this.config;
    return {
      cas: cas ? { label: cas.label, loginUrl: `${cas.serverUrl}/login` } : null,
      oidc: openid ? { label: openid.label } : null,
    };
  }

  async casValidate(query: TCasValidateQuery, request: SsoRequest): Promise<TLoginResult> {
    const cas = this.casConfig();
    // A ticket issued to another application of the same CAS server would validate for that
    // application's service URL: only tickets issued to this console are accepted.
    this.checkCallback(query.service, 'cas', 'service', request.host);
    const now = this.clock();
    if (
      !(await this.repository.spendTicket(sha256(query.ticket), now + SPENT_TICKET_TTL_MS, now))
    ) {
      throw new AppError('ssoTicketInvalid', 401);
    }
    const url = new URL(`${cas.serverUrl}/p3/serviceValidate`);
    url.searchParams.set('service', query.service);
    url.searchParams.set('ticket', query.ticket);
    let body: string;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(PROVIDER_TIMEOUT_S * 1000) });
      if (!res.ok) throw new Error(`CAS server answered HTTP ${res.status}`);
      body = await res.text();
    } catch (err) {
      this.log.warn({ err, url: url.origin }, 'CAS server unreachable');
      throw new AppError('ssoProviderUnavailable', 502);
    }
    let validation;
    try {
      validation = parseCasResponse(body);
    } catch (err) {
      this.log.warn({ err }, 'CAS server sent no CAS 3.0 answer');
      throw new AppError('ssoProviderUnavailable', 502);
    }
    if (!validation.ok) {
      this.log.info({ code: validation.code }, 'CAS ticket refused');
      throw new AppError('ssoTicketInvalid', 401);
    }
    const username = cas.usernameAttribute
      ? validation.attributes[cas.usernameAttribute]
      : validation.user;
    if (!username) {
      throw new AppError('ssoUsernameMissing', 403, { name: cas.usernameAttribute ?? 'user' });
    }
    return this.signIn('cas', cas.company, username, request);
  }

  async oidcAuthorize(
    redirectUri: string,
    host: string | undefined,
  ): Promise<TOidcAuthorizeResult> {
    const settings = this.oidcConfig();
    this.checkCallback(redirectUri, 'oidc', 'redirectUri', host);
    const client = await this.oidcClient(settings);
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const now = this.clock();
    await this.repository.saveState(
      {
        state,
        code_verifier: codeVerifier,
        nonce,
        redirect_uri: redirectUri,
        expire_time: now + OIDC_STATE_TTL_MS,
      },
      now,
    );
    const url = oidc.buildAuthorizationUrl(client, {
      redirect_uri: redirectUri,
      scope: settings.scopes,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url: url.href };
  }

  async oidcCallback(input: TOidcCallbackRequest, request: SsoRequest): Promise<TLoginResult> {
    const settings = this.oidcConfig();
    const pending = await this.repository.takeState(input.state);
    if (!pending || pending.expire_time <= this.clock()) {
      throw new AppError('ssoStateInvalid', 400);
    }
    const client = await this.oidcClient(settings);
    const callback = new URL(pending.redirect_uri);
    callback.searchParams.set('code', input.code);
    callback.searchParams.set('state', input.state);
    if (input.iss) callback.searchParams.set('iss', input.iss);
    let username: unknown;
    try {
      // Checks the state, exchanges the code with the PKCE verifier, and verifies the ID token:
      // signature (non-repudiation checks), issuer, audience, expiry and nonce.
      const tokens = await oidc.authorizationCodeGrant(client, callback, {
        pkceCodeVerifier: pending.code_verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      username = claims?.[settings.usernameClaim];
      // Providers that keep profile claims out of the ID token serve them at the UserInfo
      // endpoint, for the same subject.
      if (username === undefined && claims) {
        const info = await oidc.fetchUserInfo(client, tokens.access_token, claims.sub);
        username = info[settings.usernameClaim];
      }
    } catch (err) {
      if (isProviderUnreachable(err)) {
        this.log.warn({ err }, 'OpenID provider unreachable');
        throw new AppError('ssoProviderUnavailable', 502);
      }
      this.log.warn({ err }, 'OpenID Connect sign-in refused');
      throw new AppError('ssoTokenInvalid', 401);
    }
    if (typeof username !== 'string' || username === '') {
      throw new AppError('ssoUsernameMissing', 403, { name: settings.usernameClaim });
    }
    return this.signIn('oidc', settings.company, username, request);
  }

  /**
   * Only an active user of the configured company: a namesake in another company, a frozen user
   * or a frozen company (refused when the session is created) never gets a session.
   */
  private async signIn(
    protocol: Protocol,
    companyCode: string,
    username: string,
    request: SsoRequest,
  ): Promise<TLoginResult> {
    const company = await this.repository.companyByCode(companyCode);
    if (!company) {
      this.log.error({ companyCode, protocol }, 'single sign-on company does not exist');
      throw new AppError('ssoCompanyUnknown', 503, { code: companyCode });
    }
    const user = await this.users.findForLogin(username);
    if (!user || user.company_id !== company.id) {
      throw new AppError('ssoUserUnknown', 403, { username });
    }
    if (user.status !== ADMIN_USER_STATUS.normal) throw new AppError('userFrozen', 403);
    const result = await this.auth.startSession(user, request);
    await this.logs.recordOperation({
      scope: {
        userId: user.id,
        username: user.username,
        companyId: user.company_id,
        orgCode: result.userInfo.orgCode,
        sessionId: '',
      },
      method: protocol === 'cas' ? 'GET' : 'POST',
      path: protocol === 'cas' ? '/api/cas/client/validateLogin' : '/api/sys/sso/oidc/callback',
      status: 200,
      ip: request.ip,
      costMs: 0,
      declaredVerb: 'ssoLogin',
      query: { protocol },
      body: { name: PROTOCOL_NAMES[protocol] },
    });
    return result;
  }

  /**
   * The callback must be the console's own page: with a configured console URL exactly that,
   * else the page on the host the browser is using.
   */
  private checkCallback(
    value: string,
    protocol: Protocol,
    field: string,
    host: string | undefined,
  ) {
    const url = new URL(value);
    const path = SSO_CALLBACK_PATHS[protocol];
    const expectedOrigin = this.config.consoleUrl ? new URL(this.config.consoleUrl).origin : null;
    const sameSite = expectedOrigin
      ? url.origin === expectedOrigin
      : host !== undefined && url.host === new URL(`http://${host}`).host;
    if (!sameSite || url.pathname !== path || url.search !== '' || url.hash !== '') {
      throw new AppError('ssoCallbackInvalid', 400, { field });
    }
  }

  private casConfig(): CasConfig {
    if (!this.config.cas) throw new AppError('ssoNotConfigured', 404, { protocol: 'CAS' });
    return this.config.cas;
  }

  private oidcConfig(): OidcConfig {
    if (!this.config.oidc) {
      throw new AppError('ssoNotConfigured', 404, { protocol: PROTOCOL_NAMES.oidc });
    }
    return this.config.oidc;
  }

  /** Discovered once; a failed discovery is retried by the next sign-in. */
  private oidcClient(settings: OidcConfig): Promise<oidc.Configuration> {
    this.discovery ??= oidc
      .discovery(
        new URL(settings.issuer),
        settings.clientId,
        settings.clientSecret ?? undefined,
        settings.clientSecret ? oidc.ClientSecretBasic(settings.clientSecret) : oidc.None(),
        {
          timeout: PROVIDER_TIMEOUT_S,
          // An http:// issuer is for development and tests; production providers use https.
          execute: settings.issuer.startsWith('http:') ? [oidc.allowInsecureRequests] : [],
        },
      )
      .then((client) => {
        oidc.enableNonRepudiationChecks(client);
        return client;
      })
      .catch((err: unknown) => {
        this.discovery = null;
        this.log.warn({ err, issuer: settings.issuer }, 'OpenID provider discovery failed');
        throw new AppError('ssoProviderUnavailable', 502);
      });
    return this.discovery;
  }
}
