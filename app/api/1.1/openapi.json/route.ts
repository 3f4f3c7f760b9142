import { randomUUID } from 'node:crypto';
import { corsHeaders } from '@/lib/http/cors';
import { openApiDocument } from '@/lib/openapi/document';

// GET /api/1.1/openapi.json: the API reference, public (no token), CORS *. Wins over the [...path] catch-all;
// the production server hands it to Next too (scripts/server.ts).
function headers(): Record<string, string> {
  return { 'cache-control': 'public, max-age=300', 'x-request-id': randomUUID(), ...corsHeaders('GET, OPTIONS') };
}

export function GET() {
  return new Response(JSON.stringify(openApiDocument()), { headers: { 'content-type': 'application/json', ...headers() } });
}

export function OPTIONS() {
  return new Response(null, { status: 204, headers: headers() });
}
