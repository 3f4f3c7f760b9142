import { describe, expect, it } from 'vitest';
import { API_SCOPES, assertScope, CARRIER_OPERATIONS, ROUTE_SCOPES, type ApiScope } from '@/lib/auth/scopes';
import { AppError } from '@/lib/errors/app-error';
import { routeAccess } from './api-steps';
import { apiRoutes, type Route } from './routes';

// The scope table (lib/auth/scopes.ts) against the route table (lib/http/routes.ts): a route added without a scope
// fails here (and the API app refuses to start: routeAccess throws when it mounts the route).

const routeMethods = apiRoutes().flatMap((route) =>
  Object.keys(route.methods).map((method) => ({ route, method, key: `${method} ${route.pattern}` })),
);

describe('the scope table', () => {
  it('names a scope for every method of every API route', () => {
    const missing = routeMethods.filter(({ key }) => !(key in ROUTE_SCOPES)).map(({ key }) => key);
    expect(missing).toEqual([]);
    for (const route of apiRoutes()) expect(() => routeAccess(route)).not.toThrow();
  });

  it('names no route that does not exist', () => {
    const keys = new Set(routeMethods.map(({ key }) => key));
    expect(Object.keys(ROUTE_SCOPES).filter((key) => !keys.has(key))).toEqual([]);
  });

  it('gives the carrier operations routes, and only them, to operations tokens', () => {
    for (const { route, key } of routeMethods) {
      expect(ROUTE_SCOPES[key as keyof typeof ROUTE_SCOPES] === CARRIER_OPERATIONS, key).toBe(route.auth === 'ops');
    }
  });

  it('uses every scope: none of them is a name that opens nothing', () => {
    const used = new Set<string>(Object.values(ROUTE_SCOPES));
    expect(API_SCOPES.filter((scope) => !used.has(scope))).toEqual([]);
  });

  it('refuses to mount a route the table lacks, or one whose entry disagrees with route.auth', () => {
    const noop = () => Promise.resolve({});
    const unknown: Route = { pattern: '/not-in-the-table', methods: { GET: noop } };
    expect(() => routeAccess(unknown)).toThrow(/GET \/not-in-the-table has no scope/);
    const shipperAsOps: Route = { pattern: '/wf/rate', methods: { POST: noop }, auth: 'ops' };
    expect(() => routeAccess(shipperAsOps)).toThrow(/ROUTE_SCOPES says rates, route.auth says ops/);
  });
});

describe('assertScope', () => {
  const refusal = (granted: ReadonlySet<ApiScope> | null, required: ApiScope) => {
    try {
      assertScope(granted, required, 'POST /wf/manifest');
      return undefined;
    } catch (error) {
      return error as AppError;
    }
  };

  it('lets full access (null) and a token with the scope through', () => {
    expect(refusal(null, 'manifests:write')).toBeUndefined();
    expect(refusal(new Set(['manifests:write']), 'manifests:write')).toBeUndefined();
  });

  it('refuses a token without it with insufficient_scope, naming the scope and what the token has', () => {
    const error = refusal(new Set(['rates', 'manifests:read']), 'manifests:write');
    expect(error).toBeInstanceOf(AppError);
    expect(error?.code).toBe('insufficient_scope');
    expect(error?.message).toContain('"manifests:write"');
    expect(error?.message).toContain('POST /wf/manifest');
    expect(error?.extra).toEqual({ required_scope: 'manifests:write', token_scopes: ['rates', 'manifests:read'] });
  });

  it('gives an operations token (no scopes) nothing', () => {
    for (const scope of API_SCOPES) expect(refusal(new Set(), scope)?.code).toBe('insufficient_scope');
  });
});
