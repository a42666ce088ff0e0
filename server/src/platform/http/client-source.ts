import { isIPv4, isIPv6 } from 'node:net';

/**
 * The source a login lockout and the per-address rate limits count a client under: its IPv4
 * address, or the /64 network of an IPv6 one. A single IPv6 subscriber holds at least a /64 and
 * can take a fresh address from it for every request, so counting whole addresses would let them
 * escape the lock on their own failures (and the rate limits) at will.
 */
export function clientSource(ip: string): string {
  const address = ip.split('%')[0] ?? ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped !== undefined && isIPv4(mapped)) return mapped;
  if (!isIPv6(address)) return address;
  return `${hextets(address).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, `::` expanded and leading zeros dropped. */
function hextets(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const tailGroups = tail === undefined ? [] : groups(tail);
  // An embedded IPv4 tail (::1.2.3.4) counts as two groups; it never reaches the first four.
  const width = (list: string[]) => list.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const zeros = Array<string>(8 - width(groups(head)) - width(tailGroups)).fill('0');
  return [...groups(head), ...(tail === undefined ? [] : zeros), ...tailGroups].map((g) =>
    g.includes('.') ? g : (parseInt(g, 16) || 0).toString(16),
  );
}
