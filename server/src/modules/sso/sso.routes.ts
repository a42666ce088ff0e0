import {
  ZCasValidateQuery,
  ZLoginResult,
  ZOidcAuthorizeQuery,
  ZOidcAuthorizeResult,
  ZOidcCallbackRequest,
  ZSsoConfig,
} from '@blrms/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZNoQuery, ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import type { SsoRequest, SsoService } from './sso.service.js';

const requestOf = (req: FastifyRequest): SsoRequest => ({
  ip: req.ip,
  userAgent: req.headers['user-agent'] ?? null,
  host: req.headers.host,
});

/** Per minute and IP, as the password login. */
export function ssoRoutes(sso: SsoService, loginLimit: number): FastifyPluginAsyncZod {
  return async (app) => {
    const rateLimit = { max: loginLimit, timeWindow: '1 minute' };

    app.get(
      '/sys/sso/config',
      {
        config: { public: true },
        schema: {
          tags: ['auth'],
          summary: 'Which single sign-on buttons the login page shows (labels, no secrets)',
          querystring: ZNoQuery,
          response: responses(ZSsoConfig),
        },
      },
      async () => ok(sso.publicConfig()),
    );

    app.get(
      '/cas/client/validateLogin',
      {
        config: { public: true, rateLimit },
        schema: {
          tags: ['auth'],
          summary:
            'Log in with a CAS service ticket: validated at the CAS server (CAS 3.0 /p3/serviceValidate), the CAS user mapped to a user of the configured company',
          querystring: ZCasValidateQuery,
          response: responses(ZLoginResult),
        },
      },
      async (req) =>
        ok(await sso.casValidate(req.query, requestOf(req)), message(req.lang, 'loginSucceeded')),
    );

    app.get(
      '/sys/sso/oidc/authorize',
      {
        config: { public: true, rateLimit },
        schema: {
          tags: ['auth'],
          summary:
            "Start an OpenID Connect sign-in (authorization code, PKCE S256, state and nonce kept 10 minutes, single use): the provider's URL to send the browser to",
          querystring: ZOidcAuthorizeQuery,
          response: responses(ZOidcAuthorizeResult),
        },
      },
      async (req) => ok(await sso.oidcAuthorize(req.query.redirectUri, req.headers.host)),
    );

    app.post(
      '/sys/sso/oidc/callback',
      {
        config: { public: true, rateLimit },
        schema: {
          tags: ['auth'],
          summary:
            'Finish an OpenID Connect sign-in: the code and state the provider returned to the console; the ID token is verified and its username claim mapped to a user of the configured company',
          body: ZOidcCallbackRequest,
          response: responses(ZLoginResult),
        },
      },
      async (req) =>
        ok(await sso.oidcCallback(req.body, requestOf(req)), message(req.lang, 'loginSucceeded')),
    );
  };
}
