import { BlockList, isIP } from 'node:net';

// No settings read here: lib/env.ts checks the setting with parseTrustedProxies.

export type TrustedProxies = { kind: 'none' } | { kind: 'hops'; hops: number } | { kind: 'cidrs'; list: BlockList; text: string };

export function parseTrustedProxies(value: string | undefined): TrustedProxies {
  const text = (value ?? '').trim();
  if (text === '' || text === 'none') return { kind: 'none' };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 32) throw new Error(`TRUSTED_PROXIES: a hop count of ${hops} is not plausible`);
    return hops === 0 ? { kind: 'none' } : { kind: 'hops', hops };
  }
  const list = new BlockList();
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    const [base = '', prefixText, extra] = entry.split('/');
    const address = normalizeAddress(base);
    const family = address ? isIP(address) : 0;
    const prefix = prefixText === undefined ? (family === 6 ? 128 : 32) : Number(prefixText);
    if (!address || extra !== undefined || !/^\d*$/.test(prefixText ?? '') || prefix > (family === 6 ? 128 : 32)) {
      throw new Error(`TRUSTED_PROXIES: "${entry}" is not an address or CIDR range (e.g. 10.0.0.0/8, fd00::/8) nor a hop count`);
    }
    list.addSubnet(address, prefix, family === 6 ? 'ipv6' : 'ipv4');
  }
  return { kind: 'cidrs', list, text };
}

// One spelling per address (mapped IPv6 as IPv4, IPv6 canonical; port, brackets, zone dropped); undefined if no IP.
const MAPPED_DOTTED = /^::ffff:(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/i;
const canonicalV6 = new Map<string, string>();

export function normalizeAddress(raw: string | undefined | null): string | undefined {
  if (!raw) return undefined;
  let text = raw.trim();
  if (text.length > 64) return undefined;
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text);
  if (bracketed) text = bracketed[1]!;
  else if (/^[\d.]+:\d{1,5}$/.test(text)) text = text.slice(0, text.indexOf(':'));
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  const family = isIP(text);
  if (family === 4) return text;
  if (family !== 6) return undefined;
  // A dual-stack server sees every IPv4 client this way: kept off the URL parser (per request).
  const dotted = MAPPED_DOTTED.exec(text);
  if (dotted) return dotted[1];
  let canonical = canonicalV6.get(text);
  if (canonical === undefined) {
    // The URL parser writes IPv6 in its canonical form (RFC 5952). A cache, not a limit: dropping it is harmless.
    canonical = new URL(`http://[${text}]/`).hostname.slice(1, -1);
    if (canonicalV6.size >= 10_000) canonicalV6.clear();
    canonicalV6.set(text, canonical);
  }
  const [, highText, lowText] = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical) ?? [];
  if (highText && lowText) {
    const high = parseInt(highText, 16);
    const low = parseInt(lowText, 16);
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  return canonical;
}

export function isTrusted(trusted: TrustedProxies, address: string, hop: number): boolean {
  if (trusted.kind === 'none') return false;
  if (trusted.kind === 'hops') return hop < trusted.hops;
  return trusted.list.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}
