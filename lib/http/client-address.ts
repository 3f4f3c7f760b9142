import { env } from '@/lib/env';
import { isTrusted, normalizeAddress, parseTrustedProxies, type TrustedProxies } from '@/lib/net/trusted-proxies';

export { normalizeAddress, parseTrustedProxies, type TrustedProxies };

// X-Forwarded-For is read only through TRUSTED_PROXIES, from the right, while the address in hand is a trusted proxy:
// entries left of the first untrusted one were written by the client (docs/decisions/rate-limiting.md).

let cached: { setting: string | undefined; trusted: TrustedProxies } | undefined;

function trustedProxies(): TrustedProxies {
  const setting = env().TRUSTED_PROXIES;
  if (cached && cached.setting === setting) return cached.trusted;
  cached = { setting, trusted: parseTrustedProxies(setting) };
  return cached.trusted;
}

// A malformed entry stops the walk at the last good address (the proxy that wrote it).
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

// Only the rightmost X-Forwarded-Proto, and only from a trusted peer: that is the one the proxy we talk to wrote.
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
