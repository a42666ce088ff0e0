/** A sha256 short enough for a table cell: its first and last 8 hex digits. */
export function shortHash(hash: string): string {
  return hash.length > 20 ? `${hash.slice(0, 8)}…${hash.slice(-8)}` : hash;
}
