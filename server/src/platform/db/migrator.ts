import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import { migrations } from '../../db/migrations/index.js';
import type { Db } from './database.js';

/**
 * Migrations come from an explicit import list rather than a directory scan, so the same code runs
 * from src (tsx, vitest) and from dist without knowing file extensions.
 */
const provider: MigrationProvider = {
  getMigrations: async (): Promise<Record<string, Migration>> => ({ ...migrations }),
};

export async function migrateToLatest(db: Db): Promise<void> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed`, { cause: error });
  }
}
