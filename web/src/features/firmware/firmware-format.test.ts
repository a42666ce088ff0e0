import { describe, expect, it } from 'vitest';
import { shortHash } from './firmware-format';

describe('firmware hashes', () => {
  it('are shortened to their ends', () => {
    expect(shortHash('ab'.repeat(32))).toBe('abababab…abababab');
    expect(shortHash('abc')).toBe('abc');
  });
});
