/**
 * Which new passwords the server refuses as too easy to guess. Shared, so that the console's
 * strength meter never rates a password the server will refuse above "low".
 */

/** The most guessed passwords of at least 8 characters (from public breach top lists). */
const COMMON = new Set([
  'password',
  'password1',
  'password123',
  'passw0rd',
  'p@ssw0rd',
  'qwertyui',
  'qwerty123',
  'qwertyuiop',
  '1qaz2wsx',
  '1q2w3e4r',
  '1q2w3e4r5t',
  'abc12345',
  'abcd1234',
  'abcdefgh',
  'iloveyou',
  'sunshine',
  'princess',
  'football',
  'baseball',
  'welcome1',
  'admin123',
  'admin1234',
  'administrator',
  'letmein1',
  'trustno1',
  'zaq12wsx',
  'asdfghjk',
  'aa123456',
  'a1234567',
  'a12345678',
]);

export type TWeakPasswordReason = 'same' | 'sameChar' | 'digitsOnly' | 'username' | 'common';

/** Why a new password is too easy to guess, or null when it is acceptable. */
export function weakPasswordReason(
  password: string,
  context: { username: string; oldPassword: string },
): TWeakPasswordReason | null {
  if (password === context.oldPassword) return 'same';
  if (/^(.)\1*$/u.test(password)) return 'sameChar';
  if (/^\d+$/.test(password)) return 'digitsOnly';
  if (password.toLowerCase() === context.username.toLowerCase()) return 'username';
  if (COMMON.has(password.toLowerCase())) return 'common';
  return null;
}
