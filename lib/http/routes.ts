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
import { getEventOperation, listEventsOperation } from './operations/events';
import { getRequestOperation, listRequestsOperation } from './operations/requests';
import type { Deprecation } from './deprecation';
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
  /** Its GETs are not written to the request log (the log's own reads). */
  unlogged?: boolean;
  /** Going away (docs/versioning.md): every answer on it says since when, until when and where to read. */
  deprecation?: Deprecation;
}

// The same routes answer under both base paths; the path alone picks the environment. Fastify's router
// matches them (lib/http/api-app.ts mounts each pattern under each base).
const BASES: readonly [string, Environment][] = [
  ['/version-test/api/1.1', 'test'],
  ['/api/1.1', 'live'],
];

const ROUTES: Route[] = [
  { pattern: '/wf/rate', methods: { POST: quoteRatesOperation } },
  { pattern: '/wf/manifest', methods: { POST: createContainerManifestOperation }, isSuccess: 'text' },
  { pattern: '/wf/package', methods: { POST: createPackageManifestOperation }, isSuccess: 'boolean' },
  { pattern: '/webhooks', methods: { GET: listWebhooksOperation, POST: createWebhookOperation } },
  {
    pattern: '/webhooks/:id',
    methods: { GET: getWebhookOperation, PATCH: updateWebhookOperation, DELETE: deleteWebhookOperation },
  },
  { pattern: '/webhooks/:id/rotate-secret', methods: { POST: rotateWebhookSecretOperation } },
  { pattern: '/webhooks/:id/test', methods: { POST: testWebhookOperation } },
  { pattern: '/webhooks/:id/deliveries', methods: { GET: listWebhookDeliveriesOperation } },
  { pattern: '/webhooks/:id/deliveries/:deliveryId/redeliver', methods: { POST: redeliverWebhookOperation } },
  // The events API: what the webhooks announced, for an integrator's tooling and `npm run listen`.
  { pattern: '/events', methods: { GET: listEventsOperation } },
  { pattern: '/events/:id', methods: { GET: getEventOperation } },
  // The request log: what the account sent and what it was answered.
  { pattern: '/requests', methods: { GET: listRequestsOperation }, unlogged: true },
  { pattern: '/requests/:id', methods: { GET: getRequestOperation }, unlogged: true },
  // The lifecycle: reads, cancel, the test-mode simulator, and the carrier's scans.
  { pattern: '/manifests', methods: { GET: listManifestsOperation } },
  { pattern: '/manifests/:id', methods: { GET: getManifestOperation } },
  { pattern: '/manifests/:id/packages', methods: { GET: listManifestPackagesOperation } },
  { pattern: '/manifests/:id/cancel', methods: { POST: cancelManifestOperation } },
  // Close-out: a daily manifest takes no more packages.
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

/** The two base paths every route answers under, and the environment each one means. */
export function apiBases(): readonly (readonly [string, Environment])[] {
  return BASES;
}

/** Whether a path is the API's (either base, or below it): the production server hands these to the API app. */
export function isApiPath(path: string): boolean {
  return BASES.some(([base]) => path === base || path.startsWith(`${base}/`));
}
