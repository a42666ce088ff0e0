import { describe, expect, it } from 'vitest';
import { nextOrgCode } from './org-code.rules.js';

describe('org codes', () => {
  it('starts a level at A01 and follows the highest sibling', () => {
    expect(nextOrgCode('', [])).toBe('A01');
    expect(nextOrgCode('A01', [])).toBe('A01A01');
    expect(nextOrgCode('A01', ['A01A01', 'A01A03'])).toBe('A01A04');
    expect(nextOrgCode('', ['A01', 'A02', 'A01A05'])).toBe('A03');
  });

  it('rolls over to the next letter after 99 and stops at Z99', () => {
    expect(nextOrgCode('A01', ['A01A99'])).toBe('A01B01');
    expect(nextOrgCode('', ['Z98'])).toBe('Z99');
    expect(nextOrgCode('', ['Z99'])).toBeNull();
  });

  it('ignores codes that are not a segment of the level', () => {
    expect(nextOrgCode('', ['X', 'a01', 'A00', 'custom'])).toBe('A01');
  });
});
