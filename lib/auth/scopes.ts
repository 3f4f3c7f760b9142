import { AppError } from '@/lib/errors/app-error';

// The one list of scopes (docs/decisions/scopes.md); not server-only, as the portal's token form lists them. A token has
// full access (later scopes included) or exactly its scopes, and no scope implies another: a 403 names the one missing
// scope, and a token given that scope alone can call the route.

export const API_SCOPES = [
  'rates',
  'manifests:read',
  'manifests:write',
  'webhooks',
  'events:read',
  'requests:read',
  'billing:read',
] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export const SCOPE_DESCRIPTIONS: Readonly<Record<ApiScope, string>> = {
  rates: 'Quote rates (POST /wf/rate).',
  'manifests:read':
    'Read manifests, packages and their tracking events, and download their documents (handover manifests, tags, labels).',
  'manifests:write':
    'Create container and package manifests, cancel manifests and packages, close daily manifests, and run the test simulator.',
  webhooks: 'Manage webhook endpoints: create, change, delete, rotate secrets, send test events, read and redeliver deliveries.',
  'events:read': 'Read the webhook events (GET /events, what npm run listen polls).',
  'requests:read': 'Read the request log (GET /requests): every request of the account with both bodies.',
  'billing:read':
    'Read invoices (GET /invoices, their lines as CSV and their PDF), and on the test path close the open period now (POST /invoices/close).',
};

// No shipper token calls the carrier's own operations, whatever its scopes.
export const CARRIER_OPERATIONS = 'carrier:operations' as const;
export type RouteScope = ApiScope | typeof CARRIER_OPERATIONS;

export function isApiScope(value: string): value is ApiScope {
  return (API_SCOPES as readonly string[]).includes(value);
}

// A name no longer in API_SCOPES grants nothing.
export function grantedScopes(row: { fullAccess: boolean; scopes: readonly string[] }): ReadonlySet<ApiScope> | null {
  if (row.fullAccess) return null;
  return new Set(row.scopes.filter(isApiScope));
}

export function assertScope(granted: ReadonlySet<ApiScope> | null, required: ApiScope, operation: string): void {
  if (granted === null || granted.has(required)) return;
  throw new AppError(
    'insufficient_scope',
    `This token lacks the "${required}" scope, which ${operation} needs. Create a token with it under API tokens in the portal.`,
    {
      extra: { required_scope: required, token_scopes: API_SCOPES.filter((scope) => granted.has(scope)) },
    },
  );
}
