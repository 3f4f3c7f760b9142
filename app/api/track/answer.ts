import { env } from '@/lib/env';
import { AppError, validationError } from '@/lib/errors/app-error';
import { corsHeaders } from '@/lib/http/cors';
import { errorAnswer } from '@/lib/http/errors';
import { newRequestId } from '@/lib/http/request-id';
import { webRequestClient } from '@/lib/http/request-client';
import { log } from '@/lib/log';
import { ZPublicTrackingResponse } from '@/lib/schemas/public-tracking';
import { admitTrackingLookup } from '@/lib/tracking/admit-lookup';
import { findTrackedPackage, type PublicEnvironment } from '@/lib/tracking/find-tracked-package';

// What the public tracking JSON routes share: /api/track/{id} (live packages) and /api/track/test/{id} (test packages,
// by carrier barcode). Next route handlers, not API operations: the operations' pipeline (lib/http/api-app.ts)
// authenticates a token before anything else and knows no caller without one (docs/decisions/public-tracking.md).

const ALLOW = 'GET, HEAD, OPTIONS';

function publicHeaders(requestId: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    'x-robots-tag': 'noindex',
    'referrer-policy': 'no-referrer',
    'x-request-id': requestId,
    ...corsHeaders(ALLOW),
  };
}

function publicError(requestId: string, error: unknown): Response {
  const { status, headers: extra, body } = errorAnswer(error, requestId, log);
  return new Response(JSON.stringify(body), { status, headers: { ...publicHeaders(requestId), ...extra } });
}

/** GET: counted per client address (429 with Retry-After), the same 404 for whatever is not one package of `environment`. */
export async function trackingAnswer(request: Request, id: string, environment: PublicEnvironment): Promise<Response> {
  const requestId = newRequestId();
  try {
    await admitTrackingLookup(webRequestClient(request.headers).address);
    const lookup = await findTrackedPackage({
      id,
      postalCode: new URL(request.url).searchParams.get('postal_code'),
      environment,
    });
    switch (lookup.outcome) {
      case 'found': {
        const body = env().API_RESPONSE_CHECK === 'on' ? ZPublicTrackingResponse.parse(lookup.tracking) : lookup.tracking;
        return new Response(JSON.stringify(body), { status: 200, headers: publicHeaders(requestId) });
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
        throw new AppError(
          'not_found',
          environment === 'test'
            ? 'No test package has this carrier barcode.'
            : 'No package matches this tracking number and postal code, or this carrier barcode.',
        );
    }
  } catch (error) {
    return publicError(requestId, error);
  }
}

export function options(): Response {
  return new Response(null, { status: 204, headers: publicHeaders(newRequestId()) });
}

// Next calls a handler with (request, context): only the request is read.
export function methodNotAllowed(request: Request): Response {
  return publicError(
    newRequestId(),
    new AppError('method_not_allowed', `${request.method} is not allowed here; use ${ALLOW}.`, { allowed: ALLOW }),
  );
}
