const UNITS = ['B', 'KB', 'MB', 'GB'] as const;

export const MEGABYTE = 1024 * 1024;

/** A file size in binary units with at most one decimal: `512 B`, `1.5 MB`, `256 MB`. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = unit === 0 ? value : Math.round(value * 10) / 10;
  return `${rounded.toLocaleString('en-US')} ${UNITS[unit]}`;
}
