import {
  ZLoginStep,
  ZPasswordResetRequest,
  ZPhoneLoginRequest,
  ZRegisterCheckQuery,
  ZRegisterCodeCheckRequest,
  ZRegisterEmailCodeRequest,
  ZRegisterRequest,
  ZRegisterResult,
  ZResetCodeRequest,
  ZSmsRequest,
  ZSmsSettings,
  ZSmsSettingsView,
} from '@blrms/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZNoQuery, ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import type { AccountService, RequestContext } from './account.service.js';
import type { SmsSettingsService } from './sms-settings.service.js';

/** Requests per minute and IP on the public account endpoints. */
export interface AccountRateLimits {
  /** Endpoints that send a code (mail or SMS). */
  sendCode: number;
  /** Endpoints that check a code (register, phone login, password reset). */
  verify: number;
  /** The registration form's duplicate checks. */
  check: number;
}

const tags = ['account'];

const contextOf = (req: FastifyRequest): RequestContext => ({
  ip: req.ip,
  userAgent: req.headers['user-agent'] ?? null,
  lang: req.lang,
});

export function accountRoutes(
  accounts: AccountService,
  smsSettings: SmsSettingsService,
  limits: AccountRateLimits,
): FastifyPluginAsyncZod {
  const perMinute = (max: number) => ({ max, timeWindow: '1 minute' });
  return async (app) => {
    app.get(
      '/sys/user/registerCheck',
      {
        config: { public: true, rateLimit: perMinute(limits.check) },
        schema: {
          tags,
          summary: 'Registration form: 409 with the duplicate message when the value is taken',
          querystring: ZRegisterCheckQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await accounts.checkRegisterField(req.query);
        return ok(null, message(req.lang, 'registerFieldAvailable'));
      },
    );

    app.post(
      '/sys/user/registerEmailCode',
      {
        config: { public: true, rateLimit: perMinute(limits.sendCode) },
        schema: {
          tags,
          summary: 'Mail a registration code to the address',
          body: ZRegisterEmailCodeRequest,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await accounts.sendRegisterCode(req.body.email, contextOf(req));
        return ok(null, message(req.lang, 'codeSent'));
      },
    );

    app.post(
      '/sys/user/registerCodeCheck',
      {
        config: { public: true, rateLimit: perMinute(limits.verify) },
        schema: {
          tags,
          summary: 'Registration form: 400 when the emailed code is wrong (it stays unused)',
          body: ZRegisterCodeCheckRequest,
          response: responses(z.null()),
        },
      },
      async (req) => ok(await accounts.checkRegisterCode(req.body)),
    );

    app.post(
      '/sys/user/register',
      {
        config: { public: true, rateLimit: perMinute(limits.verify), operateType: 'register' },
        schema: {
          tags,
          summary: 'Create an account (and its own company) with the emailed code',
          body: ZRegisterRequest,
          response: responses(ZRegisterResult),
        },
      },
      async (req) => ok(await accounts.register(req.body), message(req.lang, 'registerSucceeded')),
    );

    app.post(
      '/sys/sms',
      {
        config: { public: true, rateLimit: perMinute(limits.sendCode) },
        schema: {
          tags,
          summary:
            'Text a code for phone login (smsmode 0) or password reset (2); same answer for any number',
          body: ZSmsRequest,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await accounts.sendSms(req.body, contextOf(req));
        return ok(null, message(req.lang, 'codeSentIfKnown'));
      },
    );

    app.post(
      '/sys/phoneLogin',
      {
        config: { public: true, rateLimit: perMinute(limits.verify) },
        schema: {
          tags,
          summary:
            'Log in with a phone number and its SMS code; same result as /sys/login (a two-factor challenge when the user has a second factor)',
          body: ZPhoneLoginRequest,
          response: responses(ZLoginStep),
        },
      },
      async (req) =>
        ok(
          await accounts.phoneLogin(req.body, contextOf(req)),
          message(req.lang, 'loginSucceeded'),
        ),
    );

    app.post(
      '/sys/user/resetCode',
      {
        config: { public: true, rateLimit: perMinute(limits.sendCode) },
        schema: {
          tags,
          summary: 'Send a password-reset code by email or SMS; same answer for any address',
          body: ZResetCodeRequest,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await accounts.sendResetCode(req.body, contextOf(req));
        return ok(null, message(req.lang, 'codeSentIfKnown'));
      },
    );

    app.post(
      '/sys/user/passwordReset',
      {
        config: { public: true, rateLimit: perMinute(limits.verify), operateType: 'passwordReset' },
        schema: {
          tags,
          summary: 'Set a new password with the reset code; ends every session of the user',
          body: ZPasswordResetRequest,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await accounts.resetPassword(req.body);
        return ok(null, message(req.lang, 'passwordResetSucceeded'));
      },
    );

    app.get(
      '/sys/setting/sms',
      {
        config: { permission: 'system:setting:sms' },
        schema: {
          tags,
          summary: 'SMS provider settings (the gateway authorization is never returned)',
          querystring: ZNoQuery,
          response: responses(ZSmsSettingsView),
        },
      },
      async () => ok(await smsSettings.view()),
    );

    app.put(
      '/sys/setting/sms',
      {
        config: { permission: 'system:setting:sms' },
        schema: {
          tags,
          summary: 'Choose the SMS provider: log/outbox or an HTTP gateway',
          body: ZSmsSettings,
          response: responses(ZSmsSettingsView),
        },
      },
      async (req) => ok(await smsSettings.save(req.body), message(req.lang, 'smsSettingsSaved')),
    );
  };
}
