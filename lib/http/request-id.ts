import { randomUUID } from 'node:crypto';
import { holdsSecret } from '@/lib/request-log/redact';

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

// An id holding what the request log redacts (a token pasted into the header) is neither echoed nor logged as the id.
export function requestIdFrom(incoming: string | null | undefined): string {
  return incoming && REQUEST_ID.test(incoming) && !holdsSecret(incoming) ? incoming : newRequestId();
}

export function newRequestId(): string {
  return `req_${randomUUID().replaceAll('-', '')}`;
}
