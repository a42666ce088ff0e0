import net from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONNECT_TIMEOUT_MS,
  createDatabase,
  databaseStats,
  warmPool,
  type DatabaseHandle,
} from './database.js';
import { unavailableCause } from './unavailable.js';

describe.skipIf(!process.env.DATABASE_URL)('PostgreSQL pool', () => {
  let handle: DatabaseHandle;
  const heard: Error[] = [];

  beforeAll(() => {
    handle = createDatabase(
      { dialect: 'postgres', url: process.env.DATABASE_URL! },
      { idleError: (error) => heard.push(error) },
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
    expect(unavailableCause(heard[0])).not.toBeNull();

    const again = await sql<{ ok: number }>`select 1 as ok`.execute(handle.db);
    expect(again.rows[0]!.ok).toBe(1);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('PostgreSQL pool opened ahead of work', () => {
  it('has every connection open and idle after warmPool, so a burst opens none', async () => {
    let opened = 0;
    const { db } = createDatabase(
      { dialect: 'postgres', url: process.env.DATABASE_URL! },
      { connected: () => (opened += 1) },
    );
    try {
      expect(databaseStats(db)?.pool?.total).toBe(0);
      await warmPool(db);
      const max = databaseStats(db)!.pool!.max;
      expect(opened).toBe(max);
      expect(databaseStats(db)?.pool).toMatchObject({ total: max, idle: max, waiting: 0 });
      await Promise.all(Array.from({ length: max }, () => sql`select pg_sleep(0.05)`.execute(db)));
      expect(opened).toBe(max);
    } finally {
      await db.destroy();
    }
  });
});

describe.skipIf(!process.env.DATABASE_URL)(
  'PostgreSQL connection ended inside a transaction',
  () => {
    it('fails the transaction as unavailable instead of crashing the process, and recovers', async () => {
      const { db } = createDatabase({ dialect: 'postgres', url: process.env.DATABASE_URL! });
      const admin = createDatabase({ dialect: 'postgres', url: process.env.DATABASE_URL! });
      try {
        const failed = await db
          .transaction()
          .execute(async (trx) => {
            const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(
              trx,
            );
            await sql`select pg_terminate_backend(${rows[0]!.pid})`.execute(admin.db);
            // The server's notice arrives while the connection is checked out and idle.
            await new Promise((resolve) => setTimeout(resolve, 200));
            await sql`select 1`.execute(trx);
          })
          .then(
            () => null,
            (error: unknown) => error,
          );
        expect(unavailableCause(failed)).not.toBeNull();
        const again = await sql<{ ok: number }>`select 1 as ok`.execute(db);
        expect(again.rows[0]!.ok).toBe(1);
      } finally {
        await admin.db.destroy();
        await db.destroy();
      }
    });
  },
);

describe('PostgreSQL out of reach', () => {
  /** What a query on a pool of this URL fails with, and how long it took. */
  async function failure(url: string): Promise<{ cause: string | null; ms: number }> {
    const { db } = createDatabase({ dialect: 'postgres', url });
    const started = Date.now();
    try {
      await sql`select 1`.execute(db);
      throw new Error('the query succeeded');
    } catch (error) {
      return { cause: unavailableCause(error), ms: Date.now() - started };
    } finally {
      await db.destroy();
    }
  }

  /** A port that accepts connections and never answers, as a hung server or a proxy does. */
  async function silentPort(): Promise<{ port: number; close: () => void }> {
    const sockets: net.Socket[] = [];
    const server = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      port: (server.address() as net.AddressInfo).port,
      close: () => {
        for (const socket of sockets) socket.destroy();
        server.close();
      },
    };
  }

  it('fails a query at once, as unavailable, when nothing listens', async () => {
    const silent = await silentPort();
    silent.close();
    const { cause, ms } = await failure(`postgres://postgres@127.0.0.1:${silent.port}/x`);
    expect(cause).toBe('ECONNREFUSED');
    expect(ms).toBeLessThan(CONNECT_TIMEOUT_MS);
  });

  it('gives up on a server that does not answer after the connect timeout', async () => {
    const silent = await silentPort();
    try {
      const { cause, ms } = await failure(`postgres://postgres@127.0.0.1:${silent.port}/x`);
      expect(cause).toBe('connect-timeout');
      expect(ms).toBeGreaterThanOrEqual(CONNECT_TIMEOUT_MS - 50);
      expect(ms).toBeLessThan(CONNECT_TIMEOUT_MS + 1000);
    } finally {
      silent.close();
    }
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
