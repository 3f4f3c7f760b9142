import { randomUUID } from 'node:crypto';
import { AppError } from '@/lib/errors/app-error';
import { errorBody } from '@/lib/http/errors';

// * /portal-api/<anything no route has>: the 404 envelope, never Next's HTML page (every route of its own wins over this one).
function notFound(request: Request): Response {
  const requestId = `req_${randomUUID().replaceAll('-', '')}`;
  const path = new URL(request.url).pathname;
  const body = errorBody(new AppError('not_found', `No portal API operation at ${path.slice(0, 200)}.`), requestId);
  return Response.json(body, { status: 404, headers: { 'x-request-id': requestId, 'cache-control': 'no-store' } });
}

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE, notFound as OPTIONS };
export const dynamic = 'force-dynamic';
