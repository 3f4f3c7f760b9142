import { secureCookies } from '@/lib/auth/cookies';
import { env } from '@/lib/env';
import { AppError, validationError } from '@/lib/errors/app-error';
import { errorAnswer } from '@/lib/http/errors';
import { newRequestId } from '@/lib/http/request-id';
import { webRequestClient } from '@/lib/http/request-client';
import { log } from '@/lib/log';
import { admitPackageAttempt, admitReturnAttempt, countWrongAnswer, packageKeys } from '@/lib/returns/admit-public-return';
import { publicReturnCandidates, returnCookieName, startPublicReturn } from '@/lib/returns/public-returns';
import { isCarrierBarcode, normalizeCarrierBarcode } from '@/lib/schemas/carrier-barcode';
import { ZPublicReturnResponse, type TPublicReturnResponse } from '@/lib/schemas/public-returns';
import { admitTrackingLookup } from '@/lib/tracking/admit-lookup';
import { plausiblePostalCode } from '@/lib/tracking/postal-code';

// POST /api/track/{tracking number or carrier barcode}/return: a recipient starts a return from the public tracking
// page (docs/decisions/returns.md "From the public tracking page"), proving they hold the parcel by its destination
// postal code. The page's form (application/x-www-form-urlencoded) is sent back to the page (303), with the label's
// grant in a cookie for that browser only; a JSON client gets the answer and a label_url of its own. Same-origin only:
// no CORS, a browser's Origin must be this host, and a form without one is refused.

const BODY_MAX_BYTES = 16_384;

function json(status: number, body: unknown, requestId: string, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      'x-robots-tag': 'noindex',
      'referrer-policy': 'no-referrer',
      'x-request-id': requestId,
      ...extra,
    },
  });
}

/**
 * A cross-site form or script cannot start a return in a visitor's name (the answer would set a cookie for it). A
 * browser says where a request comes from in Sec-Fetch-Site, which no page can set: only `same-origin` passes. The
 * tracking page's `Referrer-Policy: no-referrer` makes browsers send `Origin: null` with its own form, so Origin decides
 * only without Sec-Fetch-Site (older browsers): it must then be this host. A client sending neither is no browser and
 * may send JSON, which no other site's page can send here without a preflight this route never grants.
 */
function assertSameSite(request: Request, form: boolean): void {
  const refuse = () => new AppError('forbidden', 'Cross-site request refused: start the return on the tracking page.');
  const origin = request.headers.get('origin');
  const site = request.headers.get('sec-fetch-site');
  const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host');
  const ours = origin !== null && URL.canParse(origin) && host !== null && new URL(origin).host === host;
  if (site !== null) {
    if (site !== 'same-origin' || (origin !== null && origin !== 'null' && !ours)) throw refuse();
    return;
  }
  if (origin === null && !form) return;
  if (!ours) throw refuse();
}

/** The body, read no further than the limit: a chunked body has no Content-Length to refuse it by. */
async function cappedText(request: Request): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body?.getReader();
  if (!reader) return '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > BODY_MAX_BYTES) {
      await reader.cancel();
      throw new AppError('payload_too_large', `The body is over ${BODY_MAX_BYTES} bytes.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function readPostalCode(request: Request, form: boolean): Promise<string> {
  if (Number(request.headers.get('content-length') ?? 0) > BODY_MAX_BYTES)
    throw new AppError('payload_too_large', `The body is over ${BODY_MAX_BYTES} bytes.`);
  const text = await cappedText(request);
  let value: unknown;
  if (form) value = new URLSearchParams(text).get('postal_code');
  else {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new AppError('invalid_json', 'The body is not valid JSON.');
    }
    value =
      typeof body === 'object' && body !== null && !Array.isArray(body)
        ? (body as Record<string, unknown>).postal_code
        : undefined;
  }
  if (typeof value !== 'string' || value.trim() === '')
    throw validationError([{ path: 'postal_code', message: 'is required: the postal code on the parcel’s label' }]);
  // Shape only (no lookup yet): NUL, lone surrogates, markup and overlong input are refused here, the same for any package.
  if (!plausiblePostalCode(value.trim()))
    throw validationError([
      { path: 'postal_code', message: 'must be a postal code as on the label: 3 to 10 letters or digits, spaces or hyphens' },
    ]);
  return value.trim();
}

export async function POST(request: Request, context: { params: Promise<{ id: string }> }) {
  const requestId = newRequestId();
  const { id } = await context.params;
  const type = (request.headers.get('content-type') ?? '').toLowerCase();
  const form = type.startsWith('application/x-www-form-urlencoded');
  // The page to go back to: the package's, by carrier barcode, or the tracking form (the id is never echoed otherwise).
  const page = isCarrierBarcode(id.trim()) ? `/track/${normalizeCarrierBarcode(id.trim())}` : '/track';
  const back = (outcome: string, extra: Record<string, string> = {}) =>
    new Response(null, {
      status: 303,
      headers: { location: `${page}?return=${outcome}`, 'cache-control': 'no-store', 'x-request-id': requestId, ...extra },
    });
  try {
    if (!form && !type.startsWith('application/json'))
      throw new AppError('unsupported_media_type', 'Send the postal code as application/json or as a form.');
    assertSameSite(request, form);
    const client = webRequestClient(request.headers);
    await admitTrackingLookup(client.address);
    await admitReturnAttempt(client.address);
    const postalCode = await readPostalCode(request, form);
    const candidates = await publicReturnCandidates(id);
    const keys = packageKeys(
      id,
      candidates.map((c) => c.carrier_barcode),
    );
    await admitPackageAttempt(keys);
    const outcome = await startPublicReturn({
      candidates,
      postalCode,
      origin: {
        actor: { kind: 'system' },
        address: client.address,
        userAgent: request.headers.get('user-agent')?.slice(0, 300) ?? null,
      },
    });
    if (outcome.outcome === 'not_found') {
      await countWrongAnswer(keys);
      throw new AppError(
        'not_found',
        'No parcel that can be returned here matches this number and postal code. Check the postal code on the label.',
      );
    }
    const labelPath = `/api/track/${outcome.originalBarcode}/return/label`;
    if (form) {
      const cookie = [
        `${returnCookieName(outcome.originalBarcode)}=${outcome.grant}`,
        'Path=/',
        'Max-Age=3600',
        'HttpOnly',
        'SameSite=Strict',
        ...(secureCookies() ? ['Secure'] : []),
      ].join('; ');
      return new Response(null, {
        status: 303,
        headers: {
          location: `/track/${outcome.originalBarcode}?return=made`,
          'cache-control': 'no-store',
          'x-request-id': requestId,
          'set-cookie': cookie,
        },
      });
    }
    const body: TPublicReturnResponse = {
      object: 'public_return',
      carrier_barcode: outcome.originalBarcode,
      return_tracking_number: outcome.trackingNumber,
      label_url: `${labelPath}?grant=${outcome.grant}`,
    };
    return json(
      outcome.created ? 201 : 200,
      env().API_RESPONSE_CHECK === 'on' ? ZPublicReturnResponse.parse(body) : body,
      requestId,
    );
  } catch (error) {
    if (form && error instanceof AppError && error.code !== 'forbidden' && error.code !== 'payload_too_large') {
      if (error.code === 'rate_limited') return back('limited', { 'retry-after': String(error.retryAfterSeconds ?? 60) });
      if (error.code === 'validation_failed') return back('invalid');
      if (error.code === 'not_found') return back('wrong');
      if (error.code === 'not_returnable') return back('unavailable');
    }
    const { status, headers, body } = errorAnswer(error, requestId, log);
    return json(status, body, requestId, headers);
  }
}
