import type { Environment } from '@/lib/generated/prisma/enums';
import { createContainerManifestOperation } from './operations/container-manifest';
import { createPackageManifestOperation } from './operations/package-manifest';
import { quoteRatesOperation } from './operations/rate';
import {
  createWebhookOperation,
  deleteWebhookOperation,
  getWebhookOperation,
  listWebhookDeliveriesOperation,
  listWebhooksOperation,
  redeliverWebhookOperation,
  rotateWebhookSecretOperation,
  testWebhookOperation,
  updateWebhookOperation,
} from './operations/webhooks';
import {
  cancelManifestOperation,
  cancelPackageOperation,
  closeManifestOperation,
  getManifestOperation,
  getPackageOperation,
  ingestScansOperation,
  listManifestPackagesOperation,
  listManifestsOperation,
  listPackageEventsOperation,
  listPackagesOperation,
  simulateManifestOperation,
  simulatePackageOperation,
} from './operations/lifecycle';
import {
  getManifestDocumentOperation,
  getManifestLabelsOperation,
  getManifestTagsOperation,
  getPackageLabelOperation,
} from './operations/documents';
import { decodePathParam } from './path-params';
import type { Operation } from './types';

export interface Route {
  pattern: string;
  methods: Partial<Record<'GET' | 'POST' | 'PATCH' | 'DELETE', Operation>>;
  /** How the error envelope carries IsSuccess for this operation, if at all. */
  isSuccess?: 'text' | 'boolean';
  /** 'ops': carrier operations tokens only (and shipper tokens refused); otherwise shipper tokens only. */
  auth?: 'ops';
  /** Exists on the test path only (the simulator): the live path answers 404. */
  testOnly?: boolean;
}

// The same routes answer under both base paths; the path alone picks the environment.
const BASES: readonly [string, Environment][] = [
  ['/version-test/api/1.1', 'test'],
  ['/api/1.1', 'live'],
];

const ROUTES: Route[] = [
  { pattern: '/wf/rate', methods: { POST: quoteRatesOperation } },
  { pattern: '/wf/manifest', methods: { POST: createContainerManifestOperation }, isSuccess: 'text' },
  { pattern: '/wf/package', methods: { POST: createPackageManifestOperation }, isSuccess: 'boolean' },
  { pattern: '/webhooks', methods: { GET: listWebhooksOperation, POST: createWebhookOperation } },
  { pattern: '/webhooks/:id', methods: { GET: getWebhookOperation, PATCH: updateWebhookOperation, DELETE: deleteWebhookOperation } },
  { pattern: '/webhooks/:id/rotate-secret', methods: { POST: rotateWebhookSecretOperation } },
  { pattern: '/webhooks/:id/test', methods: { POST: testWebhookOperation } },
  { pattern: '/webhooks/:id/deliveries', methods: { GET: listWebhookDeliveriesOperation } },
  { pattern: '/webhooks/:id/deliveries/:deliveryId/redeliver', methods: { POST: redeliverWebhookOperation } },
  // The lifecycle (issue 13): reads, cancel, the test-mode simulator, and the carrier's scans.
  { pattern: '/manifests', methods: { GET: listManifestsOperation } },
  { pattern: '/manifests/:id', methods: { GET: getManifestOperation } },
  { pattern: '/manifests/:id/packages', methods: { GET: listManifestPackagesOperation } },
  { pattern: '/manifests/:id/cancel', methods: { POST: cancelManifestOperation } },
  // Close-out (issue 15): a daily manifest takes no more packages.
  { pattern: '/manifests/:id/close', methods: { POST: closeManifestOperation } },
  { pattern: '/manifests/:id/simulate', methods: { POST: simulateManifestOperation }, testOnly: true },
  { pattern: '/packages', methods: { GET: listPackagesOperation } },
  { pattern: '/packages/:trackingNumber', methods: { GET: getPackageOperation } },
  { pattern: '/packages/:trackingNumber/events', methods: { GET: listPackageEventsOperation } },
  { pattern: '/packages/:trackingNumber/cancel', methods: { POST: cancelPackageOperation } },
  { pattern: '/packages/:trackingNumber/simulate', methods: { POST: simulatePackageOperation }, testOnly: true },
  { pattern: '/ops/scans', methods: { POST: ingestScansOperation }, auth: 'ops' },
  { pattern: '/manifests/:id/document', methods: { GET: getManifestDocumentOperation } },
  { pattern: '/manifests/:id/tags', methods: { GET: getManifestTagsOperation } },
  { pattern: '/manifests/:id/labels', methods: { GET: getManifestLabelsOperation } },
  { pattern: '/packages/:trackingNumber/label', methods: { GET: getPackageLabelOperation } },
];

/** Every API route, for documentation and the access-matrix test. */
export function apiRoutes(): readonly Route[] {
  return ROUTES;
}

export interface RouteMatch {
  route: Route;
  environment: Environment;
  params: Record<string, string>;
  /**
   * Set when the path has the route's shape but a parameter cannot be an id (a malformed escape,
   * NUL, a control character, overlong): the pipeline answers 404 with the route's headers.
   */
  invalidParam?: string;
}

export function isApiPath(path: string): boolean {
  return BASES.some(([base]) => path === base || path.startsWith(`${base}/`));
}

export function matchRoute(path: string): RouteMatch | undefined {
  const base = BASES.find(([prefix]) => path.startsWith(`${prefix}/`));
  if (!base) return undefined;
  const rest = path.slice(base[0].length).replace(/\/+$/, '');
  const segments = rest.split('/');
  for (const route of ROUTES) {
    const parts = route.pattern.split('/');
    if (parts.length !== segments.length) continue;
    const ok = parts.every((part, i) => (part.startsWith(':') ? segments[i] !== '' : part === segments[i]));
    if (!ok) continue;
    // Decoded only once the shape matches, and never with a throw: routing must not fail.
    const params: Record<string, string> = {};
    let invalidParam: string | undefined;
    parts.forEach((part, i) => {
      const segment = segments[i];
      if (!part.startsWith(':') || segment === undefined) return;
      const value = decodePathParam(segment);
      if (value === undefined) invalidParam ??= part.slice(1);
      else params[part.slice(1)] = value;
    });
    return invalidParam ? { route, environment: base[1], params, invalidParam } : { route, environment: base[1], params };
  }
  return undefined;
}
