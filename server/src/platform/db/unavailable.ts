/*
 * "The database cannot be reached" as opposed to "this query is wrong": the first is an outage
 * (PostgreSQL stopped, restarting, failing over, unreachable), answered with 503 and logged once
 * per cause and interval; the second is a bug, answered with 500 and logged with its stack.
 */

/** Set on errors that came from the database connection (not from mail, Redis or MQTT). */
const FROM_DATABASE = Symbol('blrms.fromDatabase');

/** Socket errors: nothing answers at the database's address, or the connection broke. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that is going away or not ready: admin_shutdown, crash_shutdown,
 * cannot_connect_now (starting up, shutting down, in recovery), too_many_connections.
 */
const SERVER_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** What pg says when the connection ends under a query, or the pool gives up waiting for one. */
const CONNECTION_MESSAGES: [RegExp, string][] = [
  [/timeout exceeded when trying to connect/i, 'connect-timeout'],
  [/connection timeout/i, 'connect-timeout'],
  [/connection terminated/i, 'connection-terminated'],
  [/encountered a connection error/i, 'connection-terminated'],
  [/not queryable/i, 'connection-terminated'],
];

/** Marks an error as the database connection's, so that it can be told from other ones. */
export function fromDatabase<E>(error: E): E {
  if (error instanceof Error) Object.defineProperty(error, FROM_DATABASE, { value: true });
  return error;
}

/**
 * Why the database is unavailable (`ECONNREFUSED`, `57P01`, `connect-timeout`, ...), or null when
 * the error is not an outage of the database connection.
 */
export function unavailableCause(error: unknown): string | null {
  if (!(error instanceof Error) || !(FROM_DATABASE in error)) return null;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || SERVER_STATES.has(code)) return code;
    // Class 08: connection exceptions.
    if (/^08[0-9A-Z]{3}$/.test(code)) return code;
    return null;
  }
  for (const [pattern, cause] of CONNECTION_MESSAGES) {
    if (pattern.test(error.message)) return cause;
  }
  return null;
}

export const isDatabaseUnavailable = (error: unknown): boolean => unavailableCause(error) !== null;

/** Lines of one cause are logged this often at most during an outage. */
export const OUTAGE_LOG_INTERVAL_MS = 15_000;

type LogArgs = [obj: unknown, msg?: string, ...rest: unknown[]];
interface Loggable {
  info(obj: object, msg: string): void;
}

/**
 * Log lines about an unavailable database, thinned out: one line per cause (ECONNREFUSED, 57P01,
 * ...) and interval, whichever request or task failed first, with the count of the lines left out
 * since, and without the stack (it says nothing about the outage). Installed as pino's `logMethod` hook, it covers every logger of the app:
 * failed requests and every background task alike. When a connection to the database succeeds
 * again, one line says so with how long the outage lasted.
 */
export class OutageLog {
  private readonly seen = new Map<string, { at: number; suppressed: number }>();
  private since: number | null = null;
  private logger: Loggable | null = null;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly intervalMs = OUTAGE_LOG_INTERVAL_MS,
  ) {}

  /** pino's `hooks.logMethod`: called with the logger as `this` and the log call's arguments. */
  hook(): (this: unknown, args: LogArgs, method: (...args: unknown[]) => void) => void {
    const admit = (cause: string) => this.admit(cause);
    return function (args, method) {
      const [first, ...rest] = args;
      const error =
        first instanceof Error
          ? first
          : first !== null && typeof first === 'object'
            ? (first as { err?: unknown }).err
            : undefined;
      const cause = unavailableCause(error);
      if (cause === null) {
        method.apply(this, args);
        return;
      }
      const fields = admit(cause);
      if (!fields) return;
      const own = first instanceof Error ? {} : { ...(first as object), err: undefined };
      method.apply(this, [
        { ...own, ...fields, error: (error as Error).message },
        ...(rest.length > 0 ? rest : ['database unavailable']),
      ]);
    };
  }

  /** The logger that reports the end of an outage (the app's, once it exists). */
  reportTo(logger: Loggable): void {
    this.logger = logger;
  }

  /** A connection to the database succeeded: the outage, if there was one, is over. */
  available(): void {
    if (this.since === null) return;
    const lastedMs = this.now() - this.since;
    const suppressed = [...this.seen.values()].reduce((sum, entry) => sum + entry.suppressed, 0);
    this.since = null;
    this.seen.clear();
    this.logger?.info({ database: 'available', lastedMs, suppressed }, 'database available again');
  }

  /** The fields of the line to log, or null when this cause was logged recently. */
  private admit(cause: string): object | null {
    const now = this.now();
    this.since ??= now;
    const entry = this.seen.get(cause);
    if (entry && now - entry.at < this.intervalMs) {
      entry.suppressed += 1;
      return null;
    }
    this.seen.set(cause, { at: now, suppressed: 0 });
    return { database: 'unavailable', cause, suppressed: entry?.suppressed ?? 0 };
  }
}
