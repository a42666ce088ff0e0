import { notFound } from '../http/app-error.js';
import type { MessageKey } from '../http/messages.js';

/**
 * Object access, decided one way everywhere. A service reads the object as the request may see
 * it — through the company-scoped handle, and through the caller's data rules where its kind has
 * them — and hands the result here. A missing object, one of another company and one the rules
 * hide all get the same answer, 404 with the kind's message, so that a request learns nothing
 * about what it may not see.
 */
export async function requireAccess<T>(
  visible: Promise<T | undefined> | T | undefined,
  missing: MessageKey = 'notFound',
): Promise<T> {
  const object = await visible;
  if (object === undefined) throw notFound(missing);
  return object;
}

/**
 * All or nothing: `visible` reads which of the (deduplicated) ids the request may see, and one id
 * it may not see refuses the whole batch with 404.
 */
export async function requireAccessToAll<T>(
  ids: readonly string[],
  visible: (ids: string[]) => Promise<T[]>,
  missing: MessageKey = 'notFound',
): Promise<T[]> {
  const unique = [...new Set(ids)];
  const seen = await visible(unique);
  if (seen.length < unique.length) throw notFound(missing);
  return seen;
}
