import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './database.js';
import { numbered, placeholderOf } from './rows-statement.js';
import type { Database } from './schema.js';

export interface TableStatisticsOptions {
  /** Rows added since the last ANALYZE that make the statistics stale, at least… */
  minRows: number;
  /** …or this share of the rows the last ANALYZE counted, whichever is larger. */
  share: number;
}

export const DEFAULT_TABLE_STATISTICS: TableStatisticsOptions = { minRows: 1000, share: 0.2 };

/**
 * Keeps PostgreSQL's statistics of a table that grows in bursts up to date. PostgreSQL plans by
 * the row counts of the last ANALYZE, and autovacuum takes a new one only a minute or more after
 * the table grew (its naptime, then 10 % of the rows). In the meantime a table that was nearly
 * empty is planned as if it still were: during a storm of devices registering themselves, the
 * lookup of a token's SNs was a bitmap AND over the token's whole index and the SN trigram index,
 * 28 ms a statement instead of 0.2 ms, and PostgreSQL's CPU was the bound of the storm. The
 * writers that add rows in bulk call {@link added}; once enough rows were added, one ANALYZE runs
 * in the background. SQLite plans by its indexes alone: nothing to do there.
 */
export class TableStatistics {
  private readonly postgres: boolean;
  private addedSince = 0;
  private rowsAtAnalyze: number | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly table: keyof Database & string,
    private readonly log: FastifyBaseLogger,
    private readonly options: TableStatisticsOptions = DEFAULT_TABLE_STATISTICS,
  ) {
    this.postgres = placeholderOf(db) === numbered;
  }

  /** `rows` were added to the table; may start an ANALYZE (never waits for it). */
  added(rows: number): void {
    if (!this.postgres) return;
    this.addedSince += rows;
    if (this.running) return;
    this.running = this.refreshIfStale().finally(() => (this.running = null));
  }

  /** Waits for an ANALYZE under way (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  private async refreshIfStale(): Promise<void> {
    try {
      this.rowsAtAnalyze ??= await this.countedRows();
      const threshold = Math.max(this.options.minRows, this.rowsAtAnalyze * this.options.share);
      if (this.addedSince < threshold) return;
      const added = this.addedSince;
      await sql`analyze ${sql.table(this.table)}`.execute(this.db);
      this.addedSince -= added;
      this.rowsAtAnalyze = await this.countedRows();
    } catch (error) {
      // Autovacuum still analyzes the table in its own time.
      this.log.warn({ err: error, table: this.table }, 'table statistics not refreshed');
    }
  }

  /** The row count of the last ANALYZE or VACUUM (PostgreSQL's -1: never, taken as 0). */
  private async countedRows(): Promise<number> {
    const { rows } = await sql<{ reltuples: number }>`
      select reltuples from pg_class where oid = to_regclass(${this.table})`.execute(this.db);
    return Math.max(0, Number(rows[0]?.reltuples ?? 0));
  }
}
