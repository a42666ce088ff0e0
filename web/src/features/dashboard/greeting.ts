export type Greeting = 'earlyMorning' | 'morning' | 'noon' | 'afternoon' | 'night';

/**
 * The greeting for an hour of the day (0-23), after spec section 9. Chinese has five greetings,
 * the English texts follow the spec's own words ("morning before 9 through 11, afternoon to 13,
 * evening before 20, then night"):
 *   0-8   早上好 Good morning
 *   9-11  上午好 Good morning
 *   12-13 中午好 Good afternoon
 *   14-19 下午好 Good evening
 *   20-23 晚上好 Good night
 */
export function greetingFor(hour: number): Greeting {
  if (hour < 9) return 'earlyMorning';
  if (hour <= 11) return 'morning';
  if (hour <= 13) return 'noon';
  if (hour < 20) return 'afternoon';
  return 'night';
}
