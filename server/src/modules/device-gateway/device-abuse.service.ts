import type { DeviceRef } from './uplink-sink.service.js';

/**
 * What a device may do wrong. The first three are recorded as its events (within the budget);
 * disconnects and oversized packets are only counted, for the summary and the log.
 */
export type AbuseKind =
  | 'malformed-payload'
  | 'takeover'
  | 'acl-violation'
  | 'bad-payload-disconnect'
  | 'oversized-packet';

const RECORDED: ReadonlySet<AbuseKind> = new Set([
  'malformed-payload',
  'takeover',
  'acl-violation',
]);

export interface DeviceAbuseOptions {
  /** Events recorded per device and window, all recorded kinds together. */
  eventsPerWindow: number;
  windowMs: number;
  /** Devices followed at once; beyond, the one quiet the longest is summarised and forgotten. */
  maxDevices: number;
}

export const DEFAULT_ABUSE_OPTIONS: DeviceAbuseOptions = {
  eventsPerWindow: 20,
  windowMs: 60_000,
  maxDevices: 10_000,
};

/** A window in which a device did more than was recorded. */
export interface AbuseSummary {
  device: DeviceRef;
  /** Start of the window (clock time). */
  since: number;
  /** How often the device did each thing in the window. */
  counts: Partial<Record<AbuseKind, number>>;
  /** Of those, how many were not recorded as events. */
  notRecorded: number;
}

interface Window {
  device: DeviceRef;
  since: number;
  counts: Partial<Record<AbuseKind, number>>;
  recorded: number;
}

/**
 * What each device did wrong in the current window (a minute), keyed by the device, not by its
 * connection: a device that reconnects, or several connections that log in as the same device,
 * share one budget of recorded events and one bad-payload count. Past the budget the rest are
 * counted, and when the window ends one summary says how many went unrecorded. The map holds
 * only devices that misbehaved in the last window or so, and at most `maxDevices` of them.
 */
export class DeviceAbuse {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly now: () => number,
    /** Receives the summary of a window that ended with something not recorded. */
    private readonly summarise: (summary: AbuseSummary) => void,
    private readonly options: DeviceAbuseOptions = DEFAULT_ABUSE_OPTIONS,
  ) {}

  /**
   * Counts one offence of the device. `record`: its event is within the device's budget for the
   * window; `count`: how often the device did this in the window, this time included.
   */
  note(device: DeviceRef, kind: AbuseKind): { record: boolean; count: number } {
    const now = this.now();
    let window = this.windows.get(device.id);
    if (window && now - window.since >= this.options.windowMs) {
      this.windows.delete(device.id);
      this.end(window);
      window = undefined;
    }
    if (window) {
      // Most recently active last, so that the first entry is the one quiet the longest.
      this.windows.delete(device.id);
    } else {
      window = { device, since: now, counts: {}, recorded: 0 };
      this.evict();
    }
    this.windows.set(device.id, window);
    const count = (window.counts[kind] ?? 0) + 1;
    window.counts[kind] = count;
    const record = RECORDED.has(kind) && window.recorded < this.options.eventsPerWindow;
    if (record) window.recorded += 1;
    return { record, count };
  }

  /** How often `sweep` runs (a gateway job): summaries come at most a sixth of a window late. */
  get sweepEveryMs(): number {
    return this.options.windowMs / 6;
  }

  /** Summarises the windows that ended (and, with `all`, every window) and forgets them. */
  sweep(all = false): void {
    const now = this.now();
    for (const window of [...this.windows.values()]) {
      if (all || now - window.since >= this.options.windowMs) {
        this.windows.delete(window.device.id);
        this.end(window);
      }
    }
  }

  /** Summarises every window now (the server is stopping). */
  close(): void {
    this.sweep(true);
  }

  private end(window: Window): void {
    const counts = Object.entries(window.counts) as [AbuseKind, number][];
    const recordable = counts.reduce((sum, [kind, n]) => sum + (RECORDED.has(kind) ? n : 0), 0);
    const notRecorded = recordable - window.recorded;
    const repeatedDisconnects = (window.counts['bad-payload-disconnect'] ?? 0) > 1;
    if (notRecorded > 0 || repeatedDisconnects) {
      this.summarise({
        device: window.device,
        since: window.since,
        counts: window.counts,
        notRecorded,
      });
    }
  }

  private evict(): void {
    while (this.windows.size >= this.options.maxDevices) {
      const oldest = this.windows.values().next().value;
      if (!oldest) return;
      this.windows.delete(oldest.device.id);
      this.end(oldest);
    }
  }
}
