import {
  sql,
  type DeleteQueryBuilder,
  type DeleteResult,
  type InsertObject,
  type InsertQueryBuilder,
  type InsertResult,
  type SelectQueryBuilder,
  type UpdateQueryBuilder,
  type UpdateResult,
} from 'kysely';
import type { Db } from './database.js';
import type { Database, TenantTable } from './schema.js';

/** A new row of a company-owned table: the handle sets its `company_id`. */
export type CompanyRow<T extends TenantTable> = Omit<InsertObject<Database, T>, 'company_id'>;

/**
 * The company-scoped handle: entry points for queries on company-owned tables, each already
 * filtered to (or, for inserts, stamped with) one company. Repositories serving a request start
 * from here instead of `db.selectFrom` so that the company cannot be forgotten; the lint rule
 * `tenancy/scoped-queries` (eslint-rules/tenant-scoped.js) refuses the raw entry points on those tables elsewhere.
 */
export interface CompanyDb {
  readonly companyId: string;
  selectFrom<T extends TenantTable>(table: T): SelectQueryBuilder<Database, T, object>;
  updateTable<T extends TenantTable>(table: T): UpdateQueryBuilder<Database, T, T, UpdateResult>;
  deleteFrom<T extends TenantTable>(table: T): DeleteQueryBuilder<Database, T, DeleteResult>;
  insertInto<T extends TenantTable>(
    table: T,
    rows: CompanyRow<T> | readonly CompanyRow<T>[],
  ): InsertQueryBuilder<Database, T, InsertResult>;
}

/**
 * The handle for one company, on `db` or on a transaction of it.
 *
 * Kysely cannot resolve its builder types for a generic table name, hence the casts: they only
 * restate what `db.selectFrom(table)` returns for any one concrete table.
 */
export function scoped(db: Db, companyId: string): CompanyDb {
  const sameCompany = (table: TenantTable) =>
    sql<boolean>`${sql.ref(`${table}.company_id`)} = ${companyId}`;
  return {
    companyId,
    selectFrom<T extends TenantTable>(table: T) {
      const query = db.selectFrom(table) as unknown as SelectQueryBuilder<Database, T, object>;
      return query.where(sameCompany(table));
    },
    updateTable<T extends TenantTable>(table: T) {
      const query = db.updateTable(table) as unknown as UpdateQueryBuilder<
        Database,
        T,
        T,
        UpdateResult
      >;
      return query.where(sameCompany(table));
    },
    deleteFrom<T extends TenantTable>(table: T) {
      const query = db.deleteFrom(table) as unknown as DeleteQueryBuilder<
        Database,
        T,
        DeleteResult
      >;
      return query.where(sameCompany(table));
    },
    insertInto<T extends TenantTable>(table: T, rows: CompanyRow<T> | readonly CompanyRow<T>[]) {
      const list: readonly CompanyRow<T>[] = Array.isArray(rows) ? rows : [rows as CompanyRow<T>];
      const stamped = list.map((row) => ({ ...row, company_id: companyId }));
      const query = db.insertInto(table) as unknown as InsertQueryBuilder<
        Database,
        T,
        InsertResult
      >;
      return query.values(stamped as unknown as readonly InsertObject<Database, T>[]);
    },
  };
}
