import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createDatabase } from '../platform/db/database.js';

/**
 * A fresh, empty database for one test: a temporary SQLite file, or, when DATABASE_URL is set, a
 * database of its own on that PostgreSQL server (created here, dropped by `drop`).
 */
export async function freshDatabase() {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blrms-test-'));
    return {
      handle: createDatabase({ dialect: 'sqlite', file: path.join(dir, 'blrms.db') }),
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `blrms_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
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
