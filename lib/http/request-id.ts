import { randomUUID } from 'node:crypto';
import { holdsSecret } from '@/lib/request-log/redact';

// One request id rule for the API and the portal: the caller's X-Request-Id when it can be logged and echoed
// safely, else a new one in the same format.

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * A caller's X-Request-Id when it is one we can log and echo safely, else a new one. An id that holds what the
 * request log redacts (a token or webhook secret pasted into the header) is not echoed nor logged as the id.
 */
export function requestIdFrom(incoming: string | null | undefined): string {
  return incoming && REQUEST_ID.test(incoming) && !holdsSecret(incoming) ? incoming : newRequestId();
}

export function newRequestId(): string {
  return `req_${randomUUID().replaceAll('-', '')}`;
}
