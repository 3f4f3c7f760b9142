import { NextRequest } from 'next/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { proxy } from '@/proxy';

// proxy.ts: bare portal URLs go to the environment last used; opening /test/… or /live/… remembers it;
// the cookie decides nothing else.

function request(path: string, cookie?: string) {
  return new NextRequest(new URL(path, 'http://portal.example'), { headers: cookie ? { cookie } : {} });
}

describe('the portal proxy', () => {
  // The proxy reads the trusted-proxy settings (HSTS), and lib/env.ts parses the whole environment.
  beforeAll(() => {
    process.env.DATABASE_URL ??= 'postgresql://unused@127.0.0.1:1/unused';
  });

  it('redirects a bare portal URL, query kept, to the environment last used (test without a memory)', async () => {
    const live = await proxy(request('/manifests/new?from=bookmark', 'carrier_env=live'));
    expect(live.status).toBe(307);
    expect(live.headers.get('location')).toBe('http://portal.example/live/manifests/new?from=bookmark');
    const none = await proxy(request('/dashboard'));
    expect(none.headers.get('location')).toBe('http://portal.example/test/dashboard');
    const junk = await proxy(request('/tokens', 'carrier_env=prod'));
    expect(junk.headers.get('location')).toBe('http://portal.example/test/tokens');
  });

  it('remembers the environment of the page opened, and only when it changes', async () => {
    const opened = await proxy(request('/live/webhooks', 'carrier_env=test'));
    expect(opened.status).toBe(200);
    expect(opened.headers.get('set-cookie')).toMatch(/^carrier_env=live;.*HttpOnly/i);
    expect((await proxy(request('/live/webhooks', 'carrier_env=live'))).headers.get('set-cookie')).toBeNull();
    expect((await proxy(request('/sign-in', 'carrier_env=test'))).headers.get('set-cookie')).toBeNull();
    expect((await proxy(request('/testing/x'))).headers.get('set-cookie')).toBeNull();
  });

  it('answers 400, not a 500 from Next, for a malformed percent-escape', async () => {
    for (const path of ['/test/manifests/%E0%A4%A', '/manifests/%E0%A4%A', '/%ZZ']) {
      const response = await proxy(request(path));
      expect(response.status, path).toBe(400);
      expect(await response.text()).toMatch(/malformed percent-escape/);
    }
  });
});
