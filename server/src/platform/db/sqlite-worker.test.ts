import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CompiledQuery, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase, transactionOf, type Db } from './database.js';
import { isUniqueViolation } from './unique-violation.js';

const dirs: string[] = [];
const open: Db[] = [];
afterEach(async () => {
  for (const db of open.splice(0)) await db.destroy();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function database(): Promise<{ db: Db; dir: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blrms-sqlite-worker-'));
  dirs.push(dir);
  const { db } = createDatabase({ dialect: 'sqlite', file: path.join(dir, 'blrms.db') });
  open.push(db);
  await sql`create table note (id integer primary key, body text not null unique)`.execute(db);
  return { db, dir };
}

const insert = (body: string) => CompiledQuery.raw('insert into note (body) values (?)', [body]);
const count = async (db: Db) =>
  (await sql<{ n: number }>`select count(*) as n from note`.execute(db)).rows[0]?.n;

describe('SQLite on a worker thread', () => {
  it('keeps the event loop running while a long statement runs', async () => {
    const { db } = await database();
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 5);
    const started = performance.now();
    // A few hundred milliseconds of work for SQLite alone.
    const { rows } = await sql<{ n: number }>`with recursive r(i) as (select 1 union all
      select i + 1 from r where i < 3000000) select count(*) as n from r`.execute(db);
    const elapsed = performance.now() - started;
    clearInterval(timer);
    expect(rows).toEqual([{ n: 3_000_000 }]);
    expect(elapsed).toBeGreaterThan(50);
    // In-thread, the timer could not have run once until the statement ended.
    expect(ticks).toBeGreaterThan(elapsed / 5 / 4);
  });

  it("reports SQLite's error and its code", async () => {
    const { db } = await database();
    await db.executeQuery(insert('a'));
    const error = await db.executeQuery(insert('a')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/UNIQUE constraint failed: note.body/);
    expect(isUniqueViolation(error)).toBe(true);
    await expect(sql`select * from missing`.execute(db)).rejects.toThrow(/no such table: missing/);
  });

  it('runs statements sent together in one transaction: all of them or none', async () => {
    const { db } = await database();
    const results = await transactionOf(db, [
      insert('a'),
      insert('b'),
      CompiledQuery.raw('select body from note order by body'),
    ]);
    expect(results[0]?.numAffectedRows).toBe(1n);
    expect(results[2]?.rows).toEqual([{ body: 'a' }, { body: 'b' }]);

    const failed = await transactionOf(db, [insert('c'), insert('a')]).catch((e: unknown) => e);
    expect(isUniqueViolation(failed)).toBe(true);
    // 'c' was rolled back with the statement that failed.
    expect(await count(db)).toBe(2);
  });

  it('waits for a transaction in progress before running statements sent together', async () => {
    const { db } = await database();
    let together: Promise<unknown> | undefined;
    await db.transaction().execute(async (trx) => {
      await trx.executeQuery(insert('in-transaction'));
      together = transactionOf(db, [CompiledQuery.raw('select count(*) as n from note')]);
      // The connection is this transaction's until it commits.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await trx.executeQuery(insert('after-the-wait'));
    });
    const [result] = (await together) as { rows: unknown[] }[];
    expect(result?.rows).toEqual([{ n: 2 }]);
  });

  it('has closed its connection when destroy returns: nothing writes into the directory after', async () => {
    const { db, dir } = await database();
    await db.executeQuery(insert('a'));
    open.splice(open.indexOf(db), 1);
    await db.destroy();
    // The last connection closed has checkpointed and removed the WAL: only the file remains.
    expect(fs.readdirSync(dir)).toEqual(['blrms.db']);
    fs.rmSync(dir, { recursive: true });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fs.existsSync(dir)).toBe(false);
  });
});
