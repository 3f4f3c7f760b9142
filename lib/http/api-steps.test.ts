import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { AppError } from '@/lib/errors/app-error';
import { errorResponse } from './api-steps';
import { requestIdFrom } from './request-id';

const silent = pino({ level: 'silent' });
const container = { isSuccess: 'text' as const };
const pkg = { isSuccess: 'boolean' as const };

describe('errorResponse', () => {
  it('hides an unexpected error behind a 500 that quotes the request id', () => {
    const error = new Error('relation "secret_table" does not exist at /srv/app/lib/x.ts:12');
    const response = errorResponse(error, container, 'req_abc', silent);
    expect(response.status).toBe(500);
    const body = JSON.parse(response.body);
    expect(body).toEqual({
      error: { code: 'internal_error', message: expect.stringContaining('req_abc'), request_id: 'req_abc' },
      IsSuccess: 'false',
    });
    expect(response.body).not.toContain('secret_table');
    expect(response.body).not.toContain('/srv/app');
  });

  it('answers 503 with Retry-After when the database cannot be reached', () => {
    const error = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const response = errorResponse(new Error('wrapped', { cause: error }), pkg, 'req_abc', silent);
    expect(response.status).toBe(503);
    expect(response.headers['retry-after']).toBe('2');
    expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'service_unavailable' }, IsSuccess: false });
    expect(response.body).not.toContain('ECONNREFUSED');
  });

  it('passes an AppError through with its status, headers and details', () => {
    const error = new AppError('conflict', 'taken', {
      details: [{ path: 'ContainerID', message: 'used' }],
      extra: { ManifestID: 'MAN-1' },
    });
    const response = errorResponse(error, container, 'req_abc', silent);
    expect(response.status).toBe(409);
    expect(JSON.parse(response.body)).toEqual({
      error: {
        code: 'conflict',
        message: 'taken',
        details: [{ path: 'ContainerID', message: 'used' }],
        ManifestID: 'MAN-1',
        request_id: 'req_abc',
      },
      IsSuccess: 'false',
    });
    // CORS on every error comes from the app's hook (api-app.ts): asserted end to end (e2e/api/hostile-input.test.ts, http.test.ts).
  });

  it("adds no IsSuccess to the rate operation's errors", () => {
    const response = errorResponse(new AppError('invalid_json', 'bad'), {}, 'req_abc', silent);
    expect(JSON.parse(response.body)).not.toHaveProperty('IsSuccess');
  });
});

describe('requestIdFrom', () => {
  it("keeps a caller's id, and replaces one that is a token or secret sent by mistake", () => {
    expect(requestIdFrom('client-trace-12345')).toBe('client-trace-12345');
    expect(requestIdFrom('order:4711.retry-2')).toBe('order:4711.retry-2');
    for (const id of [
      `ck_live_${'a'.repeat(43)}`,
      `ck_test_${'B'.repeat(43)}`,
      'ck_ops_abcdefgh',
      'whsec_abcdefghij',
      'trace.ck_test_abcdefgh',
      'api_key:abcdefgh',
    ]) {
      expect(requestIdFrom(id)).toMatch(/^req_[0-9a-f]{32}$/);
    }
    expect(requestIdFrom('short')).toMatch(/^req_[0-9a-f]{32}$/);
    expect(requestIdFrom(undefined)).toMatch(/^req_[0-9a-f]{32}$/);
  });
});
