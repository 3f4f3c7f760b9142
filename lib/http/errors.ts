// One error class, one map from code to HTTP status, one envelope (docs: design.md, "Errors").

export type ErrorCode =
  | 'bad_request'
  | 'headers_too_large'
  | 'invalid_json'
  | 'validation_failed'
  | 'one_package_per_request'
  | 'unauthorized'
  | 'wrong_environment'
  // The portal API only: a request that does not say which environment it is for.
  | 'environment_required'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'payload_too_large'
  | 'request_timeout'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'service_unavailable'
  | 'internal_error';

const STATUS: Record<ErrorCode, number> = {
  // A request the HTTP parser refuses before any route sees it (lib/http/node-adapter.ts answerClientError).
  bad_request: 400,
  headers_too_large: 431,
  invalid_json: 400,
  validation_failed: 422,
  one_package_per_request: 422,
  unauthorized: 401,
  wrong_environment: 401,
  environment_required: 400,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  request_timeout: 408,
  unsupported_media_type: 415,
  rate_limited: 429,
  service_unavailable: 503,
  internal_error: 500,
};

export interface ErrorDetail {
  path: string;
  message: string;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetail[];
  readonly headers: Record<string, string>;
  /** Extra top-level fields of the error object, e.g. the existing ManifestID on a conflict. */
  readonly extra: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: ErrorDetail[]; headers?: Record<string, string>; extra?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.details = options.details ?? [];
    this.headers = options.headers ?? {};
    this.extra = options.extra ?? {};
  }

  get status(): number {
    return STATUS[this.code];
  }
}

export function validationError(details: ErrorDetail[], message?: string): ApiError {
  const first = details[0];
  return new ApiError(
    'validation_failed',
    message ?? (details.length === 1 && first ? `${first.path}: ${first.message}` : `${details.length} fields are invalid.`),
    { details },
  );
}

export function errorBody(error: ApiError, requestId?: string): Record<string, unknown> {
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.details.length > 0 ? { details: error.details } : {}),
      ...error.extra,
      ...(requestId ? { request_id: requestId } : {}),
    },
  };
}
