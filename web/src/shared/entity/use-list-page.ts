import type { ProColumns } from '@ant-design/pro-components';
import type { TPage } from '@blrms/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import type { TablePaginationConfig } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { z } from 'zod';
import { formatPageRange } from '../format';
import { sortOf, type SortOrder } from '../table-sort';

export type ListSort<Column extends string> = {
  columns: readonly Column[];
  fallback: Column;
  cleared?: 'fallback' | 'column';
};

/** The sort a table's sorter asks for under a list page's `sort` option. */
export function listSortOf<Column extends string, Row>(
  sorter: SorterResult<Row> | SorterResult<Row>[],
  sort: ListSort<Column>,
): { column: Column; order: SortOrder } {
  const one = Array.isArray(sorter) ? sorter[0] : sorter;
  // A cleared sorter still names the column it was on, without an order.
  const cleared = one !== undefined && !one.order;
  return sortOf(
    cleared && sort.cleared === 'column' ? { ...one, order: 'descend' } : sorter,
    sort.columns,
    sort.fallback,
  );
}

/** What every list endpoint's query has: the page, and optionally a sort (ZPageQuery). */
export type ListParams = { pageNo: number; pageSize: number; column?: string; order?: SortOrder };

export type ListPageOptions<Params extends ListParams, Search> = {
  /** The first load, and what a reset of the search form goes back to. */
  defaults: Params;
  /**
   * The params a submitted search form asks for; the list goes back to its first page. None
   * for a list without filters.
   */
  filters?: (values: Partial<Search>) => Partial<Params>;
  /**
   * Server-side sorting by the columns the endpoint allows (the contract's whitelist). When the
   * user clears the sort, `cleared` says what the list asks for: `fallback` descending (the
   * default), or `column`: the column just cleared, descending.
   */
  sort?: ListSort<NonNullable<Params['column']>>;
  /**
   * What the search form's reset button does: `defaults` restores every param (page size and
   * sort too), `filters` submits an empty search (page size and sort stay). Default `filters`.
   */
  reset?: 'defaults' | 'filters';
  /**
   * Keeps page, size, sort and filters in the URL's search params, read back through the
   * endpoint's query schema, so that a reload or coming back to the page shows the same list.
   */
  url?: z.ZodType<Params>;
};

const IGNORED_URL_PARAMS = ['_t'];

function paramsFromUrl<Params extends ListParams>(
  schema: z.ZodType<Params>,
  search: URLSearchParams,
  defaults: Params,
): Params {
  const fromUrl = Object.fromEntries(
    [...search.entries()].filter(([key]) => !IGNORED_URL_PARAMS.includes(key)),
  );
  const parsed = schema.safeParse({ ...defaults, ...fromUrl });
  return parsed.success ? parsed.data : defaults;
}

function urlOf<Params extends ListParams>(params: Params, defaults: Params): URLSearchParams {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    if (value === defaults[key as keyof Params]) continue;
    search.set(key, String(value));
  }
  return search;
}

/**
 * The state of a list page on a ProTable: the endpoint's query params (page, size, sort, the
 * search form's filters), kept in React state or, with `url`, in the URL. The page runs its own
 * query hook with `params` (TanStack Query, so mutations refresh it by invalidating its key) and
 * spreads `tableProps(query)` on its ProTable.
 */
export function useListPage<Params extends ListParams, Search = Record<string, unknown>>(
  options: ListPageOptions<Params, Search>,
) {
  const { defaults, filters = () => ({}), sort, reset = 'filters', url } = options;
  const [searchParams, setSearchParams] = useSearchParams();
  const [params, setParams] = useState<Params>(() =>
    url ? paramsFromUrl(url, searchParams, defaults) : defaults,
  );

  useEffect(() => {
    // Replaces the history entry: the list's state is kept, not each page turn.
    if (url) setSearchParams(urlOf(params, defaults), { replace: true });
  }, [params]); // eslint-disable-line react-hooks/exhaustive-deps -- written when the params change

  const search = (values: Partial<Search>) =>
    setParams((p) => ({ ...p, ...filters(values), pageNo: 1 }));

  const onReset = () => (reset === 'defaults' ? setParams(() => defaults) : search({}));

  const onSort = <Row>(sorter: SorterResult<Row> | SorterResult<Row>[]) => {
    if (!sort) return;
    const next = listSortOf(sorter, sort);
    setParams((p) =>
      p.column === next.column && p.order === next.order ? p : { ...p, ...next, pageNo: 1 },
    );
  };

  const pagination = (total: number): TablePaginationConfig => ({
    current: params.pageNo,
    pageSize: params.pageSize,
    total,
    showSizeChanger: true,
    showTotal: formatPageRange,
    onChange: (pageNo, pageSize) => setParams((p) => ({ ...p, pageNo, pageSize })),
  });

  /**
   * The columns with the sort arrow where a restored URL put the sort (antd reads
   * `defaultSortOrder` once, when the table mounts).
   */
  const withSortOrder = <Row>(columns: ProColumns<Row>[]): ProColumns<Row>[] => {
    const restored = params.column !== defaults.column || params.order !== defaults.order;
    if (!url || !sort || !restored) return columns;
    return columns.map((column) =>
      column.key === undefined
        ? column
        : {
            ...column,
            defaultSortOrder:
              column.key === params.column
                ? params.order === 'asc'
                  ? 'ascend'
                  : 'descend'
                : undefined,
          },
    );
  };

  /** The ProTable props of the list: data, loading, pager, sort, search form and reload. */
  const tableProps = <Row>(query: UseQueryResult<Pick<TPage<Row>, 'records' | 'total'>>) => ({
    dataSource: query.data?.records ?? [],
    loading: query.isFetching,
    onSubmit: search,
    onReset,
    options: { reload: () => void query.refetch(), density: true, setting: true },
    pagination: pagination(query.data?.total ?? 0),
    onChange: (_: unknown, __: unknown, sorter: SorterResult<Row> | SorterResult<Row>[]) =>
      onSort(sorter),
    form: url ? { initialValues: params } : undefined,
  });

  return { params, setParams, search, tableProps, withSortOrder };
}
