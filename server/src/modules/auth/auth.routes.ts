import {
  ZCaptchaKey,
  ZLoginRequest,
  ZLoginSecurity,
  ZLoginSecurityQuery,
  ZLoginStep,
  ZTwoFactorLogin,
  ZTwoFactorLoginResult,
  ZTwoFactorSetup,
  ZTwoFactorSetupRequest,
  ZUserIdBody,
} from '@blrms/contracts';
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
            z.string().describe("data:image/png;base64,... (120×40) or '' (no captcha)"),
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
          summary:
            'Log in with username, password and captcha; returns the session token, or a two-factor challenge (twoFactor: verify | enrol) for /sys/login/twoFactor',
          body: ZLoginRequest,
          response: responses(ZLoginStep),
        },
      },
      async (req) =>
        ok(
          await auth.login(req.body, { ip: req.ip, userAgent: req.headers['user-agent'] ?? null }),
          message(req.lang, 'loginSucceeded'),
        ),
    );

    app.post(
      '/sys/login/twoFactor',
      {
        config: { public: true, rateLimit: { max: limits.login, timeWindow: '1 minute' } },
        schema: {
          tags: ['auth'],
          summary:
            'Second login step: the challenge and a 6-digit code or a recovery code; returns the session (and, after an enrolment, the recovery codes)',
          body: ZTwoFactorLogin,
          response: responses(ZTwoFactorLoginResult),
        },
      },
      async (req) =>
        ok(
          await auth.completeTwoFactor(req.body, {
            ip: req.ip,
            userAgent: req.headers['user-agent'] ?? null,
          }),
          message(req.lang, 'loginSucceeded'),
        ),
    );

    app.post(
      '/sys/login/twoFactor/setup',
      {
        config: { public: true, rateLimit: { max: limits.login, timeWindow: '1 minute' } },
        schema: {
          tags: ['auth'],
          summary:
            'For an enrol challenge: the secret and QR code to scan; confirm with /sys/login/twoFactor',
          body: ZTwoFactorSetupRequest,
          response: responses(ZTwoFactorSetup),
        },
      },
      async (req) => ok(await auth.challengeSetup(req.body.challenge)),
    );

    app.get(
      '/sys/user/loginSecurity',
      {
        config: { permission: 'account:user:list' },
        schema: {
          tags: ['auth'],
          summary:
            "Users' failed logins by source address, lockouts and whether they use a second factor",
          querystring: ZLoginSecurityQuery,
          response: responses(z.array(ZLoginSecurity)),
        },
      },
      async (req) => ok(await auth.loginSecurity(req.scope, req.query.ids.split(','))),
    );

    app.put(
      '/sys/user/unlock',
      {
        config: { permission: 'account:user:unlock' },
        schema: {
          tags: ['auth'],
          summary:
            'Lift the login lockout of a user (every source address) and forget its failures',
          body: ZUserIdBody,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await auth.unlock(req.scope, req.body.id);
        return ok(null, message(req.lang, 'loginUnlocked'));
      },
    );

    app.put(
      '/sys/user/resetTwoFactor',
      {
        config: { permission: 'account:user:resetTwoFactor' },
        schema: {
          tags: ['auth'],
          summary:
            "Remove a user's second factor and recovery codes (they enrol again if required)",
          body: ZUserIdBody,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await auth.resetTwoFactor(req.scope, req.body.id);
        return ok(null, message(req.lang, 'twoFactorResetDone'));
      },
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
