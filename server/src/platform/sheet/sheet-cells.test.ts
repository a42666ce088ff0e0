import { describe, expect, it } from 'vitest';
import { localDateTime } from './sheet-cells.js';

describe('localDateTime', () => {
  const at = new Date(Date.UTC(2026, 6, 1, 23, 5, 9, 999));

  it.each([
    ['UTC', '2026-07-01 23:05:09'],
    ['Asia/Shanghai', '2026-07-02 07:05:09'],
    ['Asia/Kolkata', '2026-07-02 04:35:09'],
    // Summer time: New York is 4 hours behind UTC in July, 5 in November.
    ['America/New_York', '2026-07-01 19:05:09'],
  ])('reads the clocks of %s', (zone, text) => {
    expect(localDateTime(at, zone)).toBe(text);
  });

  it('writes midnight as 00, not 24', () => {
    expect(localDateTime(new Date(Date.UTC(2026, 0, 1, 16)), 'Asia/Shanghai')).toBe(
      '2026-01-02 00:00:00',
    );
  });
});
