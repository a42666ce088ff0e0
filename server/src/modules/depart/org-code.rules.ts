/**
 * Org codes are hierarchical: a department's code is its parent's code plus a three-character
 * segment (A01 … A99, B01 … Z99), so A01A02 is the second child of A01.
 */
const SEGMENT = /^([A-Z])(\d{2})$/;
const PER_LETTER = 99;
const MAX_SEGMENTS = 26 * PER_LETTER;

function segmentIndex(segment: string): number | null {
  const match = SEGMENT.exec(segment);
  if (!match?.[1] || !match[2]) return null;
  const number = Number(match[2]);
  if (number < 1) return null;
  return (match[1].charCodeAt(0) - 65) * PER_LETTER + (number - 1);
}

function segmentOf(index: number): string {
  const letter = String.fromCharCode(65 + Math.floor(index / PER_LETTER));
  return `${letter}${String((index % PER_LETTER) + 1).padStart(2, '0')}`;
}

/** The code after the highest sibling; null when the level is full. */
export function nextOrgCode(parentCode: string, siblingCodes: readonly string[]): string | null {
  let highest = -1;
  for (const code of siblingCodes) {
    if (!code.startsWith(parentCode) || code.length !== parentCode.length + 3) continue;
    const index = segmentIndex(code.slice(parentCode.length));
    if (index !== null && index > highest) highest = index;
  }
  const next = highest + 1;
  return next < MAX_SEGMENTS ? `${parentCode}${segmentOf(next)}` : null;
}
