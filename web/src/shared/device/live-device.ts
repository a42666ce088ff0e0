import type { TDevice, TDeviceLive, TDeviceSeries, TExpectedRestart } from '@blrms/contracts';
import { DEVICE_SERIES } from '@blrms/contracts';

const isSeries = (value: string): value is TDeviceSeries =>
  (DEVICE_SERIES as readonly string[]).includes(value);

function sameRestart(a: TExpectedRestart | null, b: TExpectedRestart | null): boolean {
  return a === b || (a !== null && b !== null && a.kind === b.kind && a.until === b.until);
}

/**
 * A device row with the presence columns of a live message. The rest of the row (name, group,
 * owner, ...) does not change with presence and stays as loaded. Returns the same object when
 * nothing changed, so React and TanStack Query see no change either.
 */
export function withLive<T extends TDevice>(device: T, live: TDeviceLive): T {
  const next: T = {
    ...device,
    status: live.status,
    ip: live.ip,
    // A series this console does not know yet cannot be shown in its filters; keep the old one.
    series: isSeries(live.series) ? live.series : device.series,
    model: live.model,
    version: live.version,
    lastSeenAt: live.lastSeenAt,
    lastConnectAt: live.lastConnectAt,
    lastDisconnectAt: live.lastDisconnectAt,
    disconnectReason: live.disconnectReason,
    // An object: kept when the same, so that an unchanged device stays the same row.
    expectedRestart: sameRestart(device.expectedRestart, live.expectedRestart)
      ? device.expectedRestart
      : live.expectedRestart,
  };
  const changed = (Object.keys(next) as (keyof T)[]).some((key) => next[key] !== device[key]);
  return changed ? next : device;
}

/** The latest live state of each device of a batch (a batch may hold one device twice). */
export function latestById(batch: readonly TDeviceLive[]): Map<string, TDeviceLive> {
  return new Map(batch.map((live) => [live.id, live]));
}

export interface Throttle {
  /** Asks for a run: now when none ran within the interval, else once when it ends. */
  request(): void;
  cancel(): void;
}

/**
 * Runs `run` at most once per `ms`. Requests inside the interval collapse into one run at its
 * end, so the last change is never left out.
 */
export function throttle(run: () => void, ms: number): Throttle {
  let lastRun = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = () => {
    timer = undefined;
    lastRun = Date.now();
    run();
  };
  return {
    request() {
      if (timer !== undefined) return;
      const wait = lastRun + ms - Date.now();
      if (wait <= 0) fire();
      else timer = setTimeout(fire, wait);
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
