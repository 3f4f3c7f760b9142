import 'server-only';
import { contentDisposition, fileBytes } from '@/lib/http/file-body';
import { API_SECURITY_HEADERS } from '@/lib/http/security-headers';
import { checkedHandler, type OperationDefinition } from '@/lib/api/operation';
import { AppError } from '@/lib/errors/app-error';
import { env } from '@/lib/env';
import type { RouteAccess } from '@/lib/teams/permissions';
import { jsonResponse, portalRoute, readJson } from './route';

/**
 * A portal-api route that runs one of the API's own operations (lib/api/operations) for the signed-in account in
 * the page's environment: the same code and the same answer (status, JSON shape, or bytes, type and file name) as
 * the API's route, so a resource has one shape (the webhooks, the documents). The session stands where a token
 * would, behind portalRoute's session, CSRF and environment checks; its query (?format=, ?limit=), Accept header
 * and JSON body reach the operation as the API's would. A 204 answers with no body, as the API's does.
 */
export function portalOperation<P extends Record<string, string>>(
  operation: OperationDefinition,
  options: { permission: RouteAccess; audited?: boolean },
) {
  return portalRoute<P>(async ({ request, user, accountId, environment, params, requestId, origin }) => {
    // As on the API's live path, the simulator does not exist outside the test environment.
    if (operation.testOnly && environment !== 'test')
      throw new AppError('not_found', 'The simulator exists in the test environment only.');
    const handler = env().API_RESPONSE_CHECK === 'on' ? checkedHandler(operation) : operation.handler;
    const result = await handler({
      environment,
      // Like an ops token's `ops:…`, the portal's caller is named by what it is: a user's session. Scopes are a
      // token's; what a signed-in user may do is the portal's to decide.
      auth: { accountId, environment, tokenId: `portal:${user.id}`, scopes: null },
      params,
      query: new URL(request.url).searchParams,
      search: new URL(request.url).search.slice(1),
      accept: request.headers.get('accept'),
      requestId,
      origin,
      // The API's body limit: the container builder sends up to 5,000 packages, as the API takes them.
      json: () => readJson(request, env().API_MAX_BODY_BYTES),
    });
    if (result.status === 204)
      return new Response(null, { status: 204, headers: { 'cache-control': 'no-store', ...result.headers } });
    if (!result.file) return jsonResponse(result.body ?? null, { status: result.status, headers: result.headers });
    return new Response(fileBytes(result.file.bytes), {
      headers: {
        ...API_SECURITY_HEADERS,
        'content-type': result.file.contentType,
        'content-disposition': contentDisposition(result.file),
      },
    });
  }, options);
}
