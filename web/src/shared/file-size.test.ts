import { describe, expect, it } from 'vitest';
import { formatBytes } from './file-size';

describe('file sizes', () => {
  it('are shown in binary units with one decimal at most', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1,023 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(16 * 1024 * 1024)).toBe('16 MB');
    expect(formatBytes(256 * 1024 * 1024)).toBe('256 MB');
    expect(formatBytes(3 * 1024 ** 3 + 300 * 1024 ** 2)).toBe('3.3 GB');
  });
});
