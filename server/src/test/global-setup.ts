import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createDatabase } from '../platform/db/database.js';
import { migrateToLatest } from '../platform/db/migrator.js';
import { PG_TEMPLATE_ENV, SQLITE_TEMPLATE_ENV } from './database.js';

/**
 * Vitest's global setup of the server project: migrates one database before the first test file,
 * which every test app then starts from (a copied SQLite file, or `CREATE DATABASE … TEMPLATE` on
 * PostgreSQL) instead of running the migrations again: about 0.15 s saved per app on SQLite and
 * 1 s on PostgreSQL, for a hundred apps a run. Its name reaches the workers through the
 * environment, which they inherit; the returned function removes it after the last file.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blrms-template-'));
    const file = path.join(dir, 'blrms.db');
    const { db } = createDatabase({ dialect: 'sqlite', file });
    await migrateToLatest(db);
    // Closing the last connection checkpoints the WAL into the file, so the file alone is the copy.
    await db.destroy();
    process.env[SQLITE_TEMPLATE_ENV] = file;
    return async () => fs.rmSync(dir, { recursive: true, force: true });
  }
  const name = `blrms_template_${randomBytes(6).toString('hex')}`;
  await adminQuery(url, `CREATE DATABASE ${name}`);
  const templateUrl = new URL(url);
  templateUrl.pathname = `/${name}`;
  const { db } = createDatabase({ dialect: 'postgres', url: templateUrl.toString() });
  try {
    await migrateToLatest(db);
  } finally {
    // A template may have no connections while it is copied.
    await db.destroy();
  }
  process.env[PG_TEMPLATE_ENV] = name;
  return () => adminQuery(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

async function adminQuery(url: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}
