import {
  ZRecoveryCodes,
  ZTwoFactorDisable,
  ZTwoFactorEnable,
  ZTwoFactorPolicy,
  ZTwoFactorPolicySet,
  ZTwoFactorSetup,
  ZTwoFactorStatus,
} from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZNoQuery, ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import type { TwoFactorService } from './two-factor.service.js';

const tags = ['two-factor'];

export function twoFactorRoutes(twoFactor: TwoFactorService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/sys/twoFactor/status',
      {
        config: { authenticated: true },
        schema: {
          tags,
          summary: "The signed-in user's second factor",
          querystring: ZNoQuery,
          response: responses(ZTwoFactorStatus),
        },
      },
      async (req) => ok(await twoFactor.status(req.scope)),
    );

    app.post(
      '/sys/twoFactor/setup',
      {
        config: { authenticated: true },
        schema: {
          tags,
          summary:
            'Start enrolment: a new secret and its QR code (shown until confirmed with /sys/twoFactor/enable)',
          response: responses(ZTwoFactorSetup),
        },
      },
      async (req) => ok(await twoFactor.setup(req.scope)),
    );

    app.post(
      '/sys/twoFactor/enable',
      {
        config: { authenticated: true },
        schema: {
          tags,
          summary: 'Confirm enrolment with a code from the app; returns 10 recovery codes, once',
          body: ZTwoFactorEnable,
          response: responses(ZRecoveryCodes),
        },
      },
      async (req) =>
        ok(
          { recoveryCodes: await twoFactor.enable(req.scope, req.body.code) },
          message(req.lang, 'twoFactorEnabled'),
        ),
    );

    app.post(
      '/sys/twoFactor/disable',
      {
        config: { authenticated: true },
        schema: {
          tags,
          summary: 'Turn the second factor off with a current code or the password',
          body: ZTwoFactorDisable,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await twoFactor.disable(req.scope, req.body);
        return ok(null, message(req.lang, 'twoFactorDisabled'));
      },
    );

    app.get(
      '/sys/twoFactor/policy',
      {
        config: { permission: 'account:user:twoFactorPolicy' },
        schema: {
          tags,
          summary: 'Whether the current company, and the platform, require a second factor',
          querystring: ZNoQuery,
          response: responses(ZTwoFactorPolicy),
        },
      },
      async (req) => ok(await twoFactor.policy(req.scope)),
    );

    app.put(
      '/sys/twoFactor/policy/company',
      {
        config: { permission: 'account:user:twoFactorPolicy' },
        schema: {
          tags,
          summary: 'Require (or not) a second factor of every user of the current company',
          body: ZTwoFactorPolicySet,
          response: responses(ZTwoFactorPolicy),
        },
      },
      async (req) =>
        ok(
          await twoFactor.setCompanyRequired(req.scope, req.body.required),
          message(req.lang, 'twoFactorPolicySaved'),
        ),
    );

    app.put(
      '/sys/twoFactor/policy/platform',
      {
        config: { permission: 'system:setting:twoFactor' },
        schema: {
          tags,
          summary: 'Require (or not) a second factor of every user of the platform',
          body: ZTwoFactorPolicySet,
          response: responses(ZTwoFactorPolicy),
        },
      },
      async (req) =>
        ok(
          await twoFactor.setPlatformRequired(req.scope, req.body.required),
          message(req.lang, 'twoFactorPolicySaved'),
        ),
    );
  };
}
