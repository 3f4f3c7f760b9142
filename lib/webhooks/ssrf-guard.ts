import 'server-only';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

// Webhook destinations are chosen by shippers, so every URL is a request our network makes on a
// stranger's behalf. Only http(s); and unless WEBHOOK_ALLOW_PRIVATE_NETWORKS is set, nothing that
// resolves to loopback, private, link-local, CGNAT, unique-local or otherwise non-public addresses.
// Cloud metadata services are refused even then. The check runs at registration and again at each
// delivery, on the addresses DNS gives at that moment; the delivery then connects to the very
// address checked (see send-webhook.ts), so a name that re-resolves elsewhere (DNS rebinding)
// cannot slip through. Applies to test and live alike: see docs/decisions/webhooks.md.

export class DestinationRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DestinationRefusedError';
  }
}

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

function blockList(ranges: [string, number, 'ipv4' | 'ipv6'][]): BlockList {
  const list = new BlockList();
  for (const [network, prefix, type] of ranges) list.addSubnet(network, prefix, type);
  return list;
}

// Never reachable, whatever the setting: instance metadata and similar host services.
const METADATA = blockList([
  ['169.254.169.254', 32, 'ipv4'], // AWS, GCP, Azure, OpenStack, DigitalOcean...
  ['169.254.170.2', 32, 'ipv4'], // AWS ECS task metadata
  ['100.100.100.200', 32, 'ipv4'], // Alibaba Cloud
  ['168.63.129.16', 32, 'ipv4'], // Azure WireServer (a public address)
  ['fd00:ec2::254', 128, 'ipv6'], // AWS over IPv6
]);

const NON_PUBLIC: [BlockList, string][] = [
  [
    blockList([
      ['127.0.0.0', 8, 'ipv4'],
      ['::1', 128, 'ipv6'],
    ]),
    'loopback',
  ],
  [
    blockList([
      ['10.0.0.0', 8, 'ipv4'],
      ['172.16.0.0', 12, 'ipv4'],
      ['192.168.0.0', 16, 'ipv4'],
    ]),
    'private',
  ],
  [
    blockList([
      ['169.254.0.0', 16, 'ipv4'],
      ['fe80::', 10, 'ipv6'],
    ]),
    'link-local',
  ],
  [blockList([['100.64.0.0', 10, 'ipv4']]), 'carrier-grade NAT'],
  [blockList([['fc00::', 7, 'ipv6']]), 'unique-local'],
  [
    blockList([
      ['0.0.0.0', 8, 'ipv4'],
      ['192.0.0.0', 24, 'ipv4'],
      ['198.18.0.0', 15, 'ipv4'],
      ['224.0.0.0', 4, 'ipv4'],
      ['240.0.0.0', 4, 'ipv4'],
      ['::', 128, 'ipv6'],
      ['100::', 64, 'ipv6'],
      ['ff00::', 8, 'ipv6'],
    ]),
    'reserved',
  ],
];

/** The IPv4 address an IPv6 address carries (mapped, NAT64, 6to4), so ::ffff:10.0.0.1 is judged as 10.0.0.1. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  const sixToFour = /^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4}):/.exec(lower);
  const parts = hex ?? sixToFour;
  if (!parts) return undefined;
  const high = parseInt(parts[1], 16);
  const low = parseInt(parts[2], 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Why `address` may not be a destination under this policy, or null when it may. */
export function refusalReason(address: string, options: { allowPrivate: boolean }): string | null {
  const family = isIP(address);
  if (family === 0) return 'is not an IP address';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const v4 = family === 6 ? embeddedIpv4(address) : undefined;
  if (v4) return refusalReason(v4, options);
  if (METADATA.check(address, type)) return 'is a cloud metadata address';
  if (options.allowPrivate) return null;
  for (const [list, label] of NON_PUBLIC) if (list.check(address, type)) return `is a ${label} address`;
  return null;
}

/** Parses a destination URL: http(s) only, no credentials. Throws DestinationRefusedError. */
export function parseDestinationUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DestinationRefusedError('is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new DestinationRefusedError('must use http or https');
  if (url.username || url.password) throw new DestinationRefusedError('must not contain credentials');
  return url;
}

export interface CheckedDestination {
  url: URL;
  /** The host name as written (brackets stripped from IPv6 literals). */
  hostname: string;
  /** The checked address to connect to. */
  address: string;
  family: 4 | 6;
}

/**
 * Resolves the URL's host and checks every address it resolves to (one bad address refuses the
 * whole name: which one a client would pick is not ours to guess). Returns the address to connect to.
 */
export async function checkDestination(
  raw: string,
  options: { allowPrivate: boolean; resolver?: Resolver },
): Promise<CheckedDestination> {
  const url = parseDestinationUrl(raw);
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  if (isIP(hostname)) {
    addresses = [{ address: hostname, family: isIP(hostname) }];
  } else {
    try {
      addresses = await (options.resolver ?? systemResolver)(hostname);
    } catch (error) {
      throw new DestinationRefusedError(
        `host ${hostname} could not be resolved (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
    if (addresses.length === 0) throw new DestinationRefusedError(`host ${hostname} could not be resolved`);
  }
  for (const { address } of addresses) {
    const reason = refusalReason(address, options);
    if (reason) {
      const shown = address === hostname ? address : `${hostname} resolves to ${address}, which`;
      throw new DestinationRefusedError(`${shown} ${reason}; webhooks may only reach public addresses`);
    }
  }
  const chosen = addresses[0];
  return { url, hostname, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}
