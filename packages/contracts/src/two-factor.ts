import { z } from 'zod';
import { ZLoginResult } from './auth.js';
import { ZId } from './common.js';

/*
 * Two-factor login (TOTP, RFC 6238) and the login lockout administrators see and lift
 * (issue 14).
 */

export const TWO_FACTOR_RECOVERY_CODES = 10;

export const ZTwoFactorChallenge = z
  .string()
  .regex(/^[A-Za-z0-9_-]{43}$/, 'must be the challenge the login returned')
  .describe('The challenge returned by /sys/login after a correct password');

export const ZTwoFactorCode = z
  .string()
  .trim()
  .regex(
    /^(\d{6}|[A-Za-z0-9]{5}-?[A-Za-z0-9]{5})$/,
    'must be a 6-digit code or a recovery code (xxxxx-xxxxx)',
  )
  .describe('6 digits from the authenticator app, or one of the recovery codes');

export const ZLoginPending = z.object({
  twoFactor: z
    .enum(['verify', 'enrol'])
    .describe('verify: ask for the code; enrol: the user must set up two-factor login first'),
  challenge: z.string().describe('Pass to /sys/login/twoFactor; not a session'),
  expiresIn: z.number().int().describe('Seconds the challenge stays valid'),
});
export type TLoginPending = z.infer<typeof ZLoginPending>;

/** What /sys/login returns: a session, or the second step of a two-factor login. */
export const ZLoginStep = z.union([ZLoginResult, ZLoginPending]);
export type TLoginStep = z.infer<typeof ZLoginStep>;

export const ZTwoFactorLogin = z
  .object({ challenge: ZTwoFactorChallenge, code: ZTwoFactorCode })
  .strict();
export type TTwoFactorLogin = z.infer<typeof ZTwoFactorLogin>;

export const ZTwoFactorLoginResult = ZLoginResult.extend({
  recoveryCodes: z
    .array(z.string())
    .optional()
    .describe('After an enrolment at login: the recovery codes, shown this once'),
});
export type TTwoFactorLoginResult = z.infer<typeof ZTwoFactorLoginResult>;

export const ZTwoFactorSetupRequest = z.object({ challenge: ZTwoFactorChallenge }).strict();

export const ZTwoFactorSetup = z.object({
  secret: z.string().describe('Base32 secret, for typing into an app that cannot scan'),
  otpauthUri: z.string().describe('otpauth://totp/... URI the QR code encodes'),
  qrCode: z.string().describe('data:image/png;base64,... QR code of otpauthUri'),
});
export type TTwoFactorSetup = z.infer<typeof ZTwoFactorSetup>;

export const ZTwoFactorStatus = z.object({
  enabled: z.boolean(),
  required: z.boolean().describe('The company or the platform requires a second factor'),
  recoveryCodesLeft: z.number().int(),
});
export type TTwoFactorStatus = z.infer<typeof ZTwoFactorStatus>;

export const ZTwoFactorEnable = z
  .object({
    code: z
      .string()
      .trim()
      .regex(/^\d{6}$/, 'must be 6 digits'),
  })
  .strict();
export type TTwoFactorEnable = z.infer<typeof ZTwoFactorEnable>;

export const ZRecoveryCodes = z.object({ recoveryCodes: z.array(z.string()) });
export type TRecoveryCodes = z.infer<typeof ZRecoveryCodes>;

export const ZTwoFactorDisable = z
  .object({
    code: ZTwoFactorCode.optional(),
    password: z.string().min(1).max(128).optional(),
  })
  .strict()
  .refine((v) => v.code !== undefined || v.password !== undefined, {
    path: ['code'],
    message: 'a current code or the password is required',
  });
export type TTwoFactorDisable = z.infer<typeof ZTwoFactorDisable>;

export const ZTwoFactorPolicy = z.object({
  companyRequired: z.boolean().describe("The current company's users must use a second factor"),
  platformRequired: z.boolean().describe('Every user of the platform must use a second factor'),
});
export type TTwoFactorPolicy = z.infer<typeof ZTwoFactorPolicy>;

export const ZTwoFactorPolicySet = z.object({ required: z.boolean() }).strict();

export const ZUserIdBody = z.object({ id: ZId }).strict();

export const ZLoginSecurityQuery = z
  .object({
    ids: z
      .string()
      .regex(/^[0-9a-f]{32}(,[0-9a-f]{32}){0,99}$/, 'must be 1-100 ids separated by commas'),
    _t: z.string().optional(),
  })
  .strict();

export const ZLoginLock = z.object({
  ip: z.string(),
  failCount: z.number().int(),
  lockedUntil: z.string().nullable().describe('ISO time; null: failures counted, not locked'),
});

export const ZLoginSecurity = z.object({
  userId: ZId,
  twoFactorEnabled: z.boolean(),
  locked: z.boolean().describe('At least one source address is locked out'),
  sources: z.array(ZLoginLock).describe('Recent failures by source address'),
});
export type TLoginSecurity = z.infer<typeof ZLoginSecurity>;
