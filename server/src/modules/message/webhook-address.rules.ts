import net from 'node:net';

/*
 * Where a webhook may go. Unless the platform setting allows private networks, a delivery refuses
 * loopback, private, shared (CGNAT), link-local (cloud metadata at 169.254.169.254), multicast and
 * reserved addresses, whatever name resolves to them, so an endpoint URL cannot be used to probe
 * the server's own network (SSRF). The address is checked where the connection is made, after DNS,
 * so a name that resolves differently later (DNS rebinding) is caught too.
 */
const blocked = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address is outside the public internet (IPv4-mapped IPv6 judged as IPv4). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1]!, 'ipv4');
  const family = net.isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Why a URL is refused as an endpoint, or null. Without the private-network setting it must be
 * https and must not name a private address literally (names are checked at delivery).
 */
export function refusedUrl(
  url: string,
  allowPrivate: boolean,
): 'scheme' | 'private' | 'credentials' | null {
  const parsed = new URL(url);
  if (parsed.username || parsed.password) return 'credentials';
  if (allowPrivate) return null;
  if (parsed.protocol !== 'https:') return 'scheme';
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'private';
  if (net.isIP(host) !== 0 && isPrivateAddress(host)) return 'private';
  return null;
}
