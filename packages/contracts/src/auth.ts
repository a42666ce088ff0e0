import { z } from 'zod';
import { ZId } from './common.js';
import { PASSWORD_MIN_LENGTH } from './constants.js';

export const SESSION_LIFETIME_MS = 604_800_000;

export const ZCaptchaKey = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be 8-64 letters, digits, _ or -')
  .describe('Client-chosen key that ties a captcha image to the login that uses it');

export const ZUsername = z
  .string()
  .min(1)
  .max(32)
  .regex(/^[A-Za-z0-9]+$/, 'letters and digits only');

export const ZLoginRequest = z
  .object({
    username: z.string().min(1).max(64),
    password: z.string().min(1).max(128),
    captcha: z.string().max(16).optional().describe('The characters shown in the captcha image'),
    checkKey: ZCaptchaKey.optional(),
  })
  .strict();
export type TLoginRequest = z.infer<typeof ZLoginRequest>;

export const ZCompanyRef = z.object({ id: ZId, name: z.string() });
export type TCompanyRef = z.infer<typeof ZCompanyRef>;

export const ZUserInfo = z.object({
  id: ZId,
  username: z.string(),
  realname: z.string(),
  avatar: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  orgCode: z.string().nullable().describe('Current department'),
  companyId: ZId.describe('Default company'),
});
export type TUserInfo = z.infer<typeof ZUserInfo>;

export const ZDepart = z.object({
  id: ZId,
  orgCode: z.string(),
  departName: z.string(),
  departNameEn: z.string().nullable(),
  parentId: ZId.nullable(),
});
export type TDepart = z.infer<typeof ZDepart>;

export const ZLoginResult = z.object({
  token: z.string(),
  userInfo: ZUserInfo,
  departs: z.array(ZDepart),
  multiDepart: z
    .number()
    .int()
    .describe('0: no department, 1: exactly one, 2: several (choose one)'),
  companies: z.array(ZCompanyRef).describe('Companies the user may act in (X-Company-Id)'),
});
export type TLoginResult = z.infer<typeof ZLoginResult>;

export const ZCurrentUserDeparts = z.object({
  list: z.array(ZDepart),
  orgCode: z.string().nullable(),
});
export type TCurrentUserDeparts = z.infer<typeof ZCurrentUserDeparts>;

export const ZSelectDepartRequest = z
  .object({ orgCode: z.string().min(1).max(64), username: z.string().min(1).max(64) })
  .strict();
export type TSelectDepartRequest = z.infer<typeof ZSelectDepartRequest>;

export const ZSelectDepartResult = z.object({ userInfo: ZUserInfo });

export const ZUpdatePasswordRequest = z
  .object({
    username: z.string().min(1).max(64),
    oldpassword: z.string().min(1).max(128),
    password: z.string().min(PASSWORD_MIN_LENGTH).max(128),
    confirmpassword: z.string().min(1).max(128),
  })
  .strict()
  .refine((v) => v.password === v.confirmpassword, {
    path: ['confirmpassword'],
    message: 'must equal password',
  });
export type TUpdatePasswordRequest = z.infer<typeof ZUpdatePasswordRequest>;
