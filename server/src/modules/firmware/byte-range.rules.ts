/** Inclusive byte positions, as Content-Range writes them. */
export interface ByteRange {
  start: number;
  end: number;
}

const SPEC = /^bytes=(\d*)-(\d*)$/;

/**
 * The part of a `size`-byte file a `Range` header asks for (RFC 9110 §14): `bytes=a-b`, `bytes=a-`
 * or `bytes=-n`. `null` means "send the whole file": no header, a malformed one, or several ranges
 * (which a server may ignore; devices resume with one). `'unsatisfiable'` is a 416: a range that
 * starts at or beyond the end.
 */
export function parseRange(
  header: string | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | null {
  if (header === undefined) return null;
  const match = SPEC.exec(header.trim());
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? Infinity : Number(last);
  if (end < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}
