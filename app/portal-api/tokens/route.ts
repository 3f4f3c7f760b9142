import { createApiToken } from '@/lib/accounts/create-api-token';
import { listApiTokens } from '@/lib/accounts/list-api-tokens';
import { jsonResponse, portalRoute, readBody } from '@/lib/portal/route';
import { ZCreateTokenRequest } from '@/lib/schemas/portal';

// GET /portal-api/tokens: the account's tokens in the selected environment.
export const GET = portalRoute(async ({ accountId, environment }) => ({
  tokens: await listApiTokens({ accountId, environment }),
}));

// POST /portal-api/tokens: a new token in the selected environment; the plain token is in this answer only.
export const POST = portalRoute(async ({ request, accountId, environment }) => {
  const { name } = await readBody(request, ZCreateTokenRequest);
  return jsonResponse(await createApiToken({ accountId, environment, name }), { status: 201 });
});
