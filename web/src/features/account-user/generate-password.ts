const GROUPS = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnpqrstuvwxyz', '23456789', '!@#$%^&*-_'];
const LENGTH = 14;

function pick(alphabet: string): string {
  const [n = 0] = crypto.getRandomValues(new Uint32Array(1));
  return alphabet[n % alphabet.length] ?? '';
}

/** A random password with every character group, for an administrator to hand to a user. */
export function generatePassword(): string {
  const all = GROUPS.join('');
  const chars = [
    ...GROUPS.map(pick),
    ...Array.from({ length: LENGTH - GROUPS.length }, () => pick(all)),
  ];
  for (let i = chars.length - 1; i > 0; i -= 1) {
    const [n = 0] = crypto.getRandomValues(new Uint32Array(1));
    const j = n % (i + 1);
    [chars[i], chars[j]] = [chars[j] ?? '', chars[i] ?? ''];
  }
  return chars.join('');
}
