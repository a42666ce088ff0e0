import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/**
 * SQLite's own checkpoints run inside the commit that fills the WAL past 1000 pages: they copy the
 * WAL back into the database file and fsync both, on the thread that committed. For the server that
 * is the event loop; in a connect storm, two thirds of a presence batch's commit time was its share
 * of those checkpoints (bench/README.md, "The database's share of a connect storm cut").
 *
 * Here the main connection's automatic checkpoints are off, and a worker thread with a connection
 * of its own runs PASSIVE checkpoints instead, at the same WAL size: they never take the write
 * lock, so the event loop's writers go on meanwhile. The worker starts only once the WAL file has
 * grown past what SQLite would have checkpointed (a database that is barely written, as in most
 * tests, never gets one). If the worker fails, the main connection checkpoints by itself again.
 */

/** SQLite's default `wal_autocheckpoint`, in pages: the WAL size a checkpoint is due at. */
const AUTOCHECKPOINT_PAGES = 1000;
/** How often the WAL's size is looked at before the worker runs. */
const WATCH_MS = 1000;
/**
 * How often the worker looks at the WAL (a read of its index); it checkpoints when as much as SQLite
 * would have checkpointed waits, not more often: a page written again and again between two
 * checkpoints is copied once, and each checkpoint ends with an fsync.
 */
export const CHECKPOINT_EVERY_MS = 250;

/**
 * How long closing waits for the worker to close its connection: its longest step is one
 * checkpoint, which is never more than a WAL's worth of pages.
 */
const CLOSE_WAIT_MS = 10_000;

/**
 * Runs in the worker (as a script: tests run the TypeScript sources, where a worker file would
 * need a loader). Opens the database, checkpoints on a timer and reports each result; closes on
 * the main thread's "close". Its errors end the worker, which the main thread sees. Once its
 * connection is closed, or it exits any other way, it sets the shared "closed" flag the main
 * thread's close waits on.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const closed = new Int32Array(workerData.closed);
const signalClosed = () => {
  Atomics.store(closed, 0, 1);
  Atomics.notify(closed, 0);
};
process.on('exit', signalClosed);
const SQLite = require(workerData.module);
const database = new SQLite(workerData.file, { fileMustExist: true });
database.pragma('busy_timeout = 5000');
const checkpoint = () => {
  const [waiting] = database.pragma('wal_checkpoint(NOOP)');
  if (waiting.log - waiting.checkpointed < workerData.pages) return;
  const [result] = database.pragma('wal_checkpoint(PASSIVE)');
  parentPort.postMessage(result);
};
checkpoint();
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.on('message', (message) => {
  if (message !== 'close') return;
  clearInterval(timer);
  database.close();
  signalClosed();
  parentPort.close();
});
`;

/** One checkpoint's result, as `pragma wal_checkpoint` gives it. */
export interface CheckpointResult {
  /** 1 when a lock held by another connection stopped it early. */
  busy: number;
  /** Frames in the WAL. */
  log: number;
  /** Frames of them copied into the database file. */
  checkpointed: number;
}

export interface WalCheckpointerEvents {
  checkpointed?: (result: CheckpointResult) => void;
  /** The worker failed; the main connection checkpoints by itself from now on. */
  failed?: (error: Error) => void;
}

export class WalCheckpointer {
  private worker: Worker | undefined;
  private readonly watch: NodeJS.Timeout;
  private closed = false;
  /** Set to 1 by the worker once its connection is closed (see WORKER_SOURCE). */
  private readonly workerClosed = new Int32Array(new SharedArrayBuffer(4));
  /** The WAL size at which SQLite would have checkpointed. */
  private readonly dueBytes: number;

  constructor(
    private readonly database: SQLite.Database,
    private readonly file: string,
    private readonly events: WalCheckpointerEvents = {},
  ) {
    database.pragma('wal_autocheckpoint = 0');
    this.dueBytes =
      AUTOCHECKPOINT_PAGES * (database.pragma('page_size', { simple: true }) as number);
    this.watch = setInterval(() => this.startWhenDue(), WATCH_MS);
    this.watch.unref();
  }

  /** Whether the worker runs (it starts when the WAL first grows past a checkpoint's worth). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /**
   * Stops the worker and waits, blocking, until its connection is closed. Kysely closes the
   * database synchronously, and whoever closes it may remove the file right after (tests remove
   * their directory): a worker still opening or checkpointing would write the WAL files back.
   * Closing the worker first also makes the main connection the last one, which checkpoints what
   * is left and removes the WAL as SQLite does on its own.
   */
  close(): void {
    this.closed = true;
    clearInterval(this.watch);
    if (!this.worker) return;
    this.worker.postMessage('close');
    Atomics.wait(this.workerClosed, 0, 0, CLOSE_WAIT_MS);
  }

  private startWhenDue(): void {
    if (walBytes(this.file) < this.dueBytes) return;
    clearInterval(this.watch);
    this.start();
  }

  private start(): void {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        module: createRequire(import.meta.url).resolve('better-sqlite3'),
        file: this.file,
        everyMs: CHECKPOINT_EVERY_MS,
        pages: AUTOCHECKPOINT_PAGES,
        closed: this.workerClosed.buffer,
      },
    });
    // The server's shutdown closes the database, which closes the worker: it never keeps the
    // process alive by itself.
    worker.unref();
    worker.on('message', (result: CheckpointResult) => this.events.checkpointed?.(result));
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => {
      if (!this.closed) this.fail(new Error(`WAL checkpointer exited with code ${code}`));
    });
    this.worker = worker;
  }

  private fail(error: Error): void {
    if (this.closed) return;
    this.closed = true;
    this.worker = undefined;
    if (this.database.open) this.database.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    this.events.failed?.(error);
  }
}

function walBytes(file: string): number {
  try {
    return fs.statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
}
