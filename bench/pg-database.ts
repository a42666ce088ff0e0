import { sql } from 'kysely';
import { createDatabase } from '../server/src/platform/db/database.js';

/**
 * A fresh PostgreSQL database for one bench run, created through `adminUrl` (a database of the
 * same server the bench may create databases from), and how to drop it again.
 */
export async function createPgDatabase(
  adminUrl: string,
  label: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `blrms_bench_${label}_${process.pid}_${Date.now()}`;
  const admin = createDatabase({ dialect: 'postgres', url: adminUrl });
  await sql`create database ${sql.id(name)}`.execute(admin.db);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin.db);
      await admin.db.destroy();
    },
  };
}
