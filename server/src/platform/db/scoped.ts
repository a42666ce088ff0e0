import {
  sql,
  type DeleteQueryBuilder,
  type DeleteResult,
  type SelectQueryBuilder,
  type UpdateQueryBuilder,
  type UpdateResult,
} from 'kysely';
import type { Db } from './database.js';
import type { Database, TenantTable } from './schema.js';

/**
 * Entry points for queries on company-owned tables. Repositories start from here instead of
 * `db.selectFrom` so that the company filter cannot be forgotten.
 *
 * Kysely cannot resolve its builder types for a generic table name, hence the casts: they only
 * restate what `db.selectFrom(table)` returns for any one concrete table.
 */
export function scoped(db: Db, companyId: string) {
  const sameCompany = (table: TenantTable) =>
    sql<boolean>`${sql.ref(`${table}.company_id`)} = ${companyId}`;
  return {
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
  };
}
