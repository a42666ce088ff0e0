import { z } from 'zod';
import { ZUsername } from './auth.js';
import { ZId, ZPageQuery, ZTimestamp, pageOf } from './common.js';
import {
  PASSWORD_MIN_LENGTH,
  PHONE_FORMAT_MESSAGE,
  PHONE_PATTERN,
  VERIFY_CODE_PATTERN,
} from './constants.js';

export const ZPhone = z
  .string()
  .regex(PHONE_PATTERN, PHONE_FORMAT_MESSAGE)
  .describe('Mainland China mobile number, 11 digits');
export const ZEmail = z.email().max(100);
export const ZVerifyCode = z
  .string()
  .regex(VERIFY_CODE_PATTERN, 'must be 6 digits')
  .describe('The 6-digit code that was sent');
const ZPassword = z.string().min(PASSWORD_MIN_LENGTH).max(128);

export const ZRegisterEmailCodeRequest = z.object({ email: ZEmail }).strict();
export type TRegisterEmailCodeRequest = z.infer<typeof ZRegisterEmailCodeRequest>;

/** The registration form checks the emailed code when the user leaves its step. */
export const ZRegisterCodeCheckRequest = z
  .object({ email: ZEmail, emailCode: ZVerifyCode })
  .strict();
export type TRegisterCodeCheckRequest = z.infer<typeof ZRegisterCodeCheckRequest>;

/** Fields the registration form checks while the user types (public, rate limited). */
export const REGISTER_CHECK_FIELDS = ['username', 'phone', 'email'] as const;
export const ZRegisterCheckQuery = z
  .object({
    field: z.enum(REGISTER_CHECK_FIELDS),
    value: z.string().min(1).max(100),
    _t: z.string().optional(),
  })
  .strict();
export type TRegisterCheckQuery = z.infer<typeof ZRegisterCheckQuery>;

export const ZRegisterRequest = z
  .object({
    username: ZUsername,
    phone: ZPhone,
    email: ZEmail,
    emailCode: ZVerifyCode,
    password: ZPassword,
    confirmpassword: z.string().min(1).max(128),
  })
  .strict()
  .refine((v) => v.password === v.confirmpassword, {
    path: ['confirmpassword'],
    message: 'must equal password',
  });
export type TRegisterRequest = z.infer<typeof ZRegisterRequest>;

export const ZRegisterResult = z.object({ username: z.string(), email: z.string() });
export type TRegisterResult = z.infer<typeof ZRegisterResult>;

/** `0`: code for phone login, `2`: code for a password reset (the framework's smsmode values). */
export const ZSmsRequest = z.object({ mobile: ZPhone, smsmode: z.enum(['0', '2']) }).strict();
export type TSmsRequest = z.infer<typeof ZSmsRequest>;

export const ZPhoneLoginRequest = z.object({ mobile: ZPhone, captcha: ZVerifyCode }).strict();
export type TPhoneLoginRequest = z.infer<typeof ZPhoneLoginRequest>;

export const ZResetChannel = z.enum(['email', 'phone']);
export type TResetChannel = z.infer<typeof ZResetChannel>;

export const ZResetCodeRequest = z.discriminatedUnion('channel', [
  z.object({ channel: z.literal('email'), target: ZEmail }).strict(),
  z.object({ channel: z.literal('phone'), target: ZPhone }).strict(),
]);
export type TResetCodeRequest = z.infer<typeof ZResetCodeRequest>;

const resetFields = {
  code: ZVerifyCode,
  password: ZPassword,
  confirmpassword: z.string().min(1).max(128),
};
export const ZPasswordResetRequest = z
  .discriminatedUnion('channel', [
    z.object({ channel: z.literal('email'), target: ZEmail, ...resetFields }).strict(),
    z.object({ channel: z.literal('phone'), target: ZPhone, ...resetFields }).strict(),
  ])
  .refine((v) => v.password === v.confirmpassword, {
    path: ['confirmpassword'],
    message: 'must equal password',
  });
export type TPasswordResetRequest = z.infer<typeof ZPasswordResetRequest>;

/* Check rules ------------------------------------------------------------------------------ */

export const CHECK_RULE_PATTERN_MAX = 200;
export const CHECK_RULE_ITEMS_MAX = 10;
export const CHECK_RULE_VALUE_MAX = 500;

export const ZRuleCode = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ or - only');

export const ZCheckRuleItem = z
  .object({
    pattern: z.string().min(1).max(CHECK_RULE_PATTERN_MAX).describe('RE2 syntax (linear time)'),
    message: z.string().min(1).max(200).describe('Shown in Chinese when the value does not match'),
    messageEn: z.string().min(1).max(200).describe('Shown in English'),
  })
  .strict();
export type TCheckRuleItem = z.infer<typeof ZCheckRuleItem>;

export const ZCheckRuleInput = z
  .object({
    ruleCode: ZRuleCode,
    ruleName: z.string().min(1).max(100),
    ruleDescription: z.string().max(255).nullish(),
    rules: z.array(ZCheckRuleItem).min(1).max(CHECK_RULE_ITEMS_MAX),
  })
  .strict();
export type TCheckRuleInput = z.infer<typeof ZCheckRuleInput>;

export const ZCheckRuleEdit = ZCheckRuleInput.extend({ id: ZId }).strict();
export type TCheckRuleEdit = z.infer<typeof ZCheckRuleEdit>;

export const ZCheckRule = z.object({
  id: ZId,
  ruleCode: z.string(),
  ruleName: z.string(),
  ruleDescription: z.string().nullable(),
  rules: z.array(ZCheckRuleItem),
  createTime: ZTimestamp,
  updateTime: ZTimestamp.nullable(),
});
export type TCheckRule = z.infer<typeof ZCheckRule>;

export const CHECK_RULE_SORT_COLUMNS = ['ruleCode', 'ruleName', 'createTime'] as const;
export const ZCheckRuleListQuery = ZPageQuery.extend({
  ruleCode: z.string().max(64).optional(),
  ruleName: z.string().max(100).optional(),
  column: z.enum(CHECK_RULE_SORT_COLUMNS).default('createTime'),
}).strict();
export type TCheckRuleListQuery = z.infer<typeof ZCheckRuleListQuery>;
export const ZCheckRulePage = pageOf(ZCheckRule);
export type TCheckRulePage = z.infer<typeof ZCheckRulePage>;

export const ZCheckByCodeQuery = z
  .object({
    ruleCode: ZRuleCode,
    value: z.string().max(CHECK_RULE_VALUE_MAX).optional(),
    _t: z.string().optional(),
  })
  .strict();
export type TCheckByCodeQuery = z.infer<typeof ZCheckByCodeQuery>;

/* SMS provider settings (platform administrators) ---------------------------------------------- */

export const ZSmsSettings = z
  .object({
    provider: z.enum(['log', 'http']).describe('log: write to the server log and the outbox'),
    url: z
      .url({ protocol: /^https?$/ })
      .max(500)
      .nullish()
      .describe('http provider: the gateway that gets POST {phone, code, text}'),
    authorization: z
      .string()
      .max(500)
      .nullish()
      .describe('Authorization header sent to the gateway; write-only, never returned'),
  })
  .strict()
  .refine((v) => v.provider === 'log' || !!v.url, { path: ['url'], message: 'is required' });
export type TSmsSettings = z.infer<typeof ZSmsSettings>;

export const ZSmsSettingsView = z.object({
  provider: z.enum(['log', 'http']),
  url: z.string().nullable(),
  hasAuthorization: z.boolean(),
});
export type TSmsSettingsView = z.infer<typeof ZSmsSettingsView>;
