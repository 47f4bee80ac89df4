import { isIPv4, isIPv6 } from 'node:net';

/**
 * Keeps only the network part of an address before it is stored: the last octet of an
 * IPv4 address and all but the first 48 bits of an IPv6 one are zeroed. Enough to prove
 * a consent came from a plausible network, not enough to single out a device.
 */
export function truncateIp(ip: string | undefined | null): string | null {
  if (!ip) return null;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const address = mapped ? mapped[1]! : ip;
  if (isIPv4(address)) return address.replace(/\.\d+$/, '.0');
  if (isIPv6(address)) {
    return `${ipv6Groups(address).slice(0, 3).join(':')}::`;
  }
  return null;
}

/** User agents are stored for consent proof, cut to a sane length. */
export function clampUserAgent(userAgent: string | undefined): string | null {
  return userAgent ? userAgent.slice(0, 512) : null;
}

/**
 * The key a client's rate limits are counted under. An IPv4 address is one key; an IPv6
 * client is keyed on its /64, because a single subscriber (and any cloud VM) is given a
 * whole /64 and can pick a new address from it for every request.
 */
export function clientKey(ip: string | undefined): string {
  if (!ip) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (isIPv4(ip)) return ip;
  if (isIPv6(ip)) return `${ipv6Groups(ip).slice(0, 4).join(':')}::/64`;
  return 'unknown';
}

/** The networks above a client key that every per-client limit counts too (decision 053). */
export type NetworkKind = 'ipv6-48' | 'ipv4-24';

/**
 * The network a client belongs to, counted beside its client key: an IPv6 /48 (one site: a
 * household, an office or a tunnel broker's allocation holds 65,536 /64s) and an IPv4 /24
 * (256 addresses, each possibly a carrier's NAT for many phones). Null without an address.
 */
export function clientNetwork(ip: string | undefined): { kind: NetworkKind; key: string } | null {
  if (!ip) return null;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const address = mapped ? mapped[1]! : ip;
  if (isIPv4(address)) return { kind: 'ipv4-24', key: `${address.replace(/\.\d+$/, '.0')}/24` };
  if (isIPv6(address)) return { kind: 'ipv6-48', key: `${ipv6Groups(address).slice(0, 3).join(':')}::/48` };
  return null;
}

/** The eight groups of an IPv6 address, each without leading zeros. */
export function ipv6Groups(address: string): string[] {
  const [head = '', tail] = address.split('%')[0]!.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  return [...headGroups, ...Array<string>(Math.max(missing, 0)).fill('0'), ...tailGroups].map(
    (group) => group.toLowerCase().replace(/^0+(?=.)/, ''),
  );
}
