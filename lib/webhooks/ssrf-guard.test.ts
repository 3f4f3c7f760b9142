import { describe, expect, it } from 'vitest';
import { checkDestination, DestinationRefusedError, portRefusalReason, refusalReason, type Resolver } from './ssrf-guard';

// No test here opens a connection: the guard only parses, resolves (through the injected resolver
// or /etc/hosts for `localhost`) and judges addresses.

const strict = { allowPrivate: false };
const lenient = { allowPrivate: true };

function resolverOf(map: Record<string, string[]>): Resolver {
  return async (hostname) => {
    const addresses = map[hostname];
    if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

describe('refusalReason', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'cloud metadata'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['::', 'unspecified'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:a00:1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'cloud metadata'],
    ['64:ff9b::10.1.2.3', 'private'],
    ['2002:0a00:0001::1', '6to4'],
    ['2002:5db8:d70e::1', '6to4'], // 6to4 even of a public IPv4: relays are deprecated (RFC 7526)
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
  ])('refuses %s (%s) by default', (address, label) => {
    expect(refusalReason(address, strict)).toContain(label);
  });

  // the old denylist let every one of these through.
  it.each([
    ['192.0.2.1', 'reserved'], // TEST-NET-1 (RFC 5737)
    ['192.0.2.255', 'reserved'],
    ['198.51.100.7', 'reserved'], // TEST-NET-2
    ['203.0.113.200', 'reserved'], // TEST-NET-3
    ['192.88.99.1', 'reserved'], // former 6to4 relay anycast (RFC 7526)
    ['198.18.0.1', 'reserved'], // benchmarking (RFC 2544)
    ['198.19.255.254', 'reserved'],
    ['192.0.0.8', 'reserved'], // IETF protocol assignments
    ['240.0.0.1', 'reserved'], // future use
    ['192.31.196.1', 'AS112'],
    ['192.175.48.1', 'AS112'],
    ['192.52.193.1', 'AMT'],
    ['2001:db8::1', 'reserved'], // IPv6 documentation (RFC 3849)
    ['2001:db8:ffff::1', 'reserved'],
    ['3fff::1', 'reserved'], // IPv6 documentation (RFC 9637)
    ['2001:2::1', 'benchmarking'],
    ['::ffff:192.0.2.2', 'reserved'], // IPv4-mapped documentation address
    ['::ffff:c000:202', 'reserved'],
    ['64:ff9b::192.0.2.2', 'reserved'], // NAT64 of a documentation address
    ['64:ff9b:1::a00:1', 'NAT64'], // local-use NAT64 (RFC 8215)
    ['::ffff:0:a00:1', 'IPv4-translated'],
    ['100::1', 'discard'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['::7f00:1', 'not a global unicast'], // deprecated IPv4-compatible form of 127.0.0.1
    ['4000::1', 'not a global unicast'], // unallocated
    ['2001:10::1', 'ORCHID'],
    ['5f00::1', 'segment-routing'],
  ])('refuses %s (%s), which the old denylist let through', (address, label) => {
    expect(refusalReason(address, strict)).toContain(label);
    expect(refusalReason(address, lenient)).toContain(label);
  });

  it.each([
    '8.8.8.8',
    '93.184.215.14',
    '172.32.0.1',
    '100.128.0.1',
    '192.0.3.1',
    '198.51.101.1',
    '203.0.114.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:81b::200e',
    '192.169.0.1',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808', // NAT64 of 8.8.8.8: the packet really goes to a public IPv4 address
  ])('accepts public %s', (address) => {
    expect(refusalReason(address, strict)).toBeNull();
  });

  it('with WEBHOOK_ALLOW_PRIVATE_NETWORKS allows loopback, private and unique-local; never metadata or link-local', () => {
    expect(refusalReason('127.0.0.1', lenient)).toBeNull();
    expect(refusalReason('10.0.0.1', lenient)).toBeNull();
    expect(refusalReason('::1', lenient)).toBeNull();
    expect(refusalReason('::ffff:127.0.0.1', lenient)).toBeNull();
    expect(refusalReason('fd12:3456::1', lenient)).toBeNull();
    expect(refusalReason('169.254.169.254', lenient)).toContain('metadata');
    expect(refusalReason('::ffff:169.254.169.254', lenient)).toContain('metadata');
    expect(refusalReason('fd00:ec2::254', lenient)).toContain('metadata');
    expect(refusalReason('100.100.100.200', lenient)).toContain('metadata');
    expect(refusalReason('168.63.129.16', lenient)).toContain('metadata');
    expect(refusalReason('169.254.170.23', lenient)).toContain('metadata');
    expect(refusalReason('169.254.1.1', lenient)).toContain('link-local');
    expect(refusalReason('0.0.0.0', lenient)).toContain('unspecified');
    expect(refusalReason('100.64.0.1', lenient)).toContain('carrier-grade NAT');
  });

  it('refuses what is not an address', () => {
    expect(refusalReason('example.com', lenient)).toBe('is not an IP address');
    expect(refusalReason('0x7f.1', lenient)).toBe('is not an IP address');
  });
});

describe('portRefusalReason', () => {
  it.each([80, 443, 1024, 3000, 8080, 8443, 65_535])('accepts port %i', (port) => {
    expect(portRefusalReason(port)).toBeNull();
  });
  it.each([0, 1, 22, 25, 79, 81, 442, 444, 1023, 65_536])('refuses port %i', (port) => {
    expect(portRefusalReason(port)).toBe(`port ${port} is not allowed; use 80, 443 or a port from 1024 to 65535`);
  });
  it.each([
    [5432, 'PostgreSQL'],
    [5433, 'PostgreSQL'],
    [6379, 'Redis'],
    [3306, 'MySQL'],
    [11211, 'memcached'],
    [2375, 'Docker'],
  ])('refuses infrastructure port %i (%s)', (port, service) => {
    expect(portRefusalReason(port)).toBe(
      `port ${port} (${service}) is not allowed; use 80, 443 or another port from 1024 to 65535`,
    );
  });
});

describe('checkDestination', () => {
  it.each([
    ['http://127.0.0.1/hook', 'loopback'],
    ['http://10.0.0.1:8080/hook', 'private'],
    ['http://169.254.169.254/latest/meta-data/', 'metadata'],
    ['http://[::1]:3000/hook', 'loopback'],
    ['https://[::ffff:10.0.0.1]/hook', 'private'],
    ['http://0x7f000001/hook', 'loopback'], // WHATWG URL turns hex and short forms into 127.0.0.1
    ['http://2130706433/hook', 'loopback'],
    ['http://192.0.2.2:3000/', 'reserved'], // the app itself, on a host numbered from a documentation block
    ['http://[2001:db8::2]/hook', 'reserved'],
    ['http://[::ffff:192.0.2.2]/hook', 'reserved'],
    ['http://93.184.215.14:22/', 'port 22 is not allowed'],
    ['http://93.184.215.14:0/', 'port 0 is not allowed'],
    ['http://93.184.215.14:5433/', 'port 5433 (PostgreSQL) is not allowed'],
    ['https://93.184.215.14:6379/', 'port 6379 (Redis) is not allowed'],
    ['http://127.0.0.1:6379/', 'port 6379 (Redis) is not allowed'],
  ])('refuses %s', async (url, label) => {
    await expect(checkDestination(url, strict)).rejects.toThrow(label);
  });

  it('refuses a name that resolves to loopback: localhost (from /etc/hosts)', async () => {
    await expect(checkDestination('http://localhost:4000/hook', strict)).rejects.toThrow(/localhost resolves to .*loopback/);
  });

  it('refuses a name when any of its addresses is refused', async () => {
    const resolver = resolverOf({ 'mixed.example': ['93.184.215.14', '10.0.0.7'] });
    await expect(checkDestination('https://mixed.example/hook', { ...strict, resolver })).rejects.toThrow('10.0.0.7');
  });

  it('refuses a name resolving to a documentation address, and an IPv4-mapped one', async () => {
    const resolver = resolverOf({ 'doc.example': ['203.0.113.9'], 'mapped.example': ['::ffff:198.51.100.1'] });
    await expect(checkDestination('https://doc.example/hook', { ...strict, resolver })).rejects.toThrow(
      'doc.example resolves to 203.0.113.9, which is a reserved',
    );
    await expect(checkDestination('https://mapped.example/hook', { ...lenient, resolver })).rejects.toThrow('reserved');
  });

  it('refuses an infrastructure port even with private networks allowed', async () => {
    await expect(checkDestination('http://127.0.0.1:5433/', lenient)).rejects.toThrow('port 5433 (PostgreSQL)');
    await expect(checkDestination('http://127.0.0.1:22/', lenient)).rejects.toThrow('port 22 is not allowed');
    await expect(checkDestination('http://127.0.0.1:4000/', lenient)).resolves.toMatchObject({ address: '127.0.0.1' });
  });

  it('refuses metadata through a name even when private networks are allowed', async () => {
    const resolver = resolverOf({ 'metadata.example': ['169.254.169.254'] });
    await expect(checkDestination('http://metadata.example/', { ...lenient, resolver })).rejects.toThrow('metadata');
  });

  it('judges the resolution of the moment: a name rebound to a private address is refused', async () => {
    let calls = 0;
    const rebinding: Resolver = async () => [{ address: calls++ === 0 ? '93.184.215.14' : '10.0.0.1', family: 4 }];
    const first = await checkDestination('https://rebind.example/hook', { ...strict, resolver: rebinding });
    expect(first.address).toBe('93.184.215.14');
    await expect(checkDestination('https://rebind.example/hook', { ...strict, resolver: rebinding })).rejects.toThrow('private');
  });

  it('returns the checked address to connect to, and the host name for Host and TLS', async () => {
    const resolver = resolverOf({ 'hooks.example.com': ['93.184.215.14'] });
    const destination = await checkDestination('https://hooks.example.com:8443/in?x=1', { ...strict, resolver });
    expect(destination).toMatchObject({ hostname: 'hooks.example.com', address: '93.184.215.14', family: 4 });
    expect(destination.url.port).toBe('8443');
  });

  it.each([
    ['ftp://files.example.com/x', 'http or https'],
    ['file:///etc/passwd', 'http or https'],
    ['gopher://127.0.0.1:70/', 'http or https'],
    ['http://user:pass@93.184.215.14/', 'credentials'],
    ['not a url', 'not a valid URL'],
  ])('refuses %s', async (url, message) => {
    await expect(checkDestination(url, lenient)).rejects.toThrow(message);
  });

  it('refuses a name that does not resolve', async () => {
    const error = await checkDestination('https://nowhere.example/', { ...strict, resolver: resolverOf({}) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DestinationRefusedError);
    expect((error as Error).message).toContain('could not be resolved');
  });
});
