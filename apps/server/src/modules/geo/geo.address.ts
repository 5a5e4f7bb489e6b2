import { BlockList, isIPv4, isIPv6 } from 'node:net';

export type IpFamily = 4 | 6;

/** An address worth looking up: public, valid, IPv4-mapped IPv6 already turned into IPv4. */
export interface PublicAddress {
  family: IpFamily;
  address: string;
}

/**
 * Ranges no visitor on the public internet comes from: a lookup there can only answer "unknown", so
 * it never opens a database. Private, loopback, link-local, CGNAT, unique-local, unspecified,
 * multicast, reserved and documentation ranges.
 */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", including the unspecified 0.0.0.0
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, including 255.255.255.255
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['100::', 64], // discard-only
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** The eight 16-bit groups of a valid IPv6 address (any spelling, with or without an IPv4 tail). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (isIPv4(tail)) {
    const [a = 0, b = 0, c = 0, d = 0] = tail.split('.').map(Number);
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const restGroups = rest === undefined || rest === '' ? [] : rest.split(':');
  const zeros: string[] =
    rest === undefined ? [] : Array<string>(8 - headGroups.length - restGroups.length).fill('0');
  return [...headGroups, ...zeros, ...restGroups].map((group) => parseInt(group, 16));
}

/** `::ffff:a.b.c.d` (in any spelling) as `a.b.c.d`; otherwise null. */
function mappedIPv4(address: string): string | null {
  const groups = ipv6Groups(address);
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = groups;
  if (groups.length !== 8 || g0 !== 0 || g1 !== 0 || g2 !== 0 || g3 !== 0 || g4 !== 0 || g5 !== 0xffff)
    return null;
  return `${g6 >> 8}.${g6 & 0xff}.${g7 >> 8}.${g7 & 0xff}`;
}

/**
 * The address to look up, or null when there is nothing to find: not an address, a scoped address
 * (`fe80::1%eth0`), or a range that is not on the public internet.
 */
export function publicAddress(input: string): PublicAddress | null {
  const ip = input.trim();
  if (isIPv4(ip)) return NOT_PUBLIC.check(ip, 'ipv4') ? null : { family: 4, address: ip };
  if (!isIPv6(ip) || ip.includes('%')) return null;
  const v4 = mappedIPv4(ip);
  if (v4 !== null) return NOT_PUBLIC.check(v4, 'ipv4') ? null : { family: 4, address: v4 };
  return NOT_PUBLIC.check(ip, 'ipv6') ? null : { family: 6, address: ip.toLowerCase() };
}
