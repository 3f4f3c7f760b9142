import { createApiToken } from '@/lib/accounts/create-api-token';
import { listApiTokens } from '@/lib/accounts/list-api-tokens';
import { jsonResponse, portalRoute, readBody } from '@/lib/portal/route';
import { ZCreateTokenRequest } from '@/lib/schemas/portal';
import type { TApiTokenListResponse, TCreatedApiTokenResponse } from '@/lib/schemas/portal-responses';

// GET /portal-api/tokens: the account's tokens in the selected environment, with their scopes and creators.
export const GET = portalRoute(
  async ({ accountId, environment }): Promise<TApiTokenListResponse> => ({
    tokens: (await listApiTokens({ accountId, environment })).map((row) => ({
      ...row,
      createdAt: row.createdAt.toISOString(),
      lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
      revokedAt: row.revokedAt?.toISOString() ?? null,
    })),
  }),
  { permission: 'tokens:manage' },
);

// POST /portal-api/tokens: a new token in the selected environment, full access or the scopes chosen, made by the
// signed-in user; the plain token is in this answer only.
export const POST = portalRoute(
  async ({ request, user, accountId, environment, origin }) => {
    const { name, scopes } = await readBody(request, ZCreateTokenRequest);
    const created = await createApiToken({ accountId, environment, name, scopes, createdByUserId: user.id, origin });
    const body: TCreatedApiTokenResponse = { ...created, createdAt: created.createdAt.toISOString() };
    return jsonResponse(body, { status: 201 });
  },
  { permission: 'tokens:manage', audited: true },
);
