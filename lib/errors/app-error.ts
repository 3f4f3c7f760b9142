// The one error class and list of codes. Transport-free: lib/http/errors.ts maps a code to its status and the hints
// below to headers (docs/decisions/layering.md).

export const ERROR_CODES = [
  // A request the HTTP parser refuses before any route sees it (lib/http/client-error.ts answerClientError).
  'bad_request',
  'headers_too_large',
  'invalid_json',
  'validation_failed',
  'one_package_per_request',
  'unauthorized',
  'wrong_environment',
  // The portal API only: a request that does not say which environment it is for.
  'environment_required',
  'forbidden',
  // A valid API token without the scope its route needs (lib/auth/scopes.ts): `required_scope` names it.
  'insufficient_scope',
  'not_found',
  'method_not_allowed',
  'conflict',
  // The portal only: the page names another account than the session now acts for (switched in another tab).
  'account_changed',
  // The status machine (lib/status): the carrier has the package or container, or the table forbids the move.
  'not_cancellable',
  'illegal_transition',
  // Customs (lib/status, lib/customs): a container holding a house on do_not_load cannot depart; a package's house
  // data cannot be amended once its container departed (or it is on its way).
  'do_not_load',
  'not_amendable',
  // Only a house held by customs, in a container still on the ground, can be offloaded.
  'not_offloadable',
  // Close-out (lib/close-out): only an open daily manifest can be closed (a container's, a cancelled one cannot).
  'not_closable',
  // Returns (lib/returns): only a package out for delivery or delivered, and not itself a return, can be returned.
  'not_returnable',
  // A link that worked once and no longer does (an invitation used, expired or revoked).
  'gone',
  'payload_too_large',
  'request_timeout',
  'unsupported_media_type',
  // A document asked for in a format it does not come in (?format= or Accept).
  'not_acceptable',
  'rate_limited',
  'service_unavailable',
  'internal_error',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorDetail {
  path: string;
  message: string;
}

export interface AppErrorOptions {
  details?: ErrorDetail[];
  /** Extra top-level fields of the error object, e.g. the existing ManifestID on a conflict. */
  extra?: Record<string, unknown>;
  /** When the caller may try again (rate limits, a database that is briefly away). */
  retryAfterSeconds?: number;
  /** The credential scheme the caller should present (an unauthorized token request: "Token"). */
  challenge?: string;
  /** What the resource accepts instead (method_not_allowed: the methods, comma-separated). */
  allowed?: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetail[];
  readonly extra: Record<string, unknown>;
  readonly retryAfterSeconds: number | undefined;
  readonly challenge: string | undefined;
  readonly allowed: string | undefined;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = options.details ?? [];
    this.extra = options.extra ?? {};
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.challenge = options.challenge;
    this.allowed = options.allowed;
  }
}

/** At most this many failing fields are listed in one 422; `details_truncated` counts the rest. */
export const MAX_ERROR_DETAILS = 100;

/** The one 422 builder: the first MAX_ERROR_DETAILS fields in `details`, `details_truncated` counting the rest. */
export function validationError(details: readonly ErrorDetail[], options: { message?: string; total?: number } = {}): AppError {
  const total = options.total ?? details.length;
  const listed = details.slice(0, MAX_ERROR_DETAILS);
  const first = listed[0];
  const message =
    options.message ??
    (total === 1 && first
      ? `${first.path}: ${first.message}`
      : total > listed.length
        ? `${total} fields are invalid; the first ${listed.length} are listed.`
        : `${total} fields are invalid.`);
  return new AppError('validation_failed', message, {
    details: listed,
    ...(total > listed.length ? { extra: { details_truncated: total - listed.length } } : {}),
  });
}
