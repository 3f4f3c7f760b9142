import { isIP } from 'node:net';

// The address a per-address limit counts under, given the client's address (lib/http/client-address.ts finds it).

/**
 * The key a per-address limit counts under: an IPv4 address as it is, an IPv6 address by its /64
 * (one subscriber usually holds a whole /64, so counting single IPv6 addresses would let one
 * client rotate through 2^64 of them).
 */
export function addressKey(address: string): string {
  if (isIP(address) !== 6) return address;
  const full = expandIpv6(address);
  return `${full.slice(0, 4).join(':')}::/64`;
}

function expandIpv6(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // An embedded IPv4 tail (::1.2.3.4) counts as two groups; it only ever falls in the low 64 bits.
  const groups = [...left, ...Array.from({ length: Math.max(0, 8 - left.length - right.length) }, () => '0'), ...right];
  return groups.map((group) => group.padStart(4, '0'));
}
