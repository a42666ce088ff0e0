import dayjs from 'dayjs';

export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** Spec section 9: dates as YYYY-MM-DD HH:mm:ss, in the browser's time zone. */
export function formatDateTime(value: string | null | undefined): string {
  return value ? dayjs(value).format(DATE_TIME_FORMAT) : '';
}

/** Spec section 9: numbers with a comma thousands separator, whatever the language. */
export function formatNumber(value: number): string {
  return value.toLocaleString('en-US');
}

/** The pager's "1-10 / 1,234" line. */
export function formatPageRange(total: number, [from, to]: [number, number]): string {
  return `${formatNumber(from)}-${formatNumber(to)} / ${formatNumber(total)}`;
}
