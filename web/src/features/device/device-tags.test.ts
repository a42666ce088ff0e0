import { describe, expect, it } from 'vitest';
import { cleanTags, tagsValid } from './device-tags';

describe('device tags input', () => {
  it('trims, drops blanks and repeats', () => {
    expect(cleanTags([' 北区 ', 'pilot', '北区', '  '])).toEqual(['北区', 'pilot']);
  });

  it('accepts what the server accepts and nothing more', () => {
    expect(tagsValid(['a', 'x'.repeat(32)])).toBe(true);
    expect(tagsValid(['x'.repeat(33)])).toBe(false);
    expect(tagsValid(['a,b'])).toBe(false);
    expect(tagsValid(Array.from({ length: 20 }, (_, i) => `t${i}`))).toBe(true);
    expect(tagsValid(Array.from({ length: 21 }, (_, i) => `t${i}`))).toBe(false);
  });
});
