import { randomUUID } from 'node:crypto';
import { AppError } from '@/lib/errors/app-error';
import { corsHeaders } from '@/lib/http/cors';
import { errorBody, errorHeaders } from '@/lib/http/errors';
import { openApiDocument } from '@/lib/api/openapi/document';

// GET /api/1.1/openapi.json: the API reference, public (no token), CORS *. Wins over the [...path] catch-all;
// the production server hands it to Next too (server/server.ts).
function headers(): Record<string, string> {
  return { 'cache-control': 'public, max-age=300', 'x-request-id': randomUUID(), ...corsHeaders('GET, OPTIONS') };
}

export function GET() {
  return new Response(JSON.stringify(openApiDocument()), { headers: { 'content-type': 'application/json', ...headers() } });
}

export function OPTIONS() {
  return new Response(null, { status: 204, headers: headers() });
}

// Any other method: the 405 envelope with Allow, as every API answer (Next's own 405 has no body).
function methodNotAllowed(request: Request): Response {
  const requestId = `req_${randomUUID().replaceAll('-', '')}`;
  const error = new AppError('method_not_allowed', `${request.method} is not allowed here; use GET, HEAD, OPTIONS.`, {
    allowed: 'GET, HEAD, OPTIONS',
  });
  return Response.json(errorBody(error, requestId), {
    status: 405,
    headers: { ...corsHeaders('GET, OPTIONS'), ...errorHeaders(error), 'x-request-id': requestId },
  });
}

export { methodNotAllowed as POST, methodNotAllowed as PUT, methodNotAllowed as PATCH, methodNotAllowed as DELETE };
