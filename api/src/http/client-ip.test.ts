import { describe, expect, it } from 'vitest';
import { clientKey, clientNetwork, truncateIp } from './client-ip';

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

describe('clientNetwork', () => {
  it('puts the 65,536 /64s of one IPv6 /48 in one network', () => {
    const network = clientNetwork('2001:db8:1:2:aaaa:bbbb:cccc:dddd');
    expect(network).toEqual({ kind: 'ipv6-48', key: '2001:db8:1::/48' });
    expect(clientNetwork('2001:0db8:0001:ffff::1')).toEqual(network);
    expect(clientNetwork('2001:db8:1::')).toEqual(network);
    expect(clientNetwork('2001:db8:2:2::1')).not.toEqual(network);
  });

  it('puts the addresses of one IPv4 /24, plain or mapped, in one network', () => {
    expect(clientNetwork('203.0.113.7')).toEqual({ kind: 'ipv4-24', key: '203.0.113.0/24' });
    expect(clientNetwork('::ffff:203.0.113.250')).toEqual({ kind: 'ipv4-24', key: '203.0.113.0/24' });
    expect(clientNetwork('203.0.114.7')?.key).toBe('203.0.114.0/24');
  });

  it('has none without an address', () => {
    expect(clientNetwork(undefined)).toBeNull();
    expect(clientNetwork('garbage')).toBeNull();
  });
});

describe('truncateIp', () => {
  it('keeps the network part only', () => {
    expect(truncateIp('203.0.113.7')).toBe('203.0.113.0');
    expect(truncateIp('2001:0db8:0001:0002::1')).toBe('2001:db8:1::');
  });
});
