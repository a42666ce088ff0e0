import type {
  TDeviceEvent,
  TDeviceTelemetryHistory,
  TDeviceTelemetryLatest,
  TDeviceTelemetryPoint,
} from '@blrms/contracts';
import type { DeviceEventPage, DeviceEventParams } from '../../api/device-data';

/**
 * How the monitoring tab's data follows the device's live messages. Pure, so that the rules are
 * tested without a socket: a sample updates the latest values and extends the chart, an event
 * joins the first page of the event list when the list's level filter lets it in.
 */

export const TELEMETRY_RANGES = { '1h': 3_600_000, '24h': 86_400_000, '7d': 604_800_000 } as const;
export type TelemetryRange = keyof typeof TELEMETRY_RANGES;

const time = (iso: string) => Date.parse(iso);

/** The latest values with a new sample's values in; a value older than the one shown is ignored. */
export function withSample(
  latest: TDeviceTelemetryLatest,
  point: TDeviceTelemetryPoint,
): TDeviceTelemetryLatest {
  const byKey = new Map(latest.values.map((v) => [v.key, v]));
  for (const [key, value] of Object.entries(point.values)) {
    const shown = byKey.get(key);
    if (!shown || time(shown.ts) <= time(point.ts)) byKey.set(key, { key, value, ts: point.ts });
  }
  return { ...latest, values: [...byKey.values()].sort((a, b) => a.key.localeCompare(b.key)) };
}

/**
 * The chart's samples with a new one in time order, without those that left the range (which
 * ends now). A sample already there (same time and values) is not added twice.
 */
export function withPoint(
  history: TDeviceTelemetryHistory,
  point: TDeviceTelemetryPoint,
  rangeMs: number,
  now: number,
): TDeviceTelemetryHistory {
  const from = now - rangeMs;
  const at = time(point.ts);
  const points = history.points.filter((p) => time(p.ts) >= from);
  if (at < from) return points.length === history.points.length ? history : { ...history, points };
  const same = JSON.stringify(point.values);
  if (points.some((p) => p.ts === point.ts && JSON.stringify(p.values) === same)) {
    return { ...history, points };
  }
  let index = points.length;
  while (index > 0 && time(points[index - 1]?.ts ?? '') > at) index--;
  points.splice(index, 0, point);
  return { ...history, points };
}

/**
 * The event page with a new event in its place (newest first), when the page is the first of a
 * newest-first list and the level filter lets the event in; the page keeps its size and the
 * total counts the new event. Otherwise (or when the event is already listed) the page is
 * unchanged.
 */
export function withEvent(
  page: DeviceEventPage,
  params: DeviceEventParams,
  event: TDeviceEvent,
): DeviceEventPage {
  if (params.pageNo !== 1 || params.order === 'asc') return page;
  if (params.level !== undefined && event.level !== params.level) return page;
  if (page.records.some((e) => e.id === event.id)) return page;
  const at = time(event.ts);
  const index = page.records.findIndex((e) => time(e.ts) <= at);
  const records = [...page.records];
  records.splice(index === -1 ? records.length : index, 0, event);
  return { records: records.slice(0, params.pageSize), total: page.total + 1 };
}
