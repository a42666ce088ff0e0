/**
 * Seconds before another code may be requested: the server's VERIFY_CODE_RESEND_SECONDS (a test
 * keeps them equal). Not imported from the contracts, which would pull zod into the login chunk.
 */
export const RESEND_SECONDS = 60;

/** Mainland China mobile numbers, as the server's contract checks them. */
export const PHONE_PATTERN = /^1[3-9]\d{9}$/;
export const CODE_PATTERN = /^\d{6}$/;
