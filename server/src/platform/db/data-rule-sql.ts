import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { DataRuleCondition, DataRuleFilter } from '../auth/data-rules.js';

/** API field → SQL expression, declared by the repository that owns the table. */
export type DataRuleColumns<F extends string> = Record<F, Expression<unknown>>;

const NOTHING = sql<SqlBool>`1 = 0`;

/** `like` patterns match the value literally: % and _ in a rule value are not wildcards. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function condition(
  c: DataRuleCondition,
  columns: Record<string, Expression<unknown>>,
): RawBuilder<SqlBool> {
  const column = columns[c.field];
  if (!column || c.value === null) return NOTHING;
  const v = c.value;
  switch (c.operator) {
    case 'EQ':
      return sql<SqlBool>`${column} = ${v}`;
    case 'NE':
      return sql<SqlBool>`${column} <> ${v}`;
    case 'GT':
      return sql<SqlBool>`${column} > ${v}`;
    case 'GE':
      return sql<SqlBool>`${column} >= ${v}`;
    case 'LT':
      return sql<SqlBool>`${column} < ${v}`;
    case 'LE':
      return sql<SqlBool>`${column} <= ${v}`;
    case 'IN': {
      const values = v
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean);
      return values.length === 0
        ? NOTHING
        : sql<SqlBool>`${column} in (${sql.join(values.map((x) => sql`${x}`))})`;
    }
    case 'LIKE':
      return sql<SqlBool>`${column} like ${`%${escapeLike(v)}%`} escape '\\'`;
    case 'LEFT_LIKE':
      return sql<SqlBool>`${column} like ${`%${escapeLike(v)}`} escape '\\'`;
    case 'RIGHT_LIKE':
      return sql<SqlBool>`${column} like ${`${escapeLike(v)}%`} escape '\\'`;
  }
}

/**
 * The WHERE condition of a data-rule filter over a whitelisted column map, or undefined when the
 * caller is unrestricted. Values are always bound parameters; columns come only from the map.
 */
export function dataRuleWhere(
  filter: DataRuleFilter,
  columns: Record<string, Expression<unknown>>,
): RawBuilder<SqlBool> | undefined {
  if (filter.kind === 'all') return undefined;
  if (filter.alternatives.length === 0) return NOTHING;
  const alternatives = filter.alternatives.map(
    (conditions) =>
      sql<SqlBool>`(${sql.join(
        conditions.map((c) => condition(c, columns)),
        sql` and `,
      )})`,
  );
  return sql<SqlBool>`(${sql.join(alternatives, sql` or `)})`;
}
