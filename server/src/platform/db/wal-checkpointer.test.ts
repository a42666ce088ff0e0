import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { WalCheckpointer, type CheckpointResult } from './wal-checkpointer.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function openDatabase(): { database: SQLite.Database; file: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blrms-wal-'));
  dirs.push(dir);
  const file = path.join(dir, 'blrms.db');
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  database.exec('create table note (id integer primary key, body blob not null)');
  return { database, file };
}

/** Commits `pages` pages' worth of rows, ten transactions. */
function write(database: SQLite.Database, pages: number): void {
  const insert = database.prepare('insert into note (body) values (?)');
  for (let t = 0; t < 10; t++) {
    database.transaction(() => {
      for (let i = 0; i < pages / 10; i++) insert.run(Buffer.alloc(4000, i));
    })();
  }
}

describe('WAL checkpointer', () => {
  it('checkpoints on its worker once the WAL is due, and never in the committing thread', async () => {
    const { database, file } = openDatabase();
    const results: CheckpointResult[] = [];
    const failures: Error[] = [];
    const checkpointer = new WalCheckpointer(database, file, {
      checkpointed: (result) => results.push(result),
      failed: (error) => failures.push(error),
    });
    expect(database.pragma('wal_autocheckpoint', { simple: true })).toBe(0);

    write(database, 100);
    await new Promise((resolve) => setTimeout(resolve, 1300));
    // A WAL smaller than one checkpoint's worth starts no worker.
    expect(checkpointer.running).toBe(false);

    write(database, 1500);
    // The committing connection left the WAL as it was: every frame is still in it.
    const [inline] = database.pragma('wal_checkpoint(NOOP)') as CheckpointResult[];
    expect(inline!.checkpointed).toBe(0);
    expect(inline!.log).toBeGreaterThan(1500);

    await expect.poll(() => results.at(-1)?.log ?? 0, { timeout: 5000 }).toBeGreaterThan(1500);
    expect(checkpointer.running).toBe(true);
    const last = results.at(-1)!;
    expect(last.checkpointed).toBe(last.log);

    // Rows written while it runs are checkpointed too, and the data reads back whole.
    const before = results.length;
    write(database, 1200);
    await expect.poll(() => results.length, { timeout: 5000 }).toBeGreaterThan(before);
    expect(results.at(-1)!.checkpointed).toBe(results.at(-1)!.log);
    expect(database.prepare('select count(*) as n from note').get()).toEqual({ n: 2800 });

    checkpointer.close();
    database.close();
    // The worker's connection was closed before close returned, so the main connection was the
    // last: it checkpointed the rest and removed the WAL. A closing worker is no failure.
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(failures).toEqual([]);
  });

  it('writes nothing into the directory once closed, even with its worker just started', async () => {
    const { database, file } = openDatabase();
    const checkpointer = new WalCheckpointer(database, file);
    write(database, 1500);
    while (!checkpointer.running) await new Promise((resolve) => setTimeout(resolve, 5));
    // Closed while the worker is still opening its connection. Whoever closed the database may
    // remove its directory right away, as tests do: no file may appear in it afterwards.
    checkpointer.close();
    database.close();
    const written: string[] = [];
    const watcher = fs.watch(path.dirname(file), (_event, name) => written.push(String(name)));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    watcher.close();
    expect(written).toEqual([]);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['blrms.db']);
  });

  it('hands checkpoints back to the connection when its worker fails', async () => {
    const { database, file } = openDatabase();
    const failures: Error[] = [];
    const checkpointer = new WalCheckpointer(database, file, {
      failed: (error) => failures.push(error),
    });
    write(database, 1200);
    // The worker cannot open a database file that is gone (the open connection keeps its own).
    fs.rmSync(file);

    await expect.poll(() => failures.length, { timeout: 5000 }).toBe(1);
    expect(checkpointer.running).toBe(false);
    expect(database.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    checkpointer.close();
    database.close();
  });
});
