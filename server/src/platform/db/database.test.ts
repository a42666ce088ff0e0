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

describe('SQLite statements prepared once', () => {
  let handle: DatabaseHandle;

  beforeAll(() => {
    handle = createDatabase({ dialect: 'sqlite', file: ':memory:' });
  });
  afterAll(() => handle.db.destroy());

  it('sees schema changes and recovers from a failed run of a kept statement', async () => {
    await sql`create table kept (id integer primary key, name text not null)`.execute(handle.db);
    const insert = (id: number, name: string) =>
      sql`insert into kept (id, name) values (${id}, ${name})`.execute(handle.db);
    const all = () =>
      sql<Record<string, unknown>>`select * from kept order by id`.execute(handle.db);
    await insert(1, 'a');
    expect((await all()).rows).toEqual([{ id: 1, name: 'a' }]);

    await sql`alter table kept add column note text`.execute(handle.db);
    expect((await all()).rows).toEqual([{ id: 1, name: 'a', note: null }]);

    await expect(insert(1, 'again')).rejects.toThrow(/UNIQUE/);
    await insert(2, 'b');
    expect((await all()).rows.map((r) => r.name)).toEqual(['a', 'b']);
  });
});
