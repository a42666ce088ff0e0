/**
 * Constants of the contracts that import nothing, zod least of all: the entry
 * `@blrms/contracts/constants`. The console's login route imports them from here so that its
 * chunk stays free of zod (about 31 KB gzip); the modules that declare the schemas re-export them,
 * so `@blrms/contracts` still offers every name.
 */

/** Response header carrying a fingerprint of the caller's grants; the console refetches its menu when it changes. */
export const PERMISSION_VERSION_HEADER = 'x-permission-version';

/** The console's callback paths; the CAS `service` and the OIDC `redirect_uri` point at them. */
export const SSO_CALLBACK_PATHS = { cas: '/user/sso/cas', oidc: '/user/sso/oidc' } as const;

export const PASSWORD_MIN_LENGTH = 8;

/** Verification codes (email and SMS) are 6 digits. */
export const VERIFY_CODE_LENGTH = 6;
/** Seconds the console waits before offering to send another code. */
export const VERIFY_CODE_RESEND_SECONDS = 60;
/** The verification code as `ZVerifyCode` checks it. */
export const VERIFY_CODE_PATTERN = /^\d{6}$/;

/** Mainland China mobile numbers, as `ZPhone` checks them. */
export const PHONE_PATTERN = /^1[3-9]\d{9}$/;
export const PHONE_FORMAT_MESSAGE = 'Your phone number format is incorrect.';
