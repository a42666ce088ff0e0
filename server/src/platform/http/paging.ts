export interface Page<T> {
  records: T[];
  total: number;
  size: number;
  current: number;
  pages: number;
}

export function pageResult<T>(
  records: T[],
  total: number,
  query: { pageNo: number; pageSize: number },
): Page<T> {
  return {
    records,
    total,
    size: query.pageSize,
    current: query.pageNo,
    pages: Math.ceil(total / query.pageSize),
  };
}

export function iso(time: number): string {
  return new Date(time).toISOString();
}

export function isoOrNull(time: number | null): string | null {
  return time === null ? null : iso(time);
}
