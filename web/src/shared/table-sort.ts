import type { SorterResult } from 'antd/es/table/interface';

export type SortOrder = 'asc' | 'desc';

/**
 * The server-side sort a table's sorter asks for: its column when the endpoint allows sorting by
 * it (the whitelist from the contract), else `fallback`; ascending only when the user said so.
 */
export function sortOf<Column extends string, Row>(
  sorter: SorterResult<Row> | SorterResult<Row>[],
  whitelist: readonly Column[],
  fallback: Column,
): { column: Column; order: SortOrder } {
  const one = Array.isArray(sorter) ? sorter[0] : sorter;
  const key = one?.order ? one.columnKey : undefined;
  const column = whitelist.find((c) => c === key) ?? fallback;
  return { column, order: one?.order === 'ascend' ? 'asc' : 'desc' };
}
