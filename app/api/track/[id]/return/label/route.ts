import { cookies } from 'next/headers';
import { loadDocumentLabel } from '@/lib/documents/load-documents';
import { renderPool } from '@/lib/documents/render-pool';
import { AppError } from '@/lib/errors/app-error';
import { errorAnswer } from '@/lib/http/errors';
import { newRequestId } from '@/lib/http/request-id';
import { webRequestClient } from '@/lib/http/request-client';
import { log } from '@/lib/log';
import { findPublicReturnGrant, returnCookieName } from '@/lib/returns/public-returns';
import { admitTrackingLookup } from '@/lib/tracking/admit-lookup';

// GET /api/track/{carrier barcode}/return/label: the return label (PDF) of a return started on the public page, for the
// request that proved it holds the parcel only: its grant, from the cookie the form's answer set or from the JSON
// answer's label_url (?grant=). The label names both addresses, so the tracking number alone opens nothing: 404.
export async function GET(request: Request, context: { params: Promise<{ id: string }> }) {
  const requestId = newRequestId();
  try {
    await admitTrackingLookup(webRequestClient(request.headers).address);
    const barcode = (await context.params).id.trim().toUpperCase();
    const grant = new URL(request.url).searchParams.get('grant') ?? (await cookies()).get(returnCookieName(barcode))?.value ?? '';
    const found = await findPublicReturnGrant({ grant, originalBarcode: barcode });
    if (!found) throw new AppError('not_found', 'No return label here: start the return on the tracking page.');
    const label = await loadDocumentLabel({
      accountId: found.accountId,
      environment: 'live',
      trackingNumber: found.returnTrackingNumber,
    });
    const ticket = renderPool().admit(found.accountId);
    let bytes: Uint8Array;
    try {
      bytes = await ticket.render(() => Promise.resolve({ document: 'label', label, format: 'pdf' }));
    } finally {
      ticket.release();
    }
    return new Response(Buffer.from(bytes), {
      status: 200,
      headers: {
        'content-type': 'application/pdf',
        'content-disposition': `attachment; filename="${found.returnTrackingNumber.replace(/[^A-Za-z0-9-]/g, '')}-label.pdf"`,
        'cache-control': 'no-store',
        'x-robots-tag': 'noindex',
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
        'x-request-id': requestId,
      },
    });
  } catch (error) {
    const { status, headers, body } = errorAnswer(error, requestId, log);
    return new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-request-id': requestId, ...headers },
    });
  }
}
