import { ZCaptchaKey, ZLoginRequest, ZLoginResult } from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessionToken } from '../../platform/auth/guard.js';
import { ZNoQuery, ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import type { AuthService } from './auth.service.js';

export interface AuthRateLimits {
  /** Requests per minute and IP. */
  login: number;
  captcha: number;
}

export function authRoutes(auth: AuthService, limits: AuthRateLimits): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/sys/randomImage/:key',
      {
        config: { public: true, rateLimit: { max: limits.captcha, timeWindow: '1 minute' } },
        schema: {
          tags: ['auth'],
          summary:
            'A new captcha image for the key (valid 60 s, single use); an empty string when the platform runs without captchas (CAPTCHA=off)',
          params: z.object({ key: ZCaptchaKey }),
          querystring: ZNoQuery,
          response: responses(
            z.string().describe("data:image/svg+xml;base64,... or '' (no captcha)"),
          ),
        },
      },
      async (req) => ok(await auth.captchaImage(req.params.key)),
    );

    app.post(
      '/sys/login',
      {
        config: { public: true, rateLimit: { max: limits.login, timeWindow: '1 minute' } },
        schema: {
          tags: ['auth'],
          summary: 'Log in with username, password and captcha; returns the session token',
          body: ZLoginRequest,
          response: responses(ZLoginResult),
        },
      },
      async (req) =>
        ok(
          await auth.login(req.body, { ip: req.ip, userAgent: req.headers['user-agent'] ?? null }),
          message(req.lang, 'loginSucceeded'),
        ),
    );

    app.post(
      '/sys/logout',
      {
        // Public so that a client holding a stale token can always complete its logout.
        config: { public: true },
        schema: {
          tags: ['auth'],
          summary: 'End the session of X-Access-Token',
          response: responses(z.null()),
        },
      },
      async (req) => {
        await auth.logout(sessionToken(req));
        return ok(null, message(req.lang, 'logoutSucceeded'));
      },
    );
  };
}
