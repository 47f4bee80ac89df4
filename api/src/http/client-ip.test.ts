import { describe, expect, it } from 'vitest';
import { clientKey, truncateIp } from './client-ip';

describe('clientKey', () => {
  it('keys IPv4 clients, plain or mapped, on their address', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('puts every address of one IPv6 /64 in one bucket', () => {
    const a = clientKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd');
    expect(a).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0db8:0001:0002::1')).toBe(a);
    expect(clientKey('2001:db8:1:2:ffff::')).toBe(a);
    expect(clientKey('2001:db8:1:3::1')).not.toBe(a);
  });

  it('has one key for requests without an address', () => {
    expect(clientKey(undefined)).toBe('unknown');
  });
});

describe('truncateIp', () => {
  it('keeps the network part only', () => {
    expect(truncateIp('203.0.113.7')).toBe('203.0.113.0');
    expect(truncateIp('2001:0db8:0001:0002::1')).toBe('2001:db8:1::');
  });
});
