import { AppError } from '@/lib/errors/app-error';
import { apiHeaders } from './cors';
import { errorBody } from './errors';
import { requestIdFrom } from './request-id';

const API_HEADERS = Object.freeze(apiHeaders('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS'));

/**
 * Next route handlers for every path under a prefix that no route of its own answers: the 404 envelope, never Next's
 * HTML page (a mistyped version, `/api/1.0/wf/rate`, or dot segments that leave the contract's paths). `api` answers
 * are the API's own: its CORS and security headers, the client's X-Request-Id when it may be echoed, and every
 * OPTIONS a 204 preflight (a browser refuses a failed preflight without showing its body, so the 404 comes after).
 */
export function notFoundRoute(kind: 'api' | 'portal-api') {
  const notFound = (request: Request): Response => {
    const requestId = requestIdFrom(request.headers.get('x-request-id'));
    if (kind === 'api' && request.method === 'OPTIONS')
      return new Response(null, {
        status: 204,
        headers: { ...API_HEADERS, 'x-request-id': requestId, 'content-length': '0' },
      });
    const path = new URL(request.url).pathname;
    const what = kind === 'api' ? 'API operation' : 'portal API operation';
    const body = errorBody(new AppError('not_found', `No ${what} at ${path.slice(0, 200)}.`), requestId);
    const headers: Record<string, string> =
      kind === 'api' ? { ...API_HEADERS, 'x-request-id': requestId } : { 'x-request-id': requestId, 'cache-control': 'no-store' };
    return Response.json(body, { status: 404, headers });
  };
  return { GET: notFound, POST: notFound, PUT: notFound, PATCH: notFound, DELETE: notFound, OPTIONS: notFound };
}
