import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { formatDuration } from './connection-duration';

const SHORT: Record<string, string> = { days: 'd', hours: 'h', minutes: 'min', seconds: 's' };
const t = ((key: string, { n }: { n: number }) =>
  `${n} ${SHORT[key.split('.').at(-1) ?? ''] ?? key}`) as unknown as TFunction;

describe('formatDuration', () => {
  it('shows the two largest units, leaving out a second one that is zero', () => {
    expect(formatDuration(t, 2 * 86_400_000 + 3 * 3_600_000 + 59_000)).toBe('2 d 3 h');
    expect(formatDuration(t, 12 * 60_000 + 5_400)).toBe('12 min 5 s');
    expect(formatDuration(t, 3 * 3_600_000 + 20_000)).toBe('3 h');
    expect(formatDuration(t, 999)).toBe('0 s');
  });
});
