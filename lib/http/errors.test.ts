import { describe, expect, it } from 'vitest';
import { AppError, ERROR_CODES } from '@/lib/errors/app-error';
import { errorBody, errorHeaders, httpStatus } from './errors';

describe('lib/http/errors: the HTTP side of AppError', () => {
  it('maps every error code to a 4xx or 5xx status', () => {
    for (const code of ERROR_CODES) {
      const status = httpStatus(new AppError(code, 'x'));
      expect(status >= 400 && status <= 599, code).toBe(true);
    }
  });

  it.each([
    ['validation_failed', 422],
    ['one_package_per_request', 422],
    ['wrong_environment', 401],
    ['environment_required', 400],
    ['forbidden', 403],
    ['insufficient_scope', 403],
    ['headers_too_large', 431],
    ['method_not_allowed', 405],
    ['rate_limited', 429],
    ['service_unavailable', 503],
  ] as const)('%s → %i', (code, status) => {
    expect(httpStatus(new AppError(code, 'x'))).toBe(status);
  });

  it('turns the hints into Retry-After, WWW-Authenticate and Allow, and nothing else', () => {
    expect(errorHeaders(new AppError('rate_limited', 'x', { retryAfterSeconds: 7 }))).toEqual({ 'retry-after': '7' });
    expect(errorHeaders(new AppError('unauthorized', 'x', { challenge: 'Token' }))).toEqual({ 'www-authenticate': 'Token' });
    expect(errorHeaders(new AppError('method_not_allowed', 'x', { allowed: 'POST, OPTIONS' }))).toEqual({
      allow: 'POST, OPTIONS',
    });
    expect(errorHeaders(new AppError('conflict', 'x', { extra: { ManifestID: 'MAN-1' } }))).toEqual({});
  });

  it('builds the envelope: details only when there are some, extra at the top level, then the request id', () => {
    expect(errorBody(new AppError('not_found', 'gone'))).toEqual({ error: { code: 'not_found', message: 'gone' } });
    expect(
      errorBody(
        new AppError('conflict', 'taken', { details: [{ path: 'a', message: 'b' }], extra: { ManifestID: 'M' } }),
        'req_1',
      ),
    ).toEqual({
      error: { code: 'conflict', message: 'taken', details: [{ path: 'a', message: 'b' }], ManifestID: 'M', request_id: 'req_1' },
    });
  });
});
