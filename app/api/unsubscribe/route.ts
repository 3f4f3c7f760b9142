import { AppError } from '@/lib/errors/app-error';
import { errorAnswer } from '@/lib/http/errors';
import { newRequestId } from '@/lib/http/request-id';
import { webRequestClient } from '@/lib/http/request-client';
import { log } from '@/lib/log';
import { unsubscribe } from '@/lib/recipient-mail/unsubscribe';
import { admitTrackingLookup } from '@/lib/tracking/admit-lookup';

const FORM_MAX_BYTES = 4_096;

function json(status: number, body: unknown, requestId: string, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-request-id': requestId, ...extra },
  });
}

// POST /api/unsubscribe: a recipient mail's unsubscribe, without an account. A mail client's one-click POST (RFC 8058:
// ?token= in the List-Unsubscribe address, a List-Unsubscribe=One-Click body) is answered 200; the /unsubscribe page's
// form (token in the body) is sent back to the page, which says it is done. Counted per client address with the
// tracking lookups.
export async function POST(request: Request) {
  const requestId = newRequestId();
  try {
    await admitTrackingLookup(webRequestClient(request.headers).address);
    const inQuery = new URL(request.url).searchParams.get('token');
    let token = inQuery ?? '';
    if (inQuery === null) {
      if (Number(request.headers.get('content-length') ?? 0) > FORM_MAX_BYTES)
        throw new AppError('payload_too_large', `The form is over ${FORM_MAX_BYTES} bytes.`);
      const text = await request.text();
      token = text.length > FORM_MAX_BYTES ? '' : (new URLSearchParams(text).get('token') ?? '');
    }
    const done = await unsubscribe(token);
    if (inQuery !== null) {
      if (!done) throw new AppError('not_found', 'This unsubscribe link is not valid.');
      return json(200, { unsubscribed: true }, requestId);
    }
    return new Response(null, {
      status: 303,
      headers: {
        location: done ? '/unsubscribe?done=1' : '/unsubscribe',
        'cache-control': 'no-store',
        'x-request-id': requestId,
      },
    });
  } catch (error) {
    const { status, headers, body } = errorAnswer(error, requestId, log);
    return json(status, body, requestId, headers);
  }
}

// GET /api/unsubscribe?token=: a mail client that opens the List-Unsubscribe address instead of posting to it gets
// the page with the button (opening a link must change nothing).
export function GET(request: Request) {
  const token = new URL(request.url).searchParams.get('token') ?? '';
  const target = token ? `/unsubscribe?${new URLSearchParams({ token: token.slice(0, 64) })}` : '/unsubscribe';
  return new Response(null, { status: 303, headers: { location: target, 'cache-control': 'no-store' } });
}
