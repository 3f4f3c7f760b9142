import { randomUUID } from 'node:crypto';
import { AppError } from '@/lib/errors/app-error';
import { errorBody, errorHeaders, httpStatus } from '@/lib/http/errors';

// The probes take GET and HEAD only; the production server (server-probes.ts) and `next start`'s route handlers refuse
// another method with this one answer, the API's envelope, rather than Next's bare 405.

export function probeMethodError(method: string): AppError {
  return new AppError('method_not_allowed', `${method} is not allowed here; use GET, HEAD.`, { allowed: 'GET, HEAD' });
}

export function probeMethodNotAllowed(request: Request): Response {
  return errorAnswer(probeMethodError(request.method));
}

// Not served under `next start`: the production server serves metrics.
export function metricsNotServed(): Response {
  return errorAnswer(
    new AppError(
      'not_found',
      'No metrics here: `next start` does not serve them; the production server (npm start) does, on METRICS_PORT or at /metrics with METRICS_TOKEN set.',
    ),
  );
}

function errorAnswer(error: AppError): Response {
  const requestId = `req_${randomUUID().replaceAll('-', '')}`;
  return Response.json(errorBody(error, requestId), {
    status: httpStatus(error),
    headers: { 'cache-control': 'no-store', 'x-request-id': requestId, ...errorHeaders(error) },
  });
}
