import { describe, expect, it } from 'vitest';
import { passwordStrength } from './password-strength';

describe('password strength meter', () => {
  it('rates short and one-kind passwords low', () => {
    expect(passwordStrength('Ab1!')).toBe('low');
    expect(passwordStrength('abcdefghijkl')).toBe('low');
    expect(passwordStrength('123456789012')).toBe('low');
  });

  it('rates what the server refuses low: common passwords, the username', () => {
    expect(passwordStrength('password1')).toBe('low');
    expect(passwordStrength('P@ssw0rd')).toBe('low');
    expect(passwordStrength('Fleet42x', 'fleet42x')).toBe('low');
  });

  it('rates two kinds medium, and three kinds of 10+ or all four kinds high', () => {
    expect(passwordStrength('abcdefg1')).toBe('medium');
    expect(passwordStrength('abcdEFG1')).toBe('medium');
    expect(passwordStrength('abcdEFGH12')).toBe('high');
    expect(passwordStrength('aB3$efgh')).toBe('high');
  });
});
