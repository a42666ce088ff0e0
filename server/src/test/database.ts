import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createDatabase } from '../platform/db/database.js';

/** A migrated SQLite file to copy, set by the server project's global setup (global-setup.ts). */
export const SQLITE_TEMPLATE_ENV = 'BLRMS_TEST_SQLITE_TEMPLATE';
/** A migrated PostgreSQL database to create from, set by the same global setup. */
export const PG_TEMPLATE_ENV = 'BLRMS_TEST_PG_TEMPLATE';

/**
 * A fresh database for one test: a temporary SQLite file, or, when DATABASE_URL is set, a
 * database of its own on that PostgreSQL server (created here, dropped by `drop`). Empty by
 * default; with `migrated`, a copy of the template the global setup migrated when there is one
 * (vitest), so the app's own migration finds nothing to do, and empty otherwise (benchmarks run
 * outside vitest: the app migrates it as it would in production).
 */
export async function freshDatabase(options: { migrated?: boolean } = {}) {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blrms-test-'));
    const file = path.join(dir, 'blrms.db');
    const template = options.migrated ? process.env[SQLITE_TEMPLATE_ENV] : undefined;
    if (template) fs.copyFileSync(template, file);
    return {
      handle: createDatabase({ dialect: 'sqlite', file }),
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `blrms_test_${randomBytes(6).toString('hex')}`;
  const template = options.migrated ? process.env[PG_TEMPLATE_ENV] : undefined;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  await admin.end();
  const testUrl = new URL(url);
  testUrl.pathname = `/${name}`;
  return {
    handle: createDatabase({ dialect: 'postgres', url: testUrl.toString() }),
    drop: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
