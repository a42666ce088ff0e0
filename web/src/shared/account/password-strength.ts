export type PasswordStrength = 'low' | 'medium' | 'high';

/**
 * The meter of the registration and reset forms (spec section 5: high, medium, low). It only
 * guides: the server decides, and also refuses common and guessable passwords.
 */
export function passwordStrength(password: string): PasswordStrength {
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((r) => r.test(password)).length;
  if (password.length < 8 || classes <= 1) return 'low';
  if ((classes >= 3 && password.length >= 10) || classes === 4) return 'high';
  return 'medium';
}
