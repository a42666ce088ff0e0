import type { TFunction } from 'i18next';

const UNITS = [
  { key: 'days', ms: 86_400_000 },
  { key: 'hours', ms: 3_600_000 },
  { key: 'minutes', ms: 60_000 },
  { key: 'seconds', ms: 1000 },
] as const;

/**
 * A duration in its two largest units ("2 d 3 h", "12 min 5 s", "3 h"): precise enough to compare
 * connections, short enough for a table cell. Under a second reads as 0 s.
 */
export function formatDuration(t: TFunction, ms: number): string {
  const counts = UNITS.map((unit, i) => {
    const larger = UNITS[i - 1];
    const within = larger ? ms % larger.ms : ms;
    return { key: unit.key, count: Math.floor(Math.max(0, within) / unit.ms) };
  });
  const first = counts.findIndex((c) => c.count > 0);
  if (first === -1) return t('device.connections.units.seconds', { n: 0 });
  return counts
    .slice(first, first + 2)
    .filter((c, i) => i === 0 || c.count > 0)
    .map((c) => t(`device.connections.units.${c.key}`, { n: c.count }))
    .join(' ');
}
