import type { Db } from './database.js';

/**
 * Runs `work` in the caller's transaction when `db` already is one, else in a new one. Lets the
 * owner of a table write it inside another module's transaction (a company is created with its
 * first administrator, all or nothing) without a second writer of the table.
 */
export function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
