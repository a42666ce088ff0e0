import { TILE_URL_PATTERN, type TSiteHealth } from '@blrms/contracts';

/** A site's colour on the map: an open alarm first, then how many of its devices are online. */
export function siteHealth(counts: { total: number; online: number; alarms: number }): TSiteHealth {
  if (counts.alarms > 0) return 'alarm';
  if (counts.total === 0) return 'empty';
  if (counts.online >= counts.total) return 'online';
  if (counts.online === 0) return 'offline';
  return 'partial';
}

/**
 * The source a content security policy must allow for the template's images: its scheme and host,
 * with a leading `{s}.` (subdomains a, b, c) as `*.`.
 */
export function tileSource(tileUrl: string): string | null {
  const match = TILE_URL_PATTERN.exec(tileUrl);
  if (!match) return null;
  const [, scheme, subdomains, host] = match;
  return `${scheme!.toLowerCase()}://${subdomains ? '*.' : ''}${host!.toLowerCase()}`;
}

/** The policy with `source` added to its img-src directive (unchanged when it has none). */
export function allowImages(policy: string, source: string): string {
  return policy.replace(/(^|;)(\s*img-src\s[^;]*)/, `$1$2 ${source}`);
}
