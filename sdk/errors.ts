import type { components } from './generated/schema.js';

type Envelope = components['schemas']['Error']['error'];

/** The envelope's codes, and two of the SDK's own: `network_error` (no answer) and `unexpected_response` (not JSON). */
export type CarrierErrorCode = Envelope['code'] | 'network_error' | 'unexpected_response';

interface EnvelopeFields {
  code?: CarrierErrorCode;
  message?: string;
  details?: Envelope['details'];
  details_truncated?: number;
  request_id?: string;
  required_scope?: Envelope['required_scope'];
}

/** A refused request: the error envelope's code, message and details, with the HTTP status and the request id. */
export class CarrierApiError extends Error {
  /** The HTTP status; 0 when no answer came. */
  readonly status: number;
  readonly code: CarrierErrorCode;
  /** Every failing field (`path`, `message`), up to 100. */
  readonly details: NonNullable<Envelope['details']>;
  /** How many failing fields `details` leaves out. */
  readonly detailsTruncated: number;
  /** The answer's `x-request-id`: quote it to support, or look it up with `getRequest`. */
  readonly requestId: string | null;
  /** On 403 `insufficient_scope`: the scope the operation needs and the token lacks. */
  readonly requiredScope: NonNullable<Envelope['required_scope']> | null;
  /** Seconds the answer asked to wait (`Retry-After`), when it said. */
  readonly retryAfter: number | null;
  /** The answer's body as received: the envelope, or its text when it was not JSON. */
  readonly body: unknown;

  constructor(
    status: number,
    envelope: EnvelopeFields,
    init: { requestId?: string | null; retryAfter?: number | null; body?: unknown; cause?: unknown } = {},
  ) {
    super(envelope.message ?? `HTTP ${status}`, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'CarrierApiError';
    this.status = status;
    this.code = envelope.code ?? 'unexpected_response';
    this.details = envelope.details ?? [];
    this.detailsTruncated = envelope.details_truncated ?? 0;
    this.requestId = init.requestId ?? envelope.request_id ?? null;
    this.requiredScope = envelope.required_scope ?? null;
    this.retryAfter = init.retryAfter ?? null;
    this.body = init.body ?? { error: envelope };
  }
}

/** No answer: the connection failed or timed out on every attempt. `cause` is the last attempt's error. */
export class CarrierConnectionError extends CarrierApiError {
  constructor(cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(0, { code: 'network_error', message: `the request could not be sent: ${reason}` }, { cause, body: null });
    this.name = 'CarrierConnectionError';
  }
}

function isEnvelope(body: unknown): body is { error: EnvelopeFields } {
  if (typeof body !== 'object' || body === null || !('error' in body)) return false;
  const error = body.error;
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string';
}

/** Seconds from a Retry-After header, either form (delta-seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterSeconds(headers: Headers, now = Date.now()): number | null {
  const value = headers.get('retry-after')?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1_000));
}

/** The error for a non-2xx answer whose body was read as `body` (parsed JSON, or the text when it was not JSON). */
export function errorFromResponse(response: Response, body: unknown): CarrierApiError {
  const init = {
    requestId: response.headers.get('x-request-id'),
    retryAfter: retryAfterSeconds(response.headers),
    body,
  };
  if (isEnvelope(body)) return new CarrierApiError(response.status, body.error, init);
  const text = typeof body === 'string' ? body.slice(0, 200) : '';
  return new CarrierApiError(
    response.status,
    { code: 'unexpected_response', message: `HTTP ${response.status}${text ? `: ${text}` : ''}` },
    init,
  );
}
