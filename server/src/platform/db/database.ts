import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  sql,
  type PostgresPool,
  type PostgresPoolClient,
  type SqliteDatabase,
} from 'kysely';
import pg from 'pg';
import { MONITOR_SLOW_QUERIES, MONITOR_SLOW_QUERY_WINDOW_MS } from '@blrms/contracts';
import { QueryStats } from './query-stats.js';
import type { Database } from './schema.js';
import { fromDatabase } from './unavailable.js';
import { WalCheckpointer } from './wal-checkpointer.js';

export type Db = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
}

export type DatabaseTarget =
  { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string };

const PG_INT8 = 20;

/**
 * A request waits at most this long for a pooled connection, whether PostgreSQL is unreachable
 * (a dropped SYN would otherwise wait for the kernel's minutes-long connect timeout) or all
 * connections are busy: it then fails as "database unavailable" (503), which the client may retry.
 */
export const CONNECT_TIMEOUT_MS = 1000;

/** Pooled PostgreSQL connections per node. */
const POOL_SIZE = 10;

export interface DatabaseEvents {
  /**
   * A pooled PostgreSQL connection the server closed while idle (restart, failover, an
   * administrator's terminate). pg re-emits those on the pool, and an unheard pool error would end
   * the process; the pool itself replaces the lost connection.
   */
  idleError?: (error: Error) => void;
  /** A new PostgreSQL connection was made: the database is reachable (again). */
  connected?: () => void;
  /** SQLite's WAL checkpointer failed: the connection checkpoints by itself from now on. */
  checkpointerFailed?: (error: Error) => void;
}

/** What the system monitor and /metrics read of a handle: its statements and its pool. */
export interface DatabaseStats {
  queries: QueryStats;
  /** PostgreSQL's pool; null on SQLite (one connection). */
  pool: { total: number; idle: number; waiting: number; max: number } | null;
}

const statsOfDb = new WeakMap<Db, { queries: QueryStats; pool: pg.Pool | null }>();

/** The statistics of a handle made by {@link createDatabase}; null for any other. */
export function databaseStats(db: Db): DatabaseStats | null {
  const stats = statsOfDb.get(db);
  if (!stats) return null;
  const { pool } = stats;
  return {
    queries: stats.queries,
    pool: pool
      ? {
          total: pool.totalCount,
          idle: pool.idleCount,
          waiting: pool.waitingCount,
          max: pool.options.max ?? POOL_SIZE,
        }
      : null,
  };
}

export function createDatabase(
  target: DatabaseTarget,
  events: DatabaseEvents = {},
): DatabaseHandle {
  const queries = new QueryStats({
    keep: MONITOR_SLOW_QUERIES,
    windowMs: MONITOR_SLOW_QUERY_WINDOW_MS,
  });
  if (target.dialect === 'postgres') {
    const pool = new pg.Pool({
      connectionString: target.url,
      max: POOL_SIZE,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      // Connections stay open once made (see warmPool): closing idle ones meant opening them again
      // in the next burst, when a new backend on a busy machine can take longer than the timeout.
      idleTimeoutMillis: 0,
      // A connection whose server vanished without a FIN (a cut network, a failed-over host) is
      // found by TCP keepalive instead of lingering in the pool.
      keepAlive: true,
      // Times are epoch ms and counts are int8: both fit a JS number, and the code expects numbers.
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === PG_INT8
            ? Number
            : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    });
    pool.on('error', (error) => events.idleError?.(fromDatabase(error)));
    const connected = events.connected;
    pool.on('connect', (client) => {
      // The pool listens for errors of idle connections only. A connection the server ends while
      // it is checked out between two statements (inside a transaction) emits its error with no
      // listener, which would crash the process: its next statement fails instead, as unavailable.
      client.on('error', ignoreCheckedOutError);
      connected?.();
    });
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: markingErrors(pool) }),
      log: queries.log,
    });
    statsOfDb.set(db, { queries, pool });
    return { db, dialect: 'postgres' };
  }
  if (target.file !== ':memory:') fs.mkdirSync(path.dirname(target.file), { recursive: true });
  const database = new SQLite(target.file);
  database.pragma('journal_mode = WAL');
  // In WAL mode NORMAL syncs at checkpoints instead of on every commit: a power cut can lose the
  // last transactions but never corrupts the file. Presence, telemetry and log writes commit many
  // times a second, and an fsync each would cap them at the disk's sync rate.
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  const checkpointer =
    target.file === ':memory:'
      ? null
      : new WalCheckpointer(database, target.file, { failed: events.checkpointerFailed });
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: reusingStatements(database, checkpointer) }),
    log: queries.log,
  });
  statsOfDb.set(db, { queries, pool: null });
  return { db, dialect: 'sqlite' };
}

/**
 * Opens every pooled PostgreSQL connection now (none on SQLite), to be kept (the pool does not
 * close idle ones). Without it the pool grew during the first burst of work: in a connect storm,
 * new backends forked on a saturated machine took longer than CONNECT_TIMEOUT_MS, and the device
 * logins waiting for them were refused as "database unavailable" (CONNACK 3) while PostgreSQL was
 * up. A connection that fails here is only not opened yet: the pool makes it when needed.
 */
export async function warmPool(db: Db): Promise<void> {
  const pool = statsOfDb.get(db)?.pool;
  if (!pool) return;
  const clients = await Promise.allSettled(
    Array.from({ length: pool.options.max ?? POOL_SIZE }, () => pool.connect()),
  );
  for (const client of clients) if (client.status === 'fulfilled') client.value.release();
}

function ignoreCheckedOutError(): void {}

/**
 * The pool as Kysely uses it, with every error of a connect or a query marked as the database's:
 * the error handler tells an unreachable database (503) from other failures by it.
 */
function markingErrors(pool: pg.Pool): PostgresPool {
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const marking = (client: pg.PoolClient): PostgresPoolClient => {
    let wrapped = clients.get(client);
    if (!wrapped) {
      wrapped = {
        query: ((...args: unknown[]) => {
          const [text, values] = args;
          // A cursor (streamed rows) is returned as is; its errors come through its reads.
          if (typeof text !== 'string') return Reflect.apply(client.query, client, args);
          // Asked with a callback, not through pg's own promise: with that promise the rows of
          // results outlived young-generation collections and were copied to the old generation
          // (~2.5 KB a statement; scavenges of 8-9 ms instead of ~1 ms, measured by
          // bench/pg-statement-gc.ts). The promise made here does not keep them.
          return new Promise<pg.QueryResult>((resolve, reject) => {
            client.query(text, values as unknown[], (error, result) =>
              error ? reject(fromDatabase(error)) : resolve(result),
            );
          });
        }) as PostgresPoolClient['query'],
        release: () => client.release(),
      };
      clients.set(client, wrapped);
    }
    return wrapped;
  };
  return {
    connect: async () => {
      try {
        return marking(await pool.connect());
      } catch (error) {
        throw fromDatabase(error);
      }
    },
    end: () => pool.end(),
  };
}

/** Statements kept prepared, the most recently used ones. */
const STATEMENT_CACHE_SIZE = 200;
/** Longer SQL (multi-row inserts and updates, whose text varies with the row count) is not kept. */
const STATEMENT_CACHE_MAX_SQL = 4000;

/**
 * Kysely prepares every statement it runs, and preparing costs SQLite more than running most of
 * them (a device login's lookup took 0.27 ms to prepare and 0.07 ms to run): the same SQL text gets
 * the statement prepared before. Safe because Kysely runs one statement at a time on the single
 * SQLite connection; SQLite prepares a kept statement again by itself after a schema change.
 */
function reusingStatements(
  database: SQLite.Database,
  checkpointer: WalCheckpointer | null,
): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => {
      checkpointer?.close();
      database.close();
    },
    prepare(text: string) {
      const kept = statements.get(text);
      if (kept) {
        // Most recently used last: the first entry is the one to evict.
        statements.delete(text);
        statements.set(text, kept);
        return kept;
      }
      const statement = database.prepare(text);
      if (text.length <= STATEMENT_CACHE_MAX_SQL) {
        if (statements.size >= STATEMENT_CACHE_SIZE) {
          const oldest = statements.keys().next();
          if (!oldest.done) statements.delete(oldest.value);
        }
        statements.set(text, statement);
      }
      return statement;
    },
  };
}

export function databaseTarget(config: {
  databaseUrl: string | undefined;
  dataDir: string;
}): DatabaseTarget {
  return config.databaseUrl
    ? { dialect: 'postgres', url: config.databaseUrl }
    : { dialect: 'sqlite', file: path.join(config.dataDir, 'blrms.db') };
}

export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
