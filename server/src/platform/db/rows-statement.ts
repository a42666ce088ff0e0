import { CompiledQuery, sql, type RawBuilder } from 'kysely';
import type { Db } from './database.js';

export type ColumnType = 'varchar' | 'bigint';
/** A column of a table of rows: its name (`v_` + name in the statement) and its type. */
export type Column = [name: string, type: ColumnType];

/** How a statement names its n-th parameter (from 1): `?` on SQLite, `$n` on PostgreSQL. */
export type Placeholder = (n: number) => string;
export const questionMark: Placeholder = () => '?';
export const numbered: Placeholder = (n) => `$${n}`;

const placeholders = new WeakMap<Db, Placeholder>();

/** The dialect's parameter syntax, as its own compiler writes the first one (once per handle). */
export function placeholderOf(db: Db): Placeholder {
  let placeholder = placeholders.get(db);
  if (!placeholder) {
    placeholder = sql`${0}`.compile(db).sql.startsWith('$') ? numbered : questionMark;
    placeholders.set(db, placeholder);
  }
  return placeholder;
}

/**
 * `column in (ids)` with a text that is the same for any number of ids: one JSON array read by
 * `json_each` on SQLite, one array parameter on PostgreSQL. Kysely's `in` writes a placeholder
 * per id, so every batch size was a statement of its own to compile and for SQLite to prepare.
 */
export function inIds(db: Db, column: string, ids: readonly string[]): RawBuilder<boolean> {
  if (placeholderOf(db) === numbered) return sql<boolean>`${sql.ref(column)} = any(${ids})`;
  return sql<boolean>`${sql.ref(column)} in (select value from json_each(${JSON.stringify(ids)}))`;
}

/**
 * A statement of many rows of typed parameters, its text written directly: Kysely's builder and
 * compiler cost more per batch of a storm than running it (a template node per value, each
 * visited and frozen).
 */
export class RowsStatement {
  readonly parameters: unknown[] = [];

  constructor(private readonly placeholder: Placeholder) {}

  /**
   * `v (v_a, v_b) as (...)`: the rows as a table named `v`, columns `v_` + name, of these types.
   * The text is the same for any number of rows. PostgreSQL gets one typed array parameter per
   * column, which `unnest` turns back into rows: as a VALUES list with a placeholder per cell, a
   * batch of 500 presence changes was thousands of expressions to parse and analyse, about a fifth
   * of PostgreSQL's time in a connect storm. SQLite gets the rows as one JSON parameter that
   * `json_each` reads, so the statement stays prepared: as a VALUES list every batch had a text of
   * its own, and preparing a 40-row presence update cost SQLite as much as running it.
   * `materialized`: SQLite cannot tell how many rows `json_each` gives, and a plan that joins them
   * inside a loop over another table then reads them from a table, not by parsing the JSON again
   * each time round.
   */
  table(v: string, columns: Column[], rows: unknown[][]): string {
    const names = columns.map(([name]) => `v_${name}`).join(', ');
    if (this.placeholder === questionMark) {
      this.parameters.push(JSON.stringify(rows));
      const cells = columns.map(([, type], i) => `cast(value ->> ${i} as ${type})`);
      return `${v} (${names}) as materialized (select ${cells.join(', ')} from json_each(?))`;
    }
    const arrays = columns.map(([, type], i) => {
      this.parameters.push(rows.map((row) => row[i] ?? null));
      return `cast(${this.placeholder(this.parameters.length)} as ${type}[])`;
    });
    return `${v} (${names}) as (select * from unnest(${arrays.join(', ')}))`;
  }

  compile(text: string): CompiledQuery {
    return CompiledQuery.raw(text, this.parameters);
  }
}

/**
 * Inserts rows into `table`, each setting these columns (the others keep their defaults), as one
 * statement over a table of rows: the same text whatever their number, where Kysely's multi-row
 * insert builds, compiles and binds a parameter per cell.
 */
export function insertRows<Row>(
  placeholder: Placeholder,
  table: string,
  columns: [name: keyof Row & string, type: ColumnType][],
  rows: Row[],
): CompiledQuery {
  const statement = new RowsStatement(placeholder);
  const values = statement.table(
    'v',
    columns,
    rows.map((row) => columns.map(([name]) => row[name])),
  );
  const names = columns.map(([name]) => name);
  return statement.compile(`with ${values}
    insert into ${table} (${names.join(', ')})
    select ${names.map((name) => `v_${name}`).join(', ')} from v`);
}
