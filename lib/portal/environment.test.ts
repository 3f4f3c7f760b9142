import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseEnvironment, secureCookies } from './environment';

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

describe('the environment switch', () => {
  it('defaults to test, so a new user never touches live data by accident', () => {
    expect(parseEnvironment(undefined)).toBe('test');
    expect(parseEnvironment('LIVE')).toBe('test');
    expect(parseEnvironment('live')).toBe('live');
  });
});
