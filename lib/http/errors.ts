// The HTTP side of lib/errors: one map from error code to status, the headers an error's hints
// become, one envelope (docs: design.md, "Errors"; docs/decisions/layering.md).
import { AppError, type ErrorCode } from '@/lib/errors/app-error';
import { isDatabaseUnavailable, noteDatabaseError } from '@/lib/db-errors';
import type { log } from '@/lib/log';
import { logRepeated } from '@/lib/log-repeats';
import type { TErrorResponse } from '@/lib/schemas/error';

const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  headers_too_large: 431,
  invalid_json: 400,
  validation_failed: 422,
  one_package_per_request: 422,
  unauthorized: 401,
  wrong_environment: 401,
  environment_required: 400,
  forbidden: 403,
  insufficient_scope: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  account_changed: 409,
  gone: 410,
  not_cancellable: 409,
  illegal_transition: 409,
  do_not_load: 409,
  not_amendable: 409,
  not_offloadable: 409,
  not_closable: 409,
  not_returnable: 409,
  payload_too_large: 413,
  request_timeout: 408,
  unsupported_media_type: 415,
  not_acceptable: 406,
  rate_limited: 429,
  service_unavailable: 503,
  internal_error: 500,
};

export function httpStatus(error: AppError): number {
  return STATUS[error.code];
}

/** Retry-After, WWW-Authenticate and Allow from the error's hints; empty when it has none. */
export function errorHeaders(error: AppError): Record<string, string> {
  const headers: Record<string, string> = {};
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  if (error.challenge !== undefined) headers['www-authenticate'] = error.challenge;
  if (error.allowed !== undefined) headers.allow = error.allowed;
  return headers;
}

export function errorBody(error: AppError, requestId?: string): TErrorResponse {
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

/** An AppError as it is; a database outage a 503 to retry (no stack, logged once per interval); else a logged 500. */
export function errorAnswer(
  error: unknown,
  requestId: string,
  requestLog: typeof log,
): { status: number; headers: Record<string, string>; body: TErrorResponse & { IsSuccess?: string | boolean } } {
  let known: AppError;
  if (error instanceof AppError) {
    known = error;
  } else if (isDatabaseUnavailable(error)) {
    // A query ended by a planned stop says so here (an idle connection's says so to the pool): lib/db.ts rides it out.
    noteDatabaseError(error);
    logRepeated(requestLog, 'error', 'database unavailable', error, { requestId }, { anyError: true });
    known = new AppError('service_unavailable', 'The service is briefly unavailable; retry shortly.', { retryAfterSeconds: 2 });
  } else {
    requestLog.error({ err: error, requestId }, 'unhandled error');
    known = new AppError('internal_error', `Something went wrong on our side. Quote request id ${requestId} if you contact us.`);
  }
  return { status: httpStatus(known), headers: errorHeaders(known), body: errorBody(known, requestId) };
}
