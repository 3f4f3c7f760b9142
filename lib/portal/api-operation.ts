import 'server-only';
import { contentDisposition, fileBytes } from '@/lib/http/file-body';
import { API_SECURITY_HEADERS } from '@/lib/http/security-headers';
import type { Operation } from '@/lib/http/types';
import { jsonResponse, portalRoute, readJson } from './route';

/**
 * A portal-api GET route that runs one of the API's own operations (lib/http/operations) for the signed-in
 * account in the page's environment: the same code and the same answer (bytes, type, file name) as the API's
 * route, without a second path to drift. The session stands where a token would; its query (?format=,
 * ?paper=) and Accept header reach the operation as the API's would.
 */
export function portalOperation<P extends Record<string, string>>(operation: Operation) {
  return portalRoute<P>(async ({ request, user, accountId, environment, params, requestId }) => {
    const result = await operation({
      environment,
      // Like an ops token's `ops:…`, the portal's caller is named by what it is: a user's session.
      auth: { accountId, environment, tokenId: `portal:${user.id}` },
      params,
      query: new URL(request.url).searchParams,
      accept: request.headers.get('accept'),
      requestId,
      json: () => readJson(request),
    });
    if (!result.file) return jsonResponse(result.body ?? null, { status: result.status, headers: result.headers });
    return new Response(fileBytes(result.file.bytes), {
      headers: { ...API_SECURITY_HEADERS, 'content-type': result.file.contentType, 'content-disposition': contentDisposition(result.file) },
    });
  });
}
