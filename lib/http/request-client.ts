import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { arrivedOverTls, clientAddress } from './client-address';
import { peerFromHeaders } from './peer-address';

// Requests with no verifiable socket address all share one count (fail closed).
export const UNVERIFIED_ADDRESS = '0.0.0.0';
let warned = false;

export function webRequestClient(headers: { get(name: string): string | null }): { address: string; secure: boolean } {
  const peer = peerFromHeaders(headers);
  if (!peer) {
    if (!warned) {
      warned = true;
      log.warn(
        'a request reached a route handler without a verified socket address (before instrumentation ran?); counted as one shared address',
      );
    }
    return { address: UNVERIFIED_ADDRESS, secure: env().HTTPS_ONLY };
  }
  return {
    address: clientAddress(headers.get('x-forwarded-for'), peer.address) ?? UNVERIFIED_ADDRESS,
    secure: arrivedOverTls(headers.get('x-forwarded-proto'), peer.address, peer.encrypted),
  };
}
