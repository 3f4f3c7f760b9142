import 'server-only';
import { contentDisposition, fileBytes } from '@/lib/http/file-body';
import { isSpilled } from '@/lib/documents/spilled-document';
import { API_SECURITY_HEADERS } from '@/lib/http/security-headers';
import { checkedHandler, type OperationDefinition } from '@/lib/api/operation';
import { AppError } from '@/lib/errors/app-error';
import { env } from '@/lib/env';
import type { RouteAccess } from '@/lib/teams/permissions';
import { jsonResponse, portalRoute, readJson } from './route';

// Runs the API's own operation behind the session, so a resource has one shape (status, JSON or bytes) in both places.
export function portalOperation<P extends Record<string, string>>(
  operation: OperationDefinition,
  options: { permission: RouteAccess; audited?: boolean },
) {
  return portalRoute<P>(async ({ request, user, accountId, environment, params, requestId, origin }) => {
    if (operation.testOnly && environment !== 'test')
      throw new AppError('not_found', 'The simulator exists in the test environment only.');
    const handler = env().API_RESPONSE_CHECK === 'on' ? checkedHandler(operation) : operation.handler;
    const result = await handler({
      environment,
      // Named by what it is, as an ops token's `ops:…`; scopes are a token's, and the portal decides what a user may do.
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
    const { bytes } = result.file;
    // A spilled document is read whole here (as the render's bytes were before): the API's own server sends it from its
    // file a piece at a time, and a web stream would read ahead of what has been sent.
    const body = bytes instanceof ReadableStream ? bytes : fileBytes(isSpilled(bytes) ? await bytes.bytes() : bytes);
    return new Response(body, {
      headers: {
        ...API_SECURITY_HEADERS,
        ...(bytes instanceof ReadableStream ? { 'cache-control': 'no-store' } : {}),
        'content-type': result.file.contentType,
        'content-disposition': contentDisposition(result.file),
      },
    });
  }, options);
}
