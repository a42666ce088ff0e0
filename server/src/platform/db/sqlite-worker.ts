import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';

/**
 * SQLite on a thread of its own. better-sqlite3 runs every statement synchronously on the thread
 * that asks, and for the server that was the event loop: in a connect storm the database was a
 * third of it (bench/README.md, "SQLite on a worker thread"), and a large list, an export or a
 * busy wait for another process's write lock held up every device and request meanwhile. Here one
 * worker thread owns the connection; the event loop sends each statement and awaits its rows, and
 * runs MQTT and HTTP meanwhile. It is still one connection, used by one statement at a time, as
 * Kysely's own SQLite driver does: a transaction holds it from BEGIN to COMMIT.
 *
 * The worker checkpoints the WAL itself, as SQLite does by default: that fsync is off the event
 * loop now too.
 */

/** Statements kept prepared in the worker, the most recently used ones. */
const STATEMENT_CACHE_SIZE = 200;
/** Longer SQL (multi-row inserts, whose text varies with the row count) is not kept. */
const STATEMENT_CACHE_MAX_SQL = 4000;

/**
 * Runs in the worker, as a script (tests run the TypeScript sources, where a worker file would
 * need a loader). Opens the database, then answers each `{ id, sql, parameters }` with its rows or
 * its error. An open that fails is the answer to every statement.
 *
 * Preparing costs SQLite more than running most statements (a device login's lookup took 0.27 ms
 * to prepare and 0.07 ms to run): the same SQL text gets the statement prepared before. SQLite
 * prepares a kept statement again by itself after a schema change.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.module);
let database;
let openError;
try {
  database = new SQLite(workerData.file);
  database.pragma('journal_mode = WAL');
  // In WAL mode NORMAL syncs at checkpoints instead of on every commit: a power cut can lose the
  // last transactions but never corrupts the file. Presence, telemetry and log writes commit many
  // times a second, and an fsync each would cap them at the disk's sync rate.
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
} catch (error) {
  openError = error;
}
const statements = new Map();
const prepare = (sql) => {
  const kept = statements.get(sql);
  if (kept) {
    statements.delete(sql);
    statements.set(sql, kept);
    return kept;
  }
  const statement = database.prepare(sql);
  if (sql.length <= workerData.cacheMaxSql) {
    if (statements.size >= workerData.cacheSize) statements.delete(statements.keys().next().value);
    statements.set(sql, statement);
  }
  return statement;
};
const failure = (error) => ({ message: String(error.message), code: error.code, name: error.name });
const run = ({ sql, parameters }) => {
  const started = performance.now();
  const statement = prepare(sql);
  if (statement.reader) return { rows: statement.all(parameters), ms: performance.now() - started };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { changes, lastInsertRowid, ms: performance.now() - started };
};
const runAll = (queries) => queries.map(run);
parentPort.on('message', (message) => {
  if (message === 'close') {
    database?.close();
    parentPort.close();
    return;
  }
  try {
    if (openError) throw openError;
    const results = message.transaction
      ? database.transaction(runAll)(message.queries)
      : [run(message.queries[0])];
    parentPort.postMessage({ id: message.id, results });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: failure(error) });
  }
});
`;

/** What the worker answers of one statement. */
interface StatementResult {
  rows?: unknown[];
  changes?: number;
  lastInsertRowid?: number | bigint;
  /** How long it ran in the worker. */
  ms: number;
}

interface Reply {
  id: number;
  results?: StatementResult[];
  error?: { message: string; code?: string; name?: string };
}

/** Where a statement's time is reported (the handle's statement statistics). */
export type StatementLog = (query: CompiledQuery, durationMs: number) => void;

interface Waiting {
  resolve: (reply: Reply) => void;
  reject: (error: Error) => void;
}

/** An error of SQLite's, as the worker reported it: its message and its code (`SQLITE_…`). */
export class SqliteWorkerError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'SqliteError';
  }
}

/** The worker and the statements it has not answered yet. */
class SqliteThread {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private exited: Error | null = null;
  private readonly closed: Promise<void>;

  constructor(file: string) {
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        module: createRequire(import.meta.url).resolve('better-sqlite3'),
        file,
        cacheSize: STATEMENT_CACHE_SIZE,
        cacheMaxSql: STATEMENT_CACHE_MAX_SQL,
      },
    });
    // An idle worker keeps no process alive by itself; one with statements to answer does.
    this.worker.unref();
    this.worker.on('message', (reply: Reply) => {
      const waiting = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) this.worker.unref();
      waiting?.resolve(reply);
    });
    this.worker.on('error', (error) => this.fail(error));
    this.closed = new Promise((resolve) =>
      this.worker.on('exit', (code) => {
        this.fail(new Error(`SQLite worker exited with code ${code}`));
        resolve();
      }),
    );
  }

  /** Runs the statements, in one transaction when `transaction` is set; throws SQLite's error. */
  async run(queries: readonly CompiledQuery[], transaction: boolean): Promise<StatementResult[]> {
    if (this.exited) throw this.exited;
    const id = this.nextId++;
    const reply = await new Promise<Reply>((resolve, reject) => {
      if (this.waiting.size === 0) this.worker.ref();
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({
        id,
        transaction,
        queries: queries.map(({ sql, parameters }) => ({ sql, parameters })),
      });
    });
    if (reply.error) throw new SqliteWorkerError(reply.error.message, reply.error.code);
    return reply.results ?? [];
  }

  /** Closes the connection once the statements sent before have run, and waits for the worker. */
  async close(): Promise<void> {
    this.worker.ref();
    if (!this.exited) this.worker.postMessage('close');
    await this.closed;
  }

  /** A worker that ended fails what it had not answered, and every statement after. */
  private fail(error: Error): void {
    this.exited ??= error;
    for (const waiting of this.waiting.values()) waiting.reject(error);
    this.waiting.clear();
  }
}

function queryResult<R>(result: StatementResult): QueryResult<R> {
  if (result.rows) return { rows: result.rows as R[] };
  return {
    numAffectedRows: BigInt(result.changes ?? 0),
    insertId: result.lastInsertRowid === undefined ? undefined : BigInt(result.lastInsertRowid),
    rows: [],
  };
}

class SqliteWorkerConnection implements DatabaseConnection {
  constructor(private readonly thread: SqliteThread) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const [result] = await this.thread.run([query], false);
    if (!result) throw new Error('SQLite worker answered no result');
    return queryResult<R>(result);
  }

  async *streamQuery<R>(
    query: CompiledQuery,
    chunkSize = 100,
  ): AsyncIterableIterator<QueryResult<R>> {
    const { rows } = await this.executeQuery<R>(query);
    for (let i = 0; i < rows.length; i += chunkSize) yield { rows: rows.slice(i, i + chunkSize) };
  }
}

/** One connection, one user at a time: the next waits until the last one released it. */
export class SqliteWorkerDriver implements Driver {
  private thread: SqliteThread | undefined;
  private connection: SqliteWorkerConnection | undefined;
  private held: Promise<void> = Promise.resolve();
  private release: (() => void) | undefined;

  constructor(private readonly file: string) {}

  async init(): Promise<void> {
    if (this.thread) return;
    this.thread = new SqliteThread(this.file);
    this.connection = new SqliteWorkerConnection(this.thread);
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    // `transaction` may come first, before Kysely's own first use inits the driver.
    await this.init();
    const previous = this.held;
    let release!: () => void;
    this.held = new Promise((resolve) => (release = resolve));
    await previous;
    this.release = release;
    if (!this.connection) throw new Error('SQLite driver used before init');
    return this.connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  /**
   * The statements in one transaction, sent to the worker together: a Kysely transaction holds
   * the connection from BEGIN to COMMIT, a round trip per statement, and each reply waits for its
   * turn on a busy event loop while every other statement waits for the connection. Here the
   * connection is held only while the worker runs them. Each statement's time goes to `log`.
   */
  async transaction(
    queries: readonly CompiledQuery[],
    log: StatementLog,
  ): Promise<QueryResult<unknown>[]> {
    await this.acquireConnection();
    try {
      if (!this.thread) throw new Error('SQLite driver used before init');
      const results = await this.thread.run(queries, true);
      return results.map((result, i) => {
        const query = queries[i];
        if (query) log(query, result.ms);
        return queryResult(result);
      });
    } finally {
      await this.releaseConnection();
    }
  }

  async releaseConnection(): Promise<void> {
    const release = this.release;
    this.release = undefined;
    release?.();
  }

  async destroy(): Promise<void> {
    await this.thread?.close();
  }
}

/** Kysely's SQLite dialect, with statements run on a worker thread (see above). */
export class SqliteWorkerDialect implements Dialect {
  /** The driver Kysely made of this dialect (it makes one, when the Kysely instance is made). */
  driver: SqliteWorkerDriver | undefined;

  constructor(private readonly file: string) {}

  createDriver(): Driver {
    this.driver = new SqliteWorkerDriver(this.file);
    return this.driver;
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}
