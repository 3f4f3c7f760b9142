import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '@/lib/errors/app-error';
import { httpStatus } from '@/lib/http/errors';
import { parseEnvironment, requestEnvironment, secureCookies } from './environment';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('portal cookies', () => {
  it('are Secure in production', () => {
    vi.stubEnv('NODE_ENV', 'production');
    vi.stubEnv('COOKIE_SECURE', '');
    expect(secureCookies()).toBe(true);
  });

  it('are not Secure in development, where the portal runs over plain http', () => {
    vi.stubEnv('NODE_ENV', 'development');
    vi.stubEnv('COOKIE_SECURE', '');
    expect(secureCookies()).toBe(false);
  });

  it('follow an explicit COOKIE_SECURE either way', () => {
    vi.stubEnv('NODE_ENV', 'production');
    vi.stubEnv('COOKIE_SECURE', 'false');
    expect(secureCookies()).toBe(false);
    vi.stubEnv('NODE_ENV', 'development');
    vi.stubEnv('COOKIE_SECURE', 'true');
    expect(secureCookies()).toBe(true);
  });
});

describe('the environment last used (the bare-URL redirect)', () => {
  it('defaults to test, so a new browser never lands in live data by accident', () => {
    expect(parseEnvironment(undefined)).toBe('test');
    expect(parseEnvironment('LIVE')).toBe('test');
    expect(parseEnvironment('live')).toBe('live');
  });
});

function refusal(request: Request): AppError {
  try {
    requestEnvironment(request);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('requestEnvironment accepted the request');
}

describe('a portal-api request names its environment', () => {
  const url = 'http://portal.example/portal-api/manifests';

  it('comes from the x-carrier-environment header, whatever the cookie says', () => {
    const request = new Request(url, {
      method: 'POST',
      headers: { 'x-carrier-environment': 'test', cookie: 'carrier_env=live' },
    });
    expect(requestEnvironment(request)).toBe('test');
    expect(requestEnvironment(new Request(url, { method: 'DELETE', headers: { 'x-carrier-environment': 'live' } }))).toBe('live');
  });

  it('is refused with 400 environment_required when missing, even with a cookie', () => {
    const error = refusal(new Request(url, { method: 'POST', headers: { cookie: 'carrier_env=live' } }));
    expect(httpStatus(error)).toBe(400);
    expect(error.code).toBe('environment_required');
    expect(error.message).toMatch(/x-carrier-environment/);
    expect(refusal(new Request(url)).code).toBe('environment_required');
  });

  it('is refused with 400 when it is anything but test or live', () => {
    for (const value of ['LIVE', 'prod', '', 'tést', 'test,live', 'test live']) {
      const error = refusal(new Request(url, { method: 'POST', headers: { 'x-carrier-environment': value } }));
      expect([httpStatus(error), error.code], value).toEqual([400, 'environment_required']);
    }
    expect(httpStatus(refusal(new Request(`${url}?environment=%00`)))).toBe(400);
  });

  it('may come from ?environment= on a GET (a download link), never on a mutation', () => {
    expect(requestEnvironment(new Request(`${url}/MAN-1/export?environment=live`))).toBe('live');
    expect(requestEnvironment(new Request(`${url}?environment=test`, { method: 'HEAD' }))).toBe('test');
    expect(refusal(new Request(`${url}?environment=test`, { method: 'POST' })).code).toBe('environment_required');
  });

  it('is refused when the header and the query disagree', () => {
    const error = refusal(new Request(`${url}?environment=live`, { headers: { 'x-carrier-environment': 'test' } }));
    expect([httpStatus(error), error.message]).toEqual([400, expect.stringMatching(/disagree/)]);
    expect(requestEnvironment(new Request(`${url}?environment=test`, { headers: { 'x-carrier-environment': 'test' } }))).toBe(
      'test',
    );
  });

  it('is refused when the query names it twice, agreeing with the header or not', () => {
    for (const [query, header] of [
      ['environment=live&environment=test', null],
      ['environment=test&environment=live', 'test'],
      ['environment=test&environment=test', null],
    ] as const) {
      const error = refusal(new Request(`${url}?${query}`, header ? { headers: { 'x-carrier-environment': header } } : {}));
      expect([httpStatus(error), error.code, error.message], query).toEqual([
        400,
        'environment_required',
        expect.stringMatching(/more than once/),
      ]);
    }
  });
});
