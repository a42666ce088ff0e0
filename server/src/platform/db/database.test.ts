import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from './database.js';

describe.skipIf(!process.env.DATABASE_URL)('PostgreSQL pool', () => {
  let handle: DatabaseHandle;
  const heard: Error[] = [];

  beforeAll(() => {
    handle = createDatabase({ dialect: 'postgres', url: process.env.DATABASE_URL! }, (error) =>
      heard.push(error),
    );
  });
  afterAll(() => handle.db.destroy());

  it('survives the server ending an idle connection, and reports it', async () => {
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(handle.db);
    const idlePid = rows[0]!.pid;

    const admin = createDatabase({ dialect: 'postgres', url: process.env.DATABASE_URL! });
    await sql`select pg_terminate_backend(${idlePid})`.execute(admin.db);
    await admin.db.destroy();
    await expect.poll(() => heard.length).toBe(1);

    const again = await sql<{ ok: number }>`select 1 as ok`.execute(handle.db);
    expect(again.rows[0]!.ok).toBe(1);
  });
});
