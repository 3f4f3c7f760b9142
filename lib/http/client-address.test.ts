import { describe, expect, it } from 'vitest';
import { addressKey } from '@/lib/net/address-key';
import { arrivedOverTls, clientAddress, normalizeAddress, parseTrustedProxies } from './client-address';

// The one function every adapter derives the client address with.

const none = parseTrustedProxies(undefined);
const loopback = parseTrustedProxies('127.0.0.1/32,::1/128');
const internal = parseTrustedProxies('10.0.0.0/8, fd00::/8');
const oneHop = parseTrustedProxies('1');

describe('clientAddress', () => {
  it('trusts no X-Forwarded-For by default: the socket address, however the header rotates', () => {
    expect(clientAddress('198.51.100.7', '203.0.113.5', none)).toBe('203.0.113.5');
    expect(clientAddress('1.1.1.1, 2.2.2.2', '203.0.113.5', none)).toBe('203.0.113.5');
    expect(clientAddress(null, '203.0.113.5', none)).toBe('203.0.113.5');
  });

  it('takes the entry our trusted proxy appended, never the ones the client sent before it', () => {
    // Client 198.51.100.7 sent "6.6.6.6" itself; the proxy at 127.0.0.1 appended what it saw.
    expect(clientAddress('6.6.6.6, 198.51.100.7', '127.0.0.1', loopback)).toBe('198.51.100.7');
    expect(clientAddress('9.9.9.9, 198.51.100.7', '127.0.0.1', loopback)).toBe('198.51.100.7');
    expect(clientAddress('198.51.100.7', '127.0.0.1', loopback)).toBe('198.51.100.7');
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', () => {
    expect(clientAddress('127.0.0.1', '203.0.113.5', loopback)).toBe('203.0.113.5');
    expect(clientAddress('10.1.1.1', '198.51.100.9', internal)).toBe('198.51.100.9');
  });

  it('walks a chain of trusted proxies from the right', () => {
    expect(clientAddress('6.6.6.6, 198.51.100.7, 10.0.0.2, 10.0.0.3', '10.0.0.4', internal)).toBe('198.51.100.7');
    // Every entry trusted: the leftmost is as far as we can see.
    expect(clientAddress('10.0.0.1, 10.0.0.2', '10.0.0.3', internal)).toBe('10.0.0.1');
    // A spoofed "trusted" entry left of the client's changes nothing.
    expect(clientAddress('10.9.9.9, 198.51.100.7', '10.0.0.4', internal)).toBe('198.51.100.7');
  });

  it('with a hop count, takes exactly that many entries from the right', () => {
    expect(clientAddress('6.6.6.6, 198.51.100.7', '10.0.0.4', oneHop)).toBe('198.51.100.7');
    expect(clientAddress('198.51.100.7, 10.0.0.2', '10.0.0.4', parseTrustedProxies('2'))).toBe('198.51.100.7');
    expect(clientAddress(null, '10.0.0.4', oneHop)).toBe('10.0.0.4');
  });

  it('stops at a malformed entry, at the proxy that wrote it', () => {
    expect(clientAddress('198.51.100.7, not-an-ip', '127.0.0.1', loopback)).toBe('127.0.0.1');
    expect(clientAddress('198.51.100.7,', '127.0.0.1', loopback)).toBe('127.0.0.1');
    expect(clientAddress(`${'1'.repeat(200)}`, '127.0.0.1', loopback)).toBe('127.0.0.1');
  });

  it('reads IPv6, bracketed and ported entries, and IPv4-mapped sockets', () => {
    expect(clientAddress('2001:DB8:0:0::1', '::ffff:127.0.0.1', loopback)).toBe('2001:db8::1');
    expect(clientAddress('[2001:db8::2]:4431', '::1', loopback)).toBe('2001:db8::2');
    expect(clientAddress('198.51.100.7:5555', '127.0.0.1', loopback)).toBe('198.51.100.7');
    expect(clientAddress('::ffff:198.51.100.8', '127.0.0.1', loopback)).toBe('198.51.100.8');
    expect(clientAddress('fd00::9, 2001:db8::3', 'fd00::1', internal)).toBe('2001:db8::3');
    expect(clientAddress(null, '::ffff:203.0.113.5', none)).toBe('203.0.113.5');
  });

  it('is undefined without a socket address', () => {
    expect(clientAddress('198.51.100.7', undefined, loopback)).toBeUndefined();
  });
});

describe('normalizeAddress and addressKey', () => {
  it('spells an address one way', () => {
    expect(normalizeAddress('::FFFF:7f00:1')).toBe('127.0.0.1');
    expect(normalizeAddress('fe80::1%eth0')).toBe('fe80::1');
    expect(normalizeAddress('2001:0db8:0000:0000:0000:0000:0000:0001')).toBe('2001:db8::1');
    expect(normalizeAddress('example.com')).toBeUndefined();
    expect(normalizeAddress('1.2.3.4.5')).toBeUndefined();
    expect(normalizeAddress('')).toBeUndefined();
  });

  it('counts IPv6 clients by their /64, IPv4 by the address', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:0db8:0001:0002::/64');
    expect(addressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:0db8:0001:0002::/64');
    expect(addressKey('::1')).toBe('0000:0000:0000:0000::/64');
    expect(addressKey('198.51.100.7')).toBe('198.51.100.7');
  });
});

describe('parseTrustedProxies', () => {
  it('accepts none, a hop count or CIDRs, and refuses anything else with the entry named', () => {
    expect(parseTrustedProxies('').kind).toBe('none');
    expect(parseTrustedProxies('0').kind).toBe('none');
    expect(parseTrustedProxies('2')).toEqual({ kind: 'hops', hops: 2 });
    expect(parseTrustedProxies('10.0.0.0/8').kind).toBe('cidrs');
    expect(() => parseTrustedProxies('10.0.0.0/33')).toThrow(/10\.0\.0\.0\/33/);
    expect(() => parseTrustedProxies('true')).toThrow(/"true"/);
    expect(() => parseTrustedProxies('10.0.0.0/8,proxy.internal')).toThrow(/proxy\.internal/);
  });
});

describe('arrivedOverTls', () => {
  it('believes X-Forwarded-Proto only from a trusted proxy', () => {
    expect(arrivedOverTls('https', '127.0.0.1', false, loopback, false)).toBe(true);
    expect(arrivedOverTls('http, https', '127.0.0.1', false, loopback, false)).toBe(true);
    expect(arrivedOverTls('https, http', '127.0.0.1', false, loopback, false)).toBe(false);
    expect(arrivedOverTls('https', '203.0.113.5', false, loopback, false)).toBe(false);
    expect(arrivedOverTls('https', '203.0.113.5', false, none, false)).toBe(false);
    expect(arrivedOverTls(null, '203.0.113.5', true, none, false)).toBe(true);
    expect(arrivedOverTls(null, '203.0.113.5', false, none, true)).toBe(true);
  });
});
