import fs from 'node:fs/promises';
import { sql } from 'kysely';
import type { Db, Dialect } from '../../platform/db/database.js';

/**
 * Platform-wide figures of the system monitor and /metrics: the database's size, and devices and
 * campaigns counted over every company (platform administrators and the operator's scraper see
 * totals, never rows).
 */
export class MonitorRepository {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  /** Bytes on disk: SQLite's pages plus its write-ahead log; PostgreSQL's pg_database_size. */
  async databaseSize(): Promise<number> {
    if (this.dialect === 'postgres') {
      const { rows } = await sql<{
        size: string | number;
      }>`select pg_database_size(current_database()) as size`.execute(this.db);
      return Number(rows[0]?.size ?? 0);
    }
    const pages = await sql<{ page_count: number }>`pragma page_count`.execute(this.db);
    const pageSize = await sql<{ page_size: number }>`pragma page_size`.execute(this.db);
    const files = await sql<{ name: string; file: string }>`pragma database_list`.execute(this.db);
    const main = files.rows.find((row) => row.name === 'main')?.file ?? '';
    const wal = main ? await fs.stat(`${main}-wal`).catch(() => null) : null;
    return (pages.rows[0]?.page_count ?? 0) * (pageSize.rows[0]?.page_size ?? 0) + (wal?.size ?? 0);
  }

  /** Devices by status, from the trigger-kept counts (a few thousand rows, not the devices). */
  async deviceCountsByStatus(): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('device_stats')
      .select(['status', (eb) => eb.fn.sum<number>('n').as('n')])
      .groupBy('status')
      .execute();
    return new Map(rows.map((row) => [row.status, Number(row.n)]));
  }

  /** Campaigns by state. */
  async campaignCountsByState(): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('campaign')
      .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('state')
      .execute();
    return new Map(rows.map((row) => [row.state, Number(row.n)]));
  }
}
