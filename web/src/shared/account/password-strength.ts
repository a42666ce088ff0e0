import { PASSWORD_MIN_LENGTH, weakPasswordReason } from '@blrms/contracts';

export type PasswordStrength = 'low' | 'medium' | 'high';

/**
 * The meter of the registration and reset forms (spec section 5: high, medium, low). A password
 * the server refuses (too short, too common, the username...) is low, by the server's own rules.
 */
export function passwordStrength(password: string, username = ''): PasswordStrength {
  if (password.length < PASSWORD_MIN_LENGTH) return 'low';
  if (weakPasswordReason(password, { username, oldPassword: '' })) return 'low';
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((r) => r.test(password)).length;
  if (classes <= 1) return 'low';
  if ((classes >= 3 && password.length >= 10) || classes === 4) return 'high';
  return 'medium';
}
