import type {
  TAlarmCondition,
  TAlarmScope,
  TQuietHours,
  ZTelemetryCondition,
} from '@blrms/contracts';
import type { z } from 'zod';

type TTelemetryCondition = z.infer<typeof ZTelemetryCondition>;

/** What a rule's scope is checked against. */
export interface ScopedDevice {
  id: string;
  groupId: string | null;
  series: string;
}

/** Whether the device is among those the scope names. */
export function inScope(scope: TAlarmScope, device: ScopedDevice): boolean {
  switch (scope.kind) {
    case 'all':
      return true;
    case 'series':
      return device.series === scope.series;
    case 'group':
      return device.groupId === scope.groupId;
    case 'device':
      return device.id === scope.deviceId;
  }
}

/** How a scope is stored: `alarm_rule.scope_kind` and `scope_value` ('' for all devices). */
export function scopeColumns(scope: TAlarmScope): { kind: TAlarmScope['kind']; value: string } {
  switch (scope.kind) {
    case 'all':
      return { kind: 'all', value: '' };
    case 'series':
      return { kind: 'series', value: scope.series };
    case 'group':
      return { kind: 'group', value: scope.groupId };
    case 'device':
      return { kind: 'device', value: scope.deviceId };
  }
}

/** The scope of stored columns (the inverse of {@link scopeColumns}), not yet validated. */
export function scopeOfColumns(kind: string, value: string): unknown {
  switch (kind) {
    case 'all':
      return { kind };
    case 'series':
      return { kind, series: value };
    case 'group':
      return { kind, groupId: value };
    default:
      return { kind, deviceId: value };
  }
}

/** Whether the scope needs the device's series or group (else its id is enough). */
export function needsDeviceInfo(scope: TAlarmScope): boolean {
  return scope.kind === 'series' || scope.kind === 'group';
}

/**
 * Whether a telemetry value meets the condition. Only finite numbers count: anything else (a
 * missing key, a value JSON cannot carry) neither meets nor breaks it.
 */
export function telemetryMet(condition: TTelemetryCondition, value: number): boolean {
  switch (condition.operator) {
    case 'above':
      return value > (condition.threshold ?? Infinity);
    case 'below':
      return value < (condition.threshold ?? -Infinity);
    case 'outside':
      return value < (condition.low ?? -Infinity) || value > (condition.high ?? Infinity);
  }
}

export const isReading = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/** `{{name}}` replaced by its value; unknown names stay as written. */
export function fillText(text: string, vars: Record<string, string | number>): string {
  return text.replace(/\{\{\s*([A-Za-z][A-Za-z0-9_]*)\s*\}\}/g, (whole, name: string) =>
    Object.hasOwn(vars, name) ? String(vars[name]) : whole,
  );
}

/** The variables a condition gives its message, besides the device's. */
export function conditionVars(condition: TAlarmCondition): Record<string, string | number> {
  switch (condition.type) {
    case 'telemetry':
      return {
        key: condition.key,
        threshold: condition.threshold ?? '',
        low: condition.low ?? '',
        high: condition.high ?? '',
      };
    case 'event':
      return { code: condition.code };
    case 'offline':
      return { minutes: condition.minutes };
    case 'config-failed':
    case 'upgrade-failed':
      return {};
  }
}

const MINUTE = 60_000;
const DAY_MINUTES = 1440;

function minutesOf(clock: string): number {
  const [h, m] = clock.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

/** The local time of day in the zone, in minutes since midnight (with the seconds' fraction). */
function localMinutes(timeZone: string, now: number): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hourCycle: 'h23',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(now));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return get('hour') * 60 + get('minute') + get('second') / 60;
}

/**
 * When the quiet hours that hold `now` end; null when `now` is outside them. `start` after `end`
 * spans midnight (22:00–07:00).
 */
export function quietUntil(quiet: TQuietHours | null, now: number): number | null {
  if (!quiet) return null;
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  const at = localMinutes(quiet.timeZone, now);
  const inside = start < end ? at >= start && at < end : at >= start || at < end;
  if (!inside) return null;
  const left = (end - at + DAY_MINUTES) % DAY_MINUTES;
  return now + Math.ceil(left * MINUTE);
}

/** A duration as the alarm text shows it: the largest whole unit. */
export function durationParts(seconds: number): { unit: 's' | 'min' | 'h'; n: number } {
  if (seconds > 0 && seconds % 3600 === 0) return { unit: 'h', n: seconds / 3600 };
  if (seconds > 0 && seconds % 60 === 0) return { unit: 'min', n: seconds / 60 };
  return { unit: 's', n: seconds };
}
