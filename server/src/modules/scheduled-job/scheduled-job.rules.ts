import { Cron } from 'croner';
import { QUARTZ_MISFIRE_GRACE_MS } from '@blrms/contracts';
import { AppError } from '../../platform/http/app-error.js';

/*
 * Cron schedules: parsed by croner in the job's IANA time zone, so that "03:00" is 03:00 where the
 * devices are, summer time included. Quartz's `?` ("no specific value") reads as `*`; croner would
 * otherwise take it as "the value at start time".
 */

/** A parsed schedule, or throws 400 naming the `cron` field. */
export function schedule(cron: string, timeZone: string): Cron {
  const pattern = cron
    .trim()
    .split(/\s+/)
    .map((f) => (f === '?' ? '*' : f))
    .join(' ');
  try {
    return new Cron(pattern, { timezone: timeZone, paused: true, legacyMode: true });
  } catch (error) {
    const detail = error instanceof Error ? error.message.replace(/^CronPattern: /, '') : '';
    throw new AppError('quartzJobCronInvalid', 400, { detail: detail.slice(0, 120) });
  }
}

/** The next `count` runs after `after`; throws 400 when the schedule never fires. */
export function nextRuns(cron: string, timeZone: string, after: number, count: number): number[] {
  const runs = schedule(cron, timeZone)
    .nextRuns(count, new Date(after))
    .map((d) => d.getTime());
  if (runs.length === 0) throw new AppError('quartzJobCronNever', 400);
  return runs;
}

/** The next run after `after`, or null when the schedule has no more. */
export function nextRun(cron: string, timeZone: string, after: number): number | null {
  return schedule(cron, timeZone).nextRun(new Date(after))?.getTime() ?? null;
}

/** `YYYY-MM-DD HH:mm` in the zone: what the preview shows beside the ISO time. */
export function localTime(at: number, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

/**
 * The misfire rule. An occurrence found due within the grace (5 minutes) runs now; one missed by
 * more (the servers were down at 03:00) is skipped and recorded as such, and the job waits for its
 * next occurrence: rebooting a fleet at 09:30 because the 03:00 run was missed would hit devices
 * in use, which is what scheduling it at night was meant to avoid.
 */
export function misfired(due: number, now: number): boolean {
  return now - due > QUARTZ_MISFIRE_GRACE_MS;
}
