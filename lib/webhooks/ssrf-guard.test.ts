import { describe, expect, it } from 'vitest';
import { checkDestination, DestinationRefusedError, refusalReason, type Resolver } from './ssrf-guard';

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
    ['0.0.0.0', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['224.0.0.1', 'reserved'],
    ['::', 'reserved'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:a00:1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'cloud metadata'],
    ['2002:0a00:0001::1', 'private'],
  ])('refuses %s (%s) by default', (address, label) => {
    expect(refusalReason(address, strict)).toContain(label);
  });

  it.each(['8.8.8.8', '93.184.215.14', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '192.169.0.1'])(
    'accepts public %s',
    (address) => {
      expect(refusalReason(address, strict)).toBeNull();
    },
  );

  it('with WEBHOOK_ALLOW_PRIVATE_NETWORKS allows loopback and private, never metadata', () => {
    expect(refusalReason('127.0.0.1', lenient)).toBeNull();
    expect(refusalReason('10.0.0.1', lenient)).toBeNull();
    expect(refusalReason('::1', lenient)).toBeNull();
    expect(refusalReason('169.254.169.254', lenient)).toContain('metadata');
    expect(refusalReason('::ffff:169.254.169.254', lenient)).toContain('metadata');
    expect(refusalReason('fd00:ec2::254', lenient)).toContain('metadata');
    expect(refusalReason('100.100.100.200', lenient)).toContain('metadata');
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
