import { sql } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../../test/database.js';
import type { Db } from './database.js';
import { TableStatistics } from './table-statistics.js';

describe.skipIf(!process.env.DATABASE_URL)('TableStatistics on PostgreSQL', () => {
  let db: Db;
  let drop: () => Promise<void>;

  /** When `device` was last analyzed by a statement (not by autovacuum); null: never. */
  async function lastAnalyze(): Promise<Date | null> {
    const { rows } = await sql<{ last_analyze: Date | null }>`
      select last_analyze from pg_stat_user_tables where relid = to_regclass('device')`.execute(db);
    return rows[0]?.last_analyze ?? null;
  }

  beforeAll(async () => {
    const fresh = await freshDatabase({ migrated: true });
    db = fresh.handle.db;
    drop = async () => {
      await db.destroy();
      await fresh.drop();
    };
  });
  afterAll(() => drop());

  it('analyzes the table once enough rows were added since the last count, not before', async () => {
    const statistics = new TableStatistics(db, 'device', pino({ level: 'silent' }), {
      minRows: 10,
      share: 0.2,
    });
    statistics.added(6);
    await statistics.settled();
    statistics.added(3);
    await statistics.settled();
    expect(await lastAnalyze()).toBeNull();

    statistics.added(1);
    await statistics.settled();
    const first = await lastAnalyze();
    expect(first).not.toBeNull();

    // Counted from zero again: the next ten rows make it stale once more.
    statistics.added(9);
    await statistics.settled();
    expect(await lastAnalyze()).toEqual(first);
  });
});
