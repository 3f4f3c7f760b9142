import { NextResponse, type NextRequest } from 'next/server';
import { secureCookies } from '@/lib/auth/cookies';
import { processSettings } from '@/lib/env';
import { bareToEnvironmentPath, ENV_COOKIE, environmentOfPath, isEnvironment } from '@/lib/portal/paths';
import { webRequestClient } from '@/lib/http/request-client';
import { HSTS } from '@/lib/http/security-headers';
import { AppError } from '@/lib/errors/app-error';
import { errorBody, errorHeaders } from '@/lib/http/errors';
import { portalApiMethodRefusal } from '@/lib/portal/api-routes';
import { hasMalformedEscape, MALFORMED_PATH_HEADER, MALFORMED_PATH_ROUTE } from '@/lib/http/path-params';
import { admitTrackingLookup } from '@/lib/tracking/admit-lookup';

// Portal pages get a Content-Security-Policy with a fresh nonce per request: Next puts the nonce on
// its own scripts, so no inline script runs without it ('unsafe-inline' is never allowed for
// scripts). The API paths are not matched: they answer JSON, not documents.
//
// The portal's environment is in its URLs (/test/…, /live/…). A bare portal URL (/dashboard,
// /manifests/new?…: old bookmarks, the sign-in redirect) goes to the same page in the environment last
// used in this browser, which the `carrier_env` cookie remembers; that memory is all the cookie is.
export async function proxy(request: NextRequest) {
  const refused = malformedPath(request) ?? methodNotAllowed(request) ?? (await tooManyLookups(request));
  if (refused) return refused;
  const { pathname, search } = request.nextUrl;
  // The API's paths come here only for that check (see the matcher): no page headers on JSON.
  if (/^\/(?:api|version-test)\//.test(pathname)) return NextResponse.next();
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
  const dev = processSettings().NODE_ENV === 'development';
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

/**
 * A path Next's router cannot percent-decode (`/webhooks/%ZZ`) would be its own bare 500 before any
 * handler of ours runs. The API's go to a static route that answers them through the pipeline
 * (lib/http/path-params.ts); the portal-api's get the 404 envelope here; pages a plain 400 (such an
 * address can name no page).
 */
function malformedPath(request: NextRequest): NextResponse | undefined {
  const { pathname } = request.nextUrl;
  if (!hasMalformedEscape(pathname)) return undefined;
  if (/^\/(?:api|version-test)\//.test(pathname)) {
    const url = request.nextUrl.clone();
    url.pathname = MALFORMED_PATH_ROUTE;
    const headers = new Headers(request.headers);
    headers.set(MALFORMED_PATH_HEADER, pathname);
    return NextResponse.rewrite(url, { request: { headers } });
  }
  const requestId = `req_${crypto.randomUUID().replaceAll('-', '')}`;
  const headers = { 'x-request-id': requestId, 'cache-control': 'no-store' };
  if (pathname.startsWith('/portal-api/')) {
    const error = new AppError('not_found', 'Nothing exists at this path: it has a malformed percent-escape.');
    return NextResponse.json(errorBody(error, requestId), { status: 404, headers });
  }
  return new NextResponse('Bad request: the address has a malformed percent-escape.', {
    status: 400,
    headers: { ...headers, 'content-type': 'text/plain; charset=utf-8' },
  });
}

/** A method a portal API route does not answer: the 405 envelope with Allow (Next's own 405 has no body). */
function methodNotAllowed(request: NextRequest): NextResponse | undefined {
  const { pathname } = request.nextUrl;
  if (!pathname.startsWith('/portal-api/')) return undefined;
  const error = portalApiMethodRefusal(request.method, pathname);
  if (!error) return undefined;
  const requestId = `req_${crypto.randomUUID().replaceAll('-', '')}`;
  return NextResponse.json(errorBody(error, requestId), {
    status: 405,
    headers: { 'x-request-id': requestId, 'cache-control': 'no-store', ...errorHeaders(error) },
  });
}

/**
 * The public tracking pages that look something up (/track/{number}, /track/test/{barcode}, /unsubscribe) are counted per client address
 * before they render, since a page cannot answer 429 itself: past the limit, a small page of its own with Retry-After
 * (lib/tracking/admit-lookup.ts; docs/decisions/public-tracking.md).
 */
async function tooManyLookups(request: NextRequest): Promise<NextResponse | undefined> {
  if (!/^\/(?:track\/(?:test\/)?[^/]+|unsubscribe)\/?$/.test(request.nextUrl.pathname)) return undefined;
  try {
    await admitTrackingLookup(webRequestClient(request.headers).address);
    return undefined;
  } catch (error) {
    if (!(error instanceof AppError) || error.retryAfterSeconds === undefined) throw error;
    const seconds = error.retryAfterSeconds;
    const wait = seconds < 60 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;
    const page =
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
      '<meta name="robots" content="noindex, nofollow"><title>Too many lookups · Carrier</title>' +
      '<style>body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f8fafc;color:#0f172a}' +
      'main{max-width:32rem;margin:0 auto;padding:3rem 1rem}p.brand{font-weight:600;color:#1d4ed8;font-size:1.125rem}' +
      'h1{font-size:1.5rem;margin:.5rem 0}p{line-height:1.5;color:#334155}a{color:#1d4ed8;font-weight:500}</style></head>' +
      `<body><main><p class="brand">Carrier</p><h1>Too many lookups</h1><p>This network has looked up many packages in the last minute. Try again in ${wait}.</p>` +
      '<p><a href="/track">Back to package tracking</a></p></main></body></html>';
    return new NextResponse(page, {
      status: 429,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'retry-after': String(seconds),
        'cache-control': 'no-store',
        'x-robots-tag': 'noindex',
        'content-security-policy':
          "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
      },
    });
  }
}

export const config = {
  matcher: [
    {
      source: '/((?!api/|version-test/|_next/static|_next/image|favicon.ico|healthz$|readyz$).*)',
      missing: [
        { type: 'header', key: 'next-router-prefetch' },
        { type: 'header', key: 'purpose', value: 'prefetch' },
      ],
    },
    // The API only when its path has a percent-escape, which may be one Next cannot decode (above).
    { source: '/api/:rest(.*%.*)' },
    { source: '/version-test/:rest(.*%.*)' },
  ],
};
