import { sql, type SelectQueryBuilder, type Simplify } from 'kysely';

export interface PageRequest {
  pageNo: number;
  pageSize: number;
}

/**
 * One page of the rows `base` selects, and how many there are in all. `rows` picks the columns
 * and the order (with a unique tie-breaker, so pages neither repeat nor skip rows).
 */
export async function selectPage<DB, TB extends keyof DB, R>(
  base: SelectQueryBuilder<DB, TB, object>,
  request: PageRequest,
  rows: (query: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, R>,
): Promise<{ records: Simplify<R>[]; total: number }> {
  const counted = await base.select(sql<number | string>`count(*)`.as('total')).executeTakeFirst();
  const records = await rows(base)
    .limit(request.pageSize)
    .offset((request.pageNo - 1) * request.pageSize)
    .execute();
  return {
    records,
    total: Number((counted as { total?: number | string } | undefined)?.total ?? 0),
  };
}
