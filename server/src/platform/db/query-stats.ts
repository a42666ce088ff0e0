import type { LogEvent } from 'kysely';

/** Longer statements are cut: a multi-row insert's text grows with its rows. */
const SQL_TEXT_MAX = 500;

export interface SlowQueryEntry {
  sql: string;
  durationMs: number;
  /** When its slowest run ended (epoch ms). */
  at: number;
  /** Runs of this text at least as slow as the slowest kept entry's floor, since it was kept. */
  count: number;
}

export interface QueryStatsOptions {
  /** Slowest distinct statements kept. */
  keep: number;
  /** An entry older than this is forgotten: the list shows what is slow lately. */
  windowMs: number;
  now?: () => number;
}

/**
 * Counts the statements a database handle runs and keeps the slowest few recently seen, by text.
 * Fed by Kysely's `log` option, which sees the compiled SQL (placeholders, never parameter
 * values) and its duration. Bounded: `keep` entries, and a statement faster than the fastest kept
 * one costs one comparison once the list is full.
 */
export class QueryStats {
  queries = 0;
  errors = 0;
  private entries: SlowQueryEntry[] = [];
  private readonly now: () => number;

  constructor(private readonly options: QueryStatsOptions) {
    this.now = options.now ?? Date.now;
  }

  readonly log = (event: LogEvent): void => {
    this.queries += 1;
    if (event.level === 'error') this.errors += 1;
    this.record(event.query.sql, event.queryDurationMillis);
  };

  record(sqlText: string, durationMs: number): void {
    const now = this.now();
    this.expire(now);
    const full = this.entries.length >= this.options.keep;
    const floor = full ? this.entries[this.entries.length - 1]!.durationMs : 0;
    if (full && durationMs <= floor) return;
    const text = sqlText.length > SQL_TEXT_MAX ? `${sqlText.slice(0, SQL_TEXT_MAX)}…` : sqlText;
    const same = this.entries.find((entry) => entry.sql === text);
    if (same) {
      same.count += 1;
      if (durationMs > same.durationMs) {
        same.durationMs = durationMs;
        same.at = now;
      }
    } else {
      this.entries.push({ sql: text, durationMs, at: now, count: 1 });
    }
    this.entries.sort((a, b) => b.durationMs - a.durationMs);
    if (this.entries.length > this.options.keep) this.entries.length = this.options.keep;
  }

  /** Slowest first, within the window. */
  slowest(): SlowQueryEntry[] {
    this.expire(this.now());
    return this.entries.map((entry) => ({ ...entry }));
  }

  private expire(now: number): void {
    const before = now - this.options.windowMs;
    if (this.entries.some((entry) => entry.at < before)) {
      this.entries = this.entries.filter((entry) => entry.at >= before);
    }
  }
}
