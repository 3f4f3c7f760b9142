import { randomFillSync } from 'node:crypto';
import { holdsSecret } from '@/lib/request-log/redact';

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

// An id holding what the request log redacts (a token pasted into the header) is neither echoed nor logged as the id.
export function requestIdFrom(incoming: string | null | undefined): string {
  return incoming && REQUEST_ID.test(incoming) && !holdsSecret(incoming) ? incoming : newRequestId();
}

// 128 random bits as 32 hex digits, from a buffer filled for 256 ids at a time: a UUID with its dashes removed cost
// about 1 % of a quote.
const POOL = Buffer.alloc(16 * 256);
let taken = POOL.length;

export function newRequestId(): string {
  if (taken === POOL.length) {
    randomFillSync(POOL);
    taken = 0;
  }
  const id = POOL.toString('hex', taken, taken + 16);
  taken += 16;
  return `req_${id}`;
}
