import type { Environment } from '@/lib/generated/prisma/enums';
import type { Deprecation } from '@/lib/api/deprecation';
import type { HttpMethod, OperationDefinition } from '@/lib/api/operation';
import { OPERATIONS } from '@/lib/api/registry';
import { CARRIER_OPERATIONS } from '@/lib/auth/scopes';

// The server's routes, derived from the registry of operations (lib/api/registry.ts): one route per path, with
// each method's operation. The same routes answer under both base paths; the path alone picks the environment.

export interface Route {
  /** Fastify's pattern: the operation's path with `{name}` as `:name`. */
  pattern: string;
  /** The operation's path as the reference writes it, for messages. */
  path: string;
  methods: Partial<Record<HttpMethod, OperationDefinition>>;
  /** How the error envelope carries IsSuccess for this route, if at all. */
  isSuccess?: 'text' | 'boolean';
  /** 'ops': carrier operations tokens only (and shipper tokens refused); otherwise shipper tokens only. */
  auth?: 'ops';
  /** Exists on the test path only (the simulator): the live path answers 404. */
  testOnly?: boolean;
  /** Its GETs are not written to the request log (the log's own reads). */
  unlogged?: boolean;
  deprecation?: Deprecation;
}

const BASES: readonly [string, Environment][] = [
  ['/version-test/api/1.1', 'test'],
  ['/api/1.1', 'live'],
];

/** What a route says of all its methods must be said alike by each of its operations; a mismatch stops the start. */
function agreed<K extends keyof OperationDefinition>(operations: OperationDefinition[], key: K): OperationDefinition[K] {
  const values = new Set(operations.map((operation) => operation[key]));
  if (values.size > 1) throw new Error(`The operations at ${operations[0]?.path} disagree on ${String(key)}.`);
  return operations[0]?.[key] as OperationDefinition[K];
}

function routesOf(operations: readonly OperationDefinition[]): Route[] {
  const byPath = new Map<string, OperationDefinition[]>();
  for (const operation of operations) {
    const list = byPath.get(operation.path) ?? [];
    if (list.some((other) => other.method === operation.method))
      throw new Error(`Two operations are ${operation.method} ${operation.path}.`);
    list.push(operation);
    byPath.set(operation.path, list);
  }
  return [...byPath].map(([path, list]) => {
    const ops = list.some((operation) => operation.scope === CARRIER_OPERATIONS);
    if (ops && list.some((operation) => operation.scope !== CARRIER_OPERATIONS))
      throw new Error(`${path} mixes carrier operations with shippers' operations.`);
    return {
      pattern: path.replace(/\{([^}]+)\}/g, ':$1'),
      path,
      methods: Object.fromEntries(list.map((operation) => [operation.method, operation])),
      isSuccess: agreed(list, 'isSuccess'),
      testOnly: agreed(list, 'testOnly'),
      unlogged: agreed(list, 'unlogged'),
      deprecation: agreed(list, 'deprecation'),
      ...(ops ? { auth: 'ops' as const } : {}),
    };
  });
}

const ROUTES = routesOf(OPERATIONS);

/** Every API route, for the server, the metrics' labels and the access-matrix test. */
export function apiRoutes(): readonly Route[] {
  return ROUTES;
}

/** The two base paths every route answers under, and the environment each one means. */
export function apiBases(): readonly (readonly [string, Environment])[] {
  return BASES;
}

/** Whether a path is the API's (either base, or below it): the production server hands these to the API app. */
export function isApiPath(path: string): boolean {
  return BASES.some(([base]) => path === base || path.startsWith(`${base}/`));
}
