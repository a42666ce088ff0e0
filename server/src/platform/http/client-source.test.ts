import { describe, expect, it } from 'vitest';
import { clientSource } from './client-source.js';

describe('clientSource', () => {
  it('keeps an IPv4 address, also when it arrives IPv4-mapped', () => {
    expect(clientSource('203.0.113.7')).toBe('203.0.113.7');
    expect(clientSource('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts an IPv6 address under its /64, however it is written', () => {
    const net = '2001:db8:12:34::/64';
    expect(clientSource('2001:db8:12:34:a:b:c:d')).toBe(net);
    expect(clientSource('2001:0db8:0012:0034:ffff::1')).toBe(net);
    expect(clientSource('2001:db8:12:34::')).toBe(net);
    expect(clientSource('2001:DB8:12:34::9%eth0')).toBe(net);
    expect(clientSource('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientSource('::1')).toBe('0:0:0:0::/64');
    expect(clientSource('2001:db8:12:35::1')).not.toBe(net);
  });

  it('leaves anything else as it is', () => {
    expect(clientSource('unknown')).toBe('unknown');
  });
});
