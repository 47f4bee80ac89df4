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
    const groups = expandIpv6(address).slice(0, 3);
    return `${groups.map((group) => group.replace(/^0+(?=.)/, '')).join(':')}::`;
  }
  return null;
}

function expandIpv6(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  return [...headGroups, ...Array<string>(Math.max(missing, 0)).fill('0'), ...tailGroups];
}

/** User agents are stored for consent proof, cut to a sane length. */
export function clampUserAgent(userAgent: string | undefined): string | null {
  return userAgent ? userAgent.slice(0, 512) : null;
}
