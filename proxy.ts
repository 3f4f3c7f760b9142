import { NextResponse, type NextRequest } from 'next/server';
import { webRequestClient } from '@/lib/http/request-client';
import { HSTS } from '@/lib/http/security-headers';

// Portal pages get a Content-Security-Policy with a fresh nonce per request: Next puts the nonce on
// its own scripts, so no inline script runs without it ('unsafe-inline' is never allowed for
// scripts). The API paths are not matched: they answer JSON, not documents.
export function proxy(request: NextRequest) {
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
  // Over TLS (as our own socket, a trusted proxy or HTTPS_ONLY says): browsers keep to HTTPS from now on.
  if (webRequestClient(request.headers).secure) response.headers.set('strict-transport-security', HSTS);
  return response;
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
