import type { Environment } from '@/lib/generated/prisma/enums';
import type { Deprecation } from '@/lib/api/deprecation';
import type { HttpMethod, OperationDefinition } from '@/lib/api/operation';
import { OPERATIONS } from '@/lib/api/registry';
import { CARRIER_OPERATIONS } from '@/lib/auth/scopes';

// One route per path, derived from lib/api/registry.ts; the base path alone picks the environment.

export interface Route {
  pattern: string;
  path: string;
  methods: Partial<Record<HttpMethod, OperationDefinition>>;
  isSuccess?: 'text' | 'boolean';
  /** 'ops': carrier operations tokens only; otherwise shipper tokens only. */
  auth?: 'ops';
  testOnly?: boolean;
  unlogged?: boolean;
  deprecation?: Deprecation;
}

const BASES: readonly [string, Environment][] = [
  ['/version-test/api/1.1', 'test'],
  ['/api/1.1', 'live'],
];

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

export function apiRoutes(): readonly Route[] {
  return ROUTES;
}

export function apiBases(): readonly (readonly [string, Environment])[] {
  return BASES;
}

export function isApiPath(path: string): boolean {
  return BASES.some(([base]) => path === base || path.startsWith(`${base}/`));
}
