import { describe, expect, it } from 'vitest';
import { greetingFor } from './greeting';

describe('greetingFor', () => {
  it.each([
    [0, 'earlyMorning'],
    [8, 'earlyMorning'],
    [9, 'morning'],
    [11, 'morning'],
    [12, 'noon'],
    [13, 'noon'],
    [14, 'afternoon'],
    [19, 'afternoon'],
    [20, 'night'],
    [23, 'night'],
  ] as const)('hour %i → %s', (hour, greeting) => {
    expect(greetingFor(hour)).toBe(greeting);
  });
});
