import { createHash, randomUUID } from 'node:crypto';

/** A new record id: a random UUID without dashes (32 hex characters). */
export function newId(): string {
  return randomUUID().replaceAll('-', '');
}

/** Seeded rows get stable ids so that re-running the seed finds them instead of duplicating them. */
export function stableId(kind: string, key: string): string {
  return createHash('sha256').update(`${kind}:${key}`).digest('hex').slice(0, 32);
}
