import { env } from '@/lib/env';
import { AppError, validationError } from '@/lib/errors/app-error';
import { corsHeaders } from '@/lib/http/cors';
import { errorAnswer } from '@/lib/http/errors';
import { newRequestId } from '@/lib/http/request-id';
import { webRequestClient } from '@/lib/http/request-client';
import { log } from '@/lib/log';
import { ZPublicTrackingResponse } from '@/lib/schemas/public-tracking';
import { admitTrackingLookup } from '@/lib/tracking/admit-lookup';
import { findTrackedPackage } from '@/lib/tracking/find-tracked-package';

// A Next route handler, not an API operation: the operations' pipeline (lib/http/api-app.ts) authenticates a token
// before anything else and knows no caller without one, and this answers anyone (docs/decisions/public-tracking.md).

const ALLOW = 'GET, HEAD, OPTIONS';

function headers(requestId: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    'x-robots-tag': 'noindex',
    'referrer-policy': 'no-referrer',
    'x-request-id': requestId,
    ...corsHeaders(ALLOW),
  };
}

function answer(requestId: string, error: unknown): Response {
  const { status, headers: extra, body } = errorAnswer(error, requestId, log);
  return new Response(JSON.stringify(body), { status, headers: { ...headers(requestId), ...extra } });
}

// GET /api/track/{tracking number or carrier barcode}?postal_code=: the public tracking page as JSON, for anyone holding
// the number; counted per client address (429 with Retry-After), the same 404 for whatever is not one live package.
export async function GET(request: Request, context: { params: Promise<{ id: string }> }) {
  const requestId = newRequestId();
  try {
    await admitTrackingLookup(webRequestClient(request.headers).address);
    const { id } = await context.params;
    const lookup = await findTrackedPackage({ id, postalCode: new URL(request.url).searchParams.get('postal_code') });
    switch (lookup.outcome) {
      case 'found': {
        const body = env().API_RESPONSE_CHECK === 'on' ? ZPublicTrackingResponse.parse(lookup.tracking) : lookup.tracking;
        return new Response(JSON.stringify(body), { status: 200, headers: headers(requestId) });
      }
      case 'needs_postal_code':
        throw validationError([
          {
            path: 'postal_code',
            message: 'is required with a tracking number (the destination postal code); a carrier barcode needs none',
          },
        ]);
      case 'ambiguous':
        throw new AppError(
          'conflict',
          'More than one package has this tracking number and postal code; look it up by the carrier barcode (CB…) on its label.',
        );
      case 'not_found':
        throw new AppError('not_found', 'No package matches this tracking number and postal code, or this carrier barcode.');
    }
  } catch (error) {
    return answer(requestId, error);
  }
}

export function OPTIONS() {
  return new Response(null, { status: 204, headers: headers(newRequestId()) });
}

function methodNotAllowed(request: Request): Response {
  return answer(
    newRequestId(),
    new AppError('method_not_allowed', `${request.method} is not allowed here; use ${ALLOW}.`, { allowed: ALLOW }),
  );
}

export { methodNotAllowed as POST, methodNotAllowed as PUT, methodNotAllowed as PATCH, methodNotAllowed as DELETE };
