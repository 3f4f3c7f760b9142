import { env } from '@/lib/env';
import { isTrusted, normalizeAddress, parseTrustedProxies, type TrustedProxies } from '@/lib/net/trusted-proxies';

export { normalizeAddress, parseTrustedProxies, type TrustedProxies };

// The one way every adapter (node:http, Next route handlers, the portal) learns who is asking.
//
// TRUSTED_PROXIES names the proxies in front of us: none by default, a CIDR list
// (`127.0.0.1/32,10.0.0.0/8`) or a hop count (`1`). The client address is found by starting from
// the socket's address and walking X-Forwarded-For from the right, for as long as the address in
// hand is a trusted proxy: each trusted proxy appended the address it saw, so the first untrusted
// address on that walk is the client. Entries left of it were written by the client and are
// ignored, so rotating them changes nothing. With no trusted proxies, X-Forwarded-For is never read.
// (docs/decisions/rate-limiting.md)

let cached: { setting: string | undefined; trusted: TrustedProxies } | undefined;

function trustedProxies(): TrustedProxies {
  const setting = env().TRUSTED_PROXIES;
  if (cached && cached.setting === setting) return cached.trusted;
  cached = { setting, trusted: parseTrustedProxies(setting) };
  return cached.trusted;
}

/**
 * The client's address: the socket's (normalised), or, when the socket's peer is a trusted proxy,
 * the first untrusted address walking X-Forwarded-For from the right. Undefined only when the
 * socket address is unknown. A malformed entry stops the walk at the last good address (the
 * proxy that wrote it).
 */
export function clientAddress(
  forwardedFor: string | null | undefined,
  socketAddress: string | undefined,
  trusted = trustedProxies(),
): string | undefined {
  let address = normalizeAddress(socketAddress);
  if (!address || trusted.kind === 'none' || !forwardedFor) return address;
  const entries = forwardedFor.split(',');
  for (let hop = 0, i = entries.length - 1; i >= 0 && isTrusted(trusted, address, hop); hop += 1, i -= 1) {
    const next = normalizeAddress(entries[i]);
    if (!next) break;
    address = next;
  }
  return address;
}

/**
 * Whether the request reached us over TLS: our own socket is encrypted, a trusted proxy says so
 * (the rightmost X-Forwarded-Proto, written by the proxy we talk to), or HTTPS_ONLY says every
 * request does.
 */
export function arrivedOverTls(
  forwardedProto: string | null | undefined,
  socketAddress: string | undefined,
  encrypted = false,
  trusted = trustedProxies(),
  httpsOnly = env().HTTPS_ONLY,
): boolean {
  if (encrypted || httpsOnly) return true;
  if (!forwardedProto || trusted.kind === 'none') return false;
  const peer = normalizeAddress(socketAddress);
  if (!peer || !isTrusted(trusted, peer, 0)) return false;
  const last = forwardedProto
    .slice(forwardedProto.lastIndexOf(',') + 1)
    .trim()
    .toLowerCase();
  return last === 'https';
}
