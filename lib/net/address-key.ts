import { isIP } from 'node:net';

// IPv6 by its /64: one subscriber usually holds a whole /64, and could rotate through 2^64 single addresses.
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
