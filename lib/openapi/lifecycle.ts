import type { z } from 'zod';
import { errorAnswer, EXAMPLE_ID, jsonAnswer, jsonSchemaOf, pathParameter, queryParameters, ref, type Json } from './parts';
import {
  LIFECYCLE_WEBHOOK_EVENTS,
  MAX_SIMULATED_DELIVERIES,
  ZLifecycleWebhookPayload,
  ZListEventsResponse,
  ZListManifestsQuery,
  ZListManifestsResponse,
  ZListPackagesQuery,
  ZListPackagesResponse,
  ZManifestResponse,
  ZPackageResponse,
  ZPageQuery,
  ZScanBatchResponse,
  ZSimulateRequest,
} from '@/lib/schemas/lifecycle';

// The lifecycle's part of the OpenAPI document (lib/openapi/document.ts spreads it in), generated from the
// schemas the operations parse and answer with.

const output = (schema: z.ZodType) => jsonSchemaOf(schema, 'output');
const input = (schema: z.ZodType) => jsonSchemaOf(schema, 'input');

const manifestIdParam = pathParameter('id', 'A ManifestID (`MAN-…`), container or daily.', EXAMPLE_ID.manifest);
const SIMULATE_BOUND = `Walks every intermediate status, each an event sent to the endpoints subscribed to it. One call may make at most ${MAX_SIMULATED_DELIVERIES.toLocaleString('en-US')} webhook deliveries (events times subscribed endpoints); a longer walk is refused with 422 before anything changes: walk in smaller steps.`;
const trackingParam = pathParameter(
  'TrackingNumber',
  "The package's TrackingNumber (matched in any case) or its carrier_barcode (CB…).",
  EXAMPLE_ID.trackingNumber,
);

export function lifecyclePaths(): Json {
  const notFound = errorAnswer('No such manifest or package in this account and environment.');
  return {
    '/manifests': {
      get: {
        tags: ['Lifecycle'],
        operationId: 'listManifests',
        summary: 'List manifests (container and daily), newest first',
        parameters: queryParameters(ZListManifestsQuery),
        responses: {
          '200': jsonAnswer('A page.', 'ManifestList'),
          '422': errorAnswer('A query parameter is invalid, unknown or repeated; `details` names it.'),
        },
      },
    },
    '/manifests/{id}': {
      parameters: [manifestIdParam],
      get: {
        tags: ['Lifecycle'],
        operationId: 'getManifest',
        summary: 'A manifest with its package counts by status and totals',
        responses: { '200': jsonAnswer('The manifest.', 'Manifest'), '404': notFound },
      },
    },
    '/manifests/{id}/packages': {
      parameters: [manifestIdParam],
      get: {
        tags: ['Lifecycle'],
        operationId: 'listManifestPackages',
        summary: "A manifest's packages",
        parameters: queryParameters(ZPageQuery),
        responses: { '200': jsonAnswer('A page.', 'PackageList'), '404': notFound },
      },
    },
    '/manifests/{id}/cancel': {
      parameters: [manifestIdParam],
      post: {
        tags: ['Lifecycle'],
        operationId: 'cancelManifest',
        summary: "Cancel a container with its packages, or a daily manifest's still-manifested packages",
        description:
          'Cancelling again answers 200 with the cancelled manifest. After the carrier took possession: 409 `not_cancellable`.',
        responses: {
          '200': jsonAnswer('The manifest.', 'Manifest'),
          '404': notFound,
          '409': errorAnswer('`not_cancellable`, with `current_status`.'),
        },
      },
    },
    '/manifests/{id}/close': {
      parameters: [manifestIdParam],
      post: {
        tags: ['Lifecycle'],
        operationId: 'closeManifest',
        summary: 'Close a daily manifest: it takes no more packages',
        description:
          'The next package for its ManifestDate opens a new daily manifest (a new ManifestID, which its `package.sorting` names); ' +
          '`manifest.closed` is sent with `package_count` and `document_path`. Closing a closed manifest answers 200 with it again (no second event). ' +
          'A closed manifest is not changed: its packages cannot be cancelled (409 `not_cancellable`) and its handover document stays as it was. ' +
          "Close takes no options: a request body is not read. Manifests also close themselves at the account's cut-off hour, when one is set (portal settings).",
        responses: {
          '200': jsonAnswer('The closed manifest.', 'Manifest'),
          '404': notFound,
          '409': errorAnswer(
            '`not_closable`: a container manifest, or a cancelled daily manifest; with `type` and `current_status`.',
          ),
        },
      },
    },
    '/manifests/{id}/simulate': {
      parameters: [manifestIdParam],
      post: {
        tags: ['Lifecycle'],
        operationId: 'simulateManifest',
        summary: "Test path only: walk a container (or a daily manifest's packages) to a status",
        description: SIMULATE_BOUND,
        requestBody: { required: true, content: { 'application/json': { schema: input(ZSimulateRequest) } } },
        responses: {
          '200': jsonAnswer('The manifest.', 'Manifest'),
          '404': errorAnswer('Not found, or the live path.'),
          '409': errorAnswer('`illegal_transition`: the status cannot be reached.'),
          '422': errorAnswer('`validation_failed`: an unknown status, or a walk past the deliveries one call may send.'),
        },
      },
    },
    '/packages': {
      get: {
        tags: ['Lifecycle'],
        operationId: 'listPackages',
        summary: 'List every package (container and daily), newest first',
        parameters: queryParameters(ZListPackagesQuery),
        responses: {
          '200': jsonAnswer('A page.', 'PackageList'),
          '422': errorAnswer('A query parameter is invalid, unknown or repeated; `details` names it.'),
        },
      },
    },
    '/packages/{TrackingNumber}': {
      parameters: [trackingParam],
      get: {
        tags: ['Lifecycle'],
        operationId: 'getPackage',
        summary: "A package, under the contract's field names, with its status",
        responses: { '200': jsonAnswer('The package.', 'PackageRead'), '404': notFound },
      },
    },
    '/packages/{TrackingNumber}/events': {
      parameters: [trackingParam],
      get: {
        tags: ['Lifecycle'],
        operationId: 'listPackageEvents',
        summary: "The package's timeline, oldest first",
        responses: { '200': jsonAnswer('Its events.', 'EventList'), '404': notFound },
      },
    },
    '/packages/{TrackingNumber}/cancel': {
      parameters: [trackingParam],
      post: {
        tags: ['Lifecycle'],
        operationId: 'cancelPackage',
        summary: 'Cancel a package (only while manifested)',
        responses: {
          '200': jsonAnswer('The package.', 'PackageRead'),
          '404': notFound,
          '409': errorAnswer('`not_cancellable`, with `current_status`.'),
        },
      },
    },
    '/packages/{TrackingNumber}/simulate': {
      parameters: [trackingParam],
      post: {
        tags: ['Lifecycle'],
        operationId: 'simulatePackage',
        summary: 'Test path only: walk a package to a status, firing each event',
        description: SIMULATE_BOUND,
        requestBody: { required: true, content: { 'application/json': { schema: input(ZSimulateRequest) } } },
        responses: {
          '200': jsonAnswer('The package.', 'PackageRead'),
          '404': errorAnswer('Not found, or the live path.'),
          '409': errorAnswer('`illegal_transition`.'),
          '422': errorAnswer('`validation_failed`: an unknown status, or a walk past the deliveries one call may send.'),
        },
      },
    },
    '/ops/scans': {
      post: {
        tags: ['Carrier operations'],
        operationId: 'ingestScans',
        summary: 'Carrier scans, up to 1,000 a batch (operations tokens `ck_ops_…` only)',
        description:
          "Each scan is applied, recorded (history only: out of order or a repeat) or refused on its own; a `scan_id` already taken is answered `duplicate`. A package is named by `carrier_barcode` (always one package), or by `tracking_number`, narrowed by `container_id` or `manifest_id` when given and then to the packages that can take the scan; still more than one is refused `ambiguous`, with each candidate's barcode in `details`. `container_id` alone scans the container.",
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['scans'],
                properties: {
                  scans: {
                    type: 'array',
                    minItems: 1,
                    maxItems: 1000,
                    items: {
                      type: 'object',
                      required: ['scan_id', 'event', 'location', 'occurred_at'],
                      properties: {
                        scan_id: { type: 'string', maxLength: 128 },
                        carrier_barcode: {
                          type: 'string',
                          pattern: '^[Cc][Bb][0-9]{13}$',
                          description:
                            "The label's sort barcode: CB, 12 digits and a Luhn check digit. Names one package; send nothing else to name it.",
                        },
                        tracking_number: { type: 'string' },
                        container_id: {
                          type: 'string',
                          description: "Alone: the container's scan. With tracking_number: the container the package travels in.",
                        },
                        manifest_id: { type: 'string', description: 'With tracking_number: the manifest the package is on.' },
                        event: {
                          type: 'string',
                          enum: [
                            'received',
                            'in_transit',
                            'out_for_delivery',
                            'delivered',
                            'exception',
                            'resolved',
                            'departed',
                            'arrived',
                            'closed',
                          ],
                        },
                        location: { type: 'string', description: 'IATA code or US/Canadian postal code.' },
                        occurred_at: { type: 'string', format: 'date-time' },
                        exception_code: { type: 'string' },
                        exception_text: { type: 'string' },
                      },
                    },
                  },
                },
              },
            },
          },
        },
        responses: { '200': jsonAnswer("Each scan's result.", 'ScanBatchResult'), '403': errorAnswer('A shipper token.') },
      },
    },
  };
}

export function lifecycleWebhooks(): Json {
  return Object.fromEntries(
    LIFECYCLE_WEBHOOK_EVENTS.map((event) => [
      event,
      {
        post: {
          operationId: `on${event
            .split(/[._]/)
            .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
            .join('')}`,
          summary: `${event}`,
          description:
            `Sent when a ${event.split('.')[0]} reaches \`${event.split('.')[1]}\`, signed and retried as package.sorting is. ` +
            `Its signed body names the event as \`type\` (\`${event}\`), as the \`x-carrier-event\` header does.` +
            (event === 'manifest.closed'
              ? ' Also carries `package_count`, `document_path` (the API path of its handover document) and `closed_by` (`shipper` or `cutoff`).'
              : ''),
          requestBody: { required: true, content: { 'application/json': { schema: ref('LifecycleWebhookPayload') } } },
          responses: { '200': { description: 'Any 2xx acknowledges the delivery.' } },
        },
      },
    ]),
  );
}

export function lifecycleSchemas(): Json {
  return {
    PackageRead: output(ZPackageResponse),
    Manifest: output(ZManifestResponse),
    PackageList: output(ZListPackagesResponse),
    ManifestList: output(ZListManifestsResponse),
    EventList: output(ZListEventsResponse),
    ScanBatchResult: output(ZScanBatchResponse),
    LifecycleWebhookPayload: withEventType(output(ZLifecycleWebhookPayload)),
  };
}

/**
 * Every lifecycle delivery's body names its event as `type` (lib/webhooks/deliver-message.ts adds it to the stored
 * payload when it signs): a receiver subscribed to several events tells them apart by what the signature covers.
 * Written here, first and required, whether or not the payload schema lists it, so the document says it either way.
 */
function withEventType(json: Json): Json {
  const { type: _type, ...rest } = (json.properties ?? {}) as Record<string, Json>;
  const required = ((json.required ?? []) as string[]).filter((name) => name !== 'type');
  return {
    ...json,
    properties: {
      type: {
        type: 'string',
        description: "The event's name, the same as the `x-carrier-event` header: `package.delivered`, `manifest.closed`, …",
      },
      ...rest,
    },
    required: ['type', ...required],
  };
}
