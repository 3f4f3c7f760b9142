import { NextResponse, type NextRequest } from 'next/server';
import { secureCookies } from '@/lib/portal/cookies';
import { bareToEnvironmentPath, ENV_COOKIE, environmentOfPath, isEnvironment } from '@/lib/portal/paths';
import { webRequestClient } from '@/lib/http/request-client';
import { HSTS } from '@/lib/http/security-headers';

// Portal pages get a Content-Security-Policy with a fresh nonce per request: Next puts the nonce on
// its own scripts, so no inline script runs without it ('unsafe-inline' is never allowed for
// scripts). The API paths are not matched: they answer JSON, not documents.
//
// The portal's environment is in its URLs (/test/…, /live/…). A bare portal URL (/dashboard,
// /manifests/new?…: old bookmarks, the sign-in redirect) goes to the same page in the environment last
// used in this browser, which the `carrier_env` cookie remembers; that memory is all the cookie is.
export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  // A malformed percent-escape (/test/manifests/%E0%A4%A) can name no page; Next would fail decoding it (500).
  if (!decodable(pathname)) {
    return new NextResponse('Bad request: the address has a malformed percent-escape.', {
      status: 400,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
    });
  }
  const remembered = request.cookies.get(ENV_COOKIE)?.value;
  const lastUsed = isEnvironment(remembered) ? remembered : 'test';
  const bare = bareToEnvironmentPath(pathname, lastUsed);
  if (bare) {
    const url = request.nextUrl.clone();
    url.pathname = bare;
    url.search = search;
    return NextResponse.redirect(url, 307);
  }

  const nonce = Buffer.from(crypto.randomUUID()).toString('base64');
  const dev = process.env.NODE_ENV === 'development';
  const policy = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    // React and the chart library set style attributes; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  const headers = new Headers(request.headers);
  headers.set('x-nonce', nonce);
  headers.set('content-security-policy', policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('content-security-policy', policy);
  const environment = environmentOfPath(pathname);
  if (environment && environment !== remembered) {
    response.cookies.set(ENV_COOKIE, environment, {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      maxAge: 365 * 24 * 3600,
      secure: secureCookies(),
    });
  }
  // Over TLS (as our own socket, a trusted proxy or HTTPS_ONLY says): browsers keep to HTTPS from now on.
  if (webRequestClient(request.headers).secure) response.headers.set('strict-transport-security', HSTS);
  return response;
}

function decodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

export const config = {
  matcher: [
    {
      source: '/((?!api/|version-test/|_next/static|_next/image|favicon.ico).*)',
      missing: [
        { type: 'header', key: 'next-router-prefetch' },
        { type: 'header', key: 'purpose', value: 'prefetch' },
      ],
    },
  ],
};
