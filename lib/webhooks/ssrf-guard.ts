import 'server-only';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

// Shippers choose webhook destinations, so every URL is a request our network makes for a stranger. An allowlist:
// only globally routable unicast (IPv6 also within 2000::/3); IPv6 forms carrying an IPv4 address are judged by it.
// Metadata and link-local are refused whatever WEBHOOK_ALLOW_PRIVATE_NETWORKS says. Checked at registration and at
// each delivery, which connects to the very address checked, so DNS rebinding cannot slip through.

export class DestinationRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DestinationRefusedError';
  }
}

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

type Address = ipaddr.IPv4 | ipaddr.IPv6;

function cidrs(list: string[]): [Address, number][] {
  return list.map((cidr) => ipaddr.parseCIDR(cidr));
}

function inAny(address: Address, ranges: [Address, number][]): boolean {
  return ranges.some(([network, prefix]) => network.kind() === address.kind() && address.match(network, prefix));
}

// Never reachable, whatever the setting: instance metadata and similar host services.
const METADATA = cidrs([
  '169.254.169.254/32', // AWS, GCP, Azure, OpenStack, Oracle, DigitalOcean...
  '169.254.170.2/32', // AWS ECS task metadata
  '169.254.170.23/32', // AWS EKS Pod Identity
  '100.100.100.200/32', // Alibaba Cloud
  '168.63.129.16/32', // Azure WireServer (a public address)
  'fd00:ec2::254/128', // AWS over IPv6
  'fd00:ec2::23/128', // AWS EKS Pod Identity over IPv6
]);

/** IANA's global unicast block: every other IPv6 address is reserved, special or unallocated. */
const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
/** NAT64's well-known prefix (RFC 6052): the last 32 bits are the IPv4 address the packet goes to. */
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96') as [ipaddr.IPv6, number];

const PRIVATE_RANGES = new Set(['loopback', 'private', 'uniqueLocal']);

const LABELS: Record<string, string> = {
  unspecified: 'an unspecified',
  broadcast: 'a broadcast',
  multicast: 'a multicast',
  linkLocal: 'a link-local',
  loopback: 'a loopback',
  carrierGradeNat: 'a carrier-grade NAT',
  private: 'a private',
  reserved: 'a reserved (documentation, benchmarking or future use)',
  as112: 'an AS112',
  amt: 'an AMT',
  uniqueLocal: 'a unique-local',
  ipv4Mapped: 'an IPv4-mapped',
  deprecatedSiteLocal: 'a site-local',
  discard: 'a discard-only',
  rfc6145: 'an IPv4-translated',
  rfc6052: 'a NAT64',
  '6to4': 'a 6to4',
  teredo: 'a Teredo',
  benchmarking: 'a benchmarking',
  as112v6: 'an AS112',
  deprecatedOrchid: 'an ORCHID',
  orchid2: 'an ORCHID',
  droneRemoteIdProtocolEntityTags: 'a DRIP',
  segmentRouting: 'a segment-routing',
};

/** The IPv4 address an IPv6 address really reaches: IPv4-mapped (::ffff:0:0/96) and NAT64 (64:ff9b::/96). */
function carriedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  if (address.isIPv4MappedAddress()) return address.toIPv4Address();
  if (address.match(NAT64)) return new ipaddr.IPv4(address.toByteArray().slice(12));
  return undefined;
}

export function refusalReason(address: string, options: { allowPrivate: boolean }): string | null {
  if (isIP(address) === 0) return 'is not an IP address';
  let parsed: Address;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return 'is not an IP address';
  }
  if (parsed.kind() === 'ipv6') {
    const v4 = carriedIpv4(parsed as ipaddr.IPv6);
    if (v4) return refusalReason(v4.toString(), options);
  }
  if (inAny(parsed, METADATA)) return 'is a cloud metadata address';
  const range = parsed.range();
  if (range === 'unicast') {
    if (parsed.kind() === 'ipv6' && !parsed.match(IPV6_GLOBAL_UNICAST)) return 'is not a global unicast address';
    return null;
  }
  if (options.allowPrivate && PRIVATE_RANGES.has(range)) return null;
  return `is ${LABELS[range] ?? `a special-purpose (${range})`} address`;
}

/** Well-known infrastructure services above 1023: a webhook has no business knocking on them. */
const REFUSED_PORTS = new Map<number, string>([
  [1433, 'SQL Server'],
  [1521, 'Oracle'],
  [2181, 'ZooKeeper'],
  [2375, 'Docker'],
  [2376, 'Docker'],
  [2379, 'etcd'],
  [2380, 'etcd'],
  [3306, 'MySQL'],
  [4369, 'Erlang port mapper'],
  [5432, 'PostgreSQL'],
  [5433, 'PostgreSQL'],
  [5672, 'AMQP'],
  [5984, 'CouchDB'],
  [6379, 'Redis'],
  [6443, 'Kubernetes API'],
  [8500, 'Consul'],
  [9042, 'Cassandra'],
  [9092, 'Kafka'],
  [9200, 'Elasticsearch'],
  [9300, 'Elasticsearch'],
  [10250, 'kubelet'],
  [11211, 'memcached'],
  [27017, 'MongoDB'],
]);

/** Why `port` may not be a destination port, or null when it may: 80, 443, 1024-65535 less REFUSED_PORTS. */
export function portRefusalReason(port: number): string | null {
  if (port === 80 || port === 443) return null;
  if (!Number.isInteger(port) || port < 1024 || port > 65_535) {
    return `port ${port} is not allowed; use 80, 443 or a port from 1024 to 65535`;
  }
  const service = REFUSED_PORTS.get(port);
  if (service) return `port ${port} (${service}) is not allowed; use 80, 443 or another port from 1024 to 65535`;
  return null;
}

/** Parses a destination URL: http(s) only, no credentials, an allowed port. Throws DestinationRefusedError. */
export function parseDestinationUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DestinationRefusedError('is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new DestinationRefusedError('must use http or https');
  if (url.username || url.password) throw new DestinationRefusedError('must not contain credentials');
  // WHATWG URL drops a scheme's default port (so "" means 80 or 443) and refuses ports above 65535.
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  const portReason = portRefusalReason(port);
  if (portReason) throw new DestinationRefusedError(portReason);
  return url;
}

export interface CheckedDestination {
  url: URL;
  hostname: string;
  address: string;
  family: 4 | 6;
}

/** Checks every address the host resolves to (one bad address refuses the name); returns the address to connect to. */
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
  const [chosen] = addresses;
  if (!chosen) throw new DestinationRefusedError(`host ${hostname} could not be resolved`);
  return { url, hostname, address: chosen.address, family: isIP(chosen.address) === 6 ? 6 : 4 };
}
