import { z } from 'zod';
import { API_SCOPES, CARRIER_OPERATIONS, ROUTE_SCOPES, SCOPE_DESCRIPTIONS, type RouteScope } from '@/lib/auth/scopes';
import { EXAMPLE_ID, jsonSchemaOf, pathParameter, ref, type Json } from './parts';
import { REPLAYED_HEADER } from '@/lib/http/replayed';
import { eventPaths, eventSchemas } from './events';
import { requestPaths, requestSchemas } from './requests';
import { lifecyclePaths, lifecycleSchemas, lifecycleWebhooks } from './lifecycle';
import {
  CONTAINER_MANIFEST_ALIASES,
  MAX_CONTAINER_PACKAGES,
  ZContainerDetail,
  ZContainerManifestRequest,
} from '@/lib/schemas/container-manifest';
import { PACKAGE_MANIFEST_ALIASES, ZPackage } from '@/lib/schemas/package-manifest';
import { ZContainerManifestResponse } from '@/lib/schemas/container-manifest';
import { ZErrorResponse } from '@/lib/schemas/error';
import { ZPackageManifestResponse } from '@/lib/schemas/package-manifest';
import { RATE_ALIASES, ZRateQuote, ZRateRequest, ZRateResponse } from '@/lib/schemas/rate';
import type { Aliases } from '@/lib/schemas/parse';
import {
  PACKAGE_SORTING_EVENT,
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_EVENTS,
  WEBHOOK_EVENTS_MAX,
  WEBHOOK_URL_MAX,
  ZCreateWebhookRequest,
  ZRotateWebhookSecretRequest,
  ZListWebhookDeliveriesQuery,
  ZUpdateWebhookRequest,
  ZPackageSortingPayload,
  ZRotatedWebhookEndpoint,
  ZWebhookDelivery,
  ZWebhookDeliveryList,
  ZWebhookEndpoint,
  ZWebhookEndpointList,
  ZWebhookEndpointWithSecret,
  ZWebhookRedelivery,
  ZWebhookTest,
} from '@/lib/schemas/webhooks';

// The OpenAPI 3.1 document, generated from the same Zod schemas that parse requests and type responses, so the
// reference cannot drift from what the server accepts and answers. Request field types come from the metadata on
// the field builders (lib/schemas/fields.ts); every response shape, the error envelope and the webhook payloads
// come from the response schemas beside them (lib/schemas/*.ts), the types the operations return. Written here:
// paths, parameters, headers, descriptions and examples, and what a request schema cannot say of itself (the
// published aliases, the types of the webhook fields built from bare transforms, the package request's wrapper).

const inputSchema = (schema: z.ZodType) => jsonSchemaOf(schema, 'input');

/**
 * The response components, each generated from the schema its operation's answer is typed with. Generated together
 * (one registry), so a schema used inside another (WebhookEndpoint in the list, RateQuote in RateResponse) is a $ref
 * to its component rather than a copy.
 */
const RESPONSE_COMPONENTS: Record<string, z.ZodType> = {
  RateQuote: ZRateQuote,
  RateResponse: ZRateResponse,
  ContainerManifestResponse: ZContainerManifestResponse,
  PackageManifestResponse: ZPackageManifestResponse,
  WebhookEndpoint: ZWebhookEndpoint,
  WebhookEndpointList: ZWebhookEndpointList,
  WebhookEndpointWithSecret: ZWebhookEndpointWithSecret,
  RotatedWebhookEndpoint: ZRotatedWebhookEndpoint,
  WebhookDelivery: ZWebhookDelivery,
  WebhookDeliveryList: ZWebhookDeliveryList,
  WebhookTest: ZWebhookTest,
  WebhookRedelivery: ZWebhookRedelivery,
  PackageSortingPayload: ZPackageSortingPayload,
  Error: ZErrorResponse,
};

/** Every schema an intersection is made of, the parts of nested intersections included. */
function intersectionParts(schemas: Iterable<z.ZodType>): Set<unknown> {
  const parts = new Set<unknown>();
  const visit = (schema: unknown) => {
    if (!(schema instanceof z.ZodIntersection)) return;
    for (const part of [schema.def.left, schema.def.right]) {
      parts.add(part);
      visit(part);
    }
  };
  for (const schema of schemas) visit(schema);
  return parts;
}

function responseSchemas(): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(RESPONSE_COMPONENTS)) registry.add(schema, { id });
  const parts = intersectionParts(Object.values(RESPONSE_COMPONENTS));
  const { schemas } = z.toJSONSchema(registry, {
    io: 'output',
    unrepresentable: 'any',
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
    // Zod closes every object (additionalProperties: false), so that an answer's undocumented field is drift the API
    // suite catches. An intersection (the endpoint with its secret) is allOf its parts, each listing only its own
    // properties: closed, each would refuse the others' and nothing could match. Its parts are left open (the
    // WebhookEndpoint component among them, as it was written by hand) and the whole is closed instead.
    override: ({ zodSchema, jsonSchema }) => {
      if (parts.has(zodSchema)) delete jsonSchema.additionalProperties;
      if (zodSchema instanceof z.ZodIntersection) jsonSchema.unevaluatedProperties = false;
    },
  }) as { schemas: Record<string, Json> };
  // Each is a component of this document, not a document of its own.
  return Object.fromEntries(Object.entries(schemas).map(([id, { $schema: _schema, $id: _id, ...schema }]) => [id, schema]));
}

/**
 * The published spellings the API also reads (`lenght`, `FromPostalcode`, `Container Weight`…): each is a property
 * with its field's schema, listed after it, so that the published samples validate against the document. A required
 * field with another spelling is required in words, in both properties' descriptions and the object's: as
 * allOf/anyOf of `required` lists it made renderers show the object as "any", its fields unlisted. The API still
 * refuses a request that sends neither (the Zod schema).
 */
function withAliases(json: Json, aliases: Aliases): Json {
  const required = (json.required as string[] | undefined) ?? [];
  const properties: Record<string, Json> = {};
  const eitherName = new Map<string, string>();
  for (const [field, schema] of Object.entries(json.properties as Record<string, Json>)) {
    const names = aliases[field] ?? [];
    const rule =
      names.length > 0 && required.includes(field)
        ? `One of ${[field, ...names].map((name) => `\`${name}\``).join(' or ')} is required.`
        : '';
    if (rule) eitherName.set(field, rule);
    const description = typeof schema.description === 'string' ? schema.description : '';
    properties[field] = rule ? { ...schema, description: `${description} ${rule}`.trim() } : schema;
    for (const name of names)
      properties[name] = {
        ...schema,
        description: `The published spelling of \`${field}\`; send one of the two. ${rule}`.trim(),
      };
  }
  const rules = [...eitherName.values()];
  return {
    ...json,
    type: 'object',
    ...(rules.length ? { description: [json.description, ...rules].filter((part) => typeof part === 'string').join(' ') } : {}),
    properties,
    required: required.filter((field) => !eitherName.has(field)),
  };
}

function rateRequestSchema(): Json {
  const json = inputSchema(ZRateRequest);
  const properties = json.properties as Record<string, Json>;
  properties.service = {
    ...properties.service,
    description: 'Blank or omitted: one quote per active rate card that can price the request.',
  };
  properties.from_zip = { ...properties.from_zip, description: 'Origin US ZIP. Required by Carrier Express and Carrier Ground.' };
  properties.to_zip = {
    ...properties.to_zip,
    description: 'Destination US ZIP. Required by Carrier Express and Carrier Ground.',
  };
  properties.origin = { ...properties.origin, description: 'Origin IATA airport code. Required by AirSkip.' };
  properties.destination = { ...properties.destination, description: 'Destination IATA airport code. Required by AirSkip.' };
  properties.length = {
    ...properties.length,
    description: `${typeof properties.length?.description === 'string' ? properties.length.description : ''} Inches. Also accepted as \`lenght\`, as the published samples spell it.`,
  };
  return {
    ...withAliases(
      { ...json, description: 'The package to price. Fields may be numbers or numeric text; `""` is no value.' },
      RATE_ALIASES,
    ),
    example: {
      weight: '2.5',
      weight_unit: 'lb',
      from_zip: '10001',
      to_zip: '94105',
      service: '',
      length: '10',
      width: '8',
      height: '4',
      origin: '',
      destination: '',
    },
  };
}

function containerManifestSchema(): Json {
  const json = inputSchema(ZContainerManifestRequest);
  const properties = json.properties as Record<string, Json>;
  properties.ContainerDetails = {
    type: 'array',
    maxItems: MAX_CONTAINER_PACKAGES,
    items: ref('ContainerDetail'),
    description: 'The packages in the container (at most 5,000); tracking numbers unique.',
  };
  properties.FromPostalCode = { ...properties.FromPostalCode, description: 'Also accepted as `FromPostalcode`.' };
  properties.ContainerWeight = { ...properties.ContainerWeight, description: 'Pounds. Also accepted as `Container Weight`.' };
  properties.ContainerName = { ...properties.ContainerName, description: 'Also accepted as `Container Name`.' };
  return {
    ...withAliases(json, CONTAINER_MANIFEST_ALIASES),
    example: {
      ManifestDate: '2024-05-01T09:00:00Z',
      ServiceName: 'AirSkip',
      FromCompany: 'Acme Shipping',
      ContainerID: 'CONT-0001',
      ContainerLength: 48,
      ContainerWidth: 40,
      ContainerHeight: 36,
      ShipmentDescription: 'Apparel',
      AWB: '123-45678905',
      ContainerDetails: [{ TrackingNumber: '1Z0001', PackageWeight: 2.5, PackageWeightUnit: 'lb', ToPostalCode: '94105' }],
    },
  };
}

const packageExample = {
  TrackingNumber: '1Z999AA10123456784',
  FinalMileCarrier: 'USPS',
  ManifestDate: '2024-05-01',
  ServiceName: 'AirSkip',
  FromCompany: 'Acme Shipping',
  FromAddress1: '1 Main St',
  FromCity: 'Toronto',
  FromState: 'ON',
  FromPostalCode: 'M5V 3L9',
  FromCountry: 'CA',
  ToPostalCode: '94105',
  ShipmentDescription: 'Shoes',
  PackageSizeLength: 12,
  PackageSizeWidth: 8,
  PackageSizeHeight: 5,
  PackageWeight: 3,
  WeightUnit: 'lb',
};

function errorResponse(description: string, extra: Json = {}): Json {
  return { description, content: { 'application/json': { schema: ref('Error') } }, ...extra };
}

/** An identical retry's answer is the first one's plus this header (lib/http/replayed.ts). */
const REPLAYED_HEADERS: Json = {
  [REPLAYED_HEADER]: {
    schema: { type: 'string', const: 'true' },
    description: "Present on the answer to an identical retry: nothing new was stored, and the body is the first answer's.",
  },
};

/** The answers of an operation that reads a JSON body. Those of every operation (401, 403, 429) are added by withAccess. */
const COMMON_ERRORS: Json = {
  '400': errorResponse('The body is not valid JSON.'),
  '413': errorResponse('The body is over 5 MB.'),
  '422': errorResponse('Validation failed: every failing field is listed in `details`.'),
  '500': errorResponse('Server error; the body carries a request_id and nothing internal.'),
};

/** The answers the pipeline gives before any operation runs (lib/http/api-steps.ts authenticateRequest): token, then its rate. */
const UNAUTHORIZED = errorResponse('Missing or invalid token, or a token of the other environment (`wrong_environment`).', {
  headers: {
    'WWW-Authenticate': { schema: { type: 'string', const: 'Token' }, description: 'The scheme to send the token with.' },
  },
});
const RATE_LIMITED = errorResponse(
  'Too many requests for this token (`rate_limited`), or too many failed authentications from this address. Retry after `Retry-After` seconds.',
  {
    headers: {
      'Retry-After': { required: true, schema: { type: 'integer', minimum: 1 }, description: 'Seconds to wait before retrying.' },
    },
  },
);

const idParam = pathParameter('id', 'Webhook endpoint id (`we_…`).', EXAMPLE_ID.webhookEndpoint);

// The document routes (lib/http/operations/documents.ts): bytes, not JSON; format by ?format= or Accept.
function documentPaths(): Json {
  const binary = (types: string[]): Json =>
    Object.fromEntries(
      types.map((type) => [
        type,
        { schema: type === 'application/zpl' ? { type: 'string' } : { type: 'string', format: 'binary' } },
      ]),
    );
  const route = (
    operationId: string,
    summary: string,
    description: string,
    param: Json,
    formats: string[],
    types: string[],
    extra: Json[] = [],
  ): Json => ({
    parameters: [param],
    get: {
      tags: ['Documents'],
      operationId,
      summary,
      description: `${description} Format by \`?format=\` or \`Accept\`; PDF when neither says. \`Content-Disposition\` names the file.`,
      parameters: [{ name: 'format', in: 'query', required: false, schema: { type: 'string', enum: formats } }, ...extra],
      responses: {
        '200': {
          description: 'The document.',
          headers: { 'Content-Disposition': { schema: { type: 'string' }, description: 'inline; filename="…"' } },
          content: binary(types),
        },
        '404': errorResponse('No such manifest or package in this account and environment.'),
        '406': errorResponse('The document does not come in the format asked for (`not_acceptable`).'),
        '503': errorResponse(
          '`service_unavailable`: every render thread is busy and the queue is full; `Retry-After` says when.',
        ),
      },
    },
  });
  const manifestId = pathParameter('id', 'ManifestID (`MAN-…`, container or daily).', EXAMPLE_ID.manifest);
  return {
    '/manifests/{id}/document': route(
      'getManifestDocument',
      'Handover manifest',
      "ManifestID and AWB (its 11 digits, as the API returns it) as Code 128, one line per package, totals, tender block; page n of N on every page. A cancelled manifest's says CANCELLED and has no barcode.",
      manifestId,
      ['pdf'],
      ['application/pdf'],
      [{ name: 'paper', in: 'query', required: false, schema: { type: 'string', enum: ['letter', 'a4'] } }],
    ),
    '/manifests/{id}/tags': route(
      'getManifestTags',
      'Container tag (4×6 in)',
      'ContainerID and AWB as Code 128, terminal, pieces, weight.',
      manifestId,
      ['pdf', 'zpl'],
      ['application/pdf', 'application/zpl'],
    ),
    '/manifests/{id}/labels': route(
      'getManifestLabels',
      'Every package label of a manifest',
      'One 4×6 in label per page (PDF) or per ^XA…^XZ (ZPL II).',
      manifestId,
      ['pdf', 'zpl'],
      ['application/pdf', 'application/zpl'],
    ),
    '/packages/{TrackingNumber}/label': route(
      'getPackageLabel',
      'Package label (4×6 in)',
      "The carrier barcode as Code 128 (the sort barcode), the tracking number beside it, sort code, service, destination postal code, recipient, ManifestID. PNG at 203 dpi. A cancelled package's label says CANCELLED and has no barcode.",
      pathParameter(
        'TrackingNumber',
        "The package's TrackingNumber (any case) or its carrier_barcode.",
        EXAMPLE_ID.trackingNumber,
      ),
      ['pdf', 'zpl', 'png'],
      ['application/pdf', 'application/zpl', 'image/png'],
    ),
  };
}

function json(schema: Json, example?: unknown): Json {
  return { 'application/json': { schema, ...(example === undefined ? {} : { example }) } };
}

// lib/schemas/webhooks.ts builds url/events/enabled from bare transforms; their documented types are added here.
function webhookRequestSchema(schema: z.ZodType): Json {
  const json = inputSchema(schema);
  const properties = json.properties as Record<string, Json>;
  properties.url = {
    type: 'string',
    format: 'uri',
    maxLength: WEBHOOK_URL_MAX,
    description: 'http(s) URL that receives the notifications.',
  };
  properties.events = {
    type: 'array',
    minItems: 1,
    maxItems: WEBHOOK_EVENTS_MAX,
    items: { type: 'string', enum: [...WEBHOOK_EVENTS] },
  };
  if ('enabled' in properties)
    properties.enabled = { type: 'boolean', description: 'Enabling clears the reason it was disabled.' };
  properties.description = {
    type: ['string', 'null'],
    maxLength: WEBHOOK_DESCRIPTION_MAX,
    description: 'One line: no control characters.',
  };
  json.additionalProperties = false;
  return json;
}

/**
 * The answers every operation shares, added here and nowhere else: each request passes the same steps before its
 * operation runs (lib/http/api-steps.ts authenticateRequest), whatever the route. Every operation takes a token
 * (401), counted against the token's rate (429, with Retry-After), and, for a shipper's operation, needs the scope
 * lib/auth/scopes.ts gives it (its security requirement, and 403 insufficient_scope; OpenAPI 3.1 lets an apiKey
 * scheme's requirement list the roles an operation needs). An operation's own 401 or 429 is kept.
 */
function withAccess(paths: Record<string, Json>): Record<string, Json> {
  // Matched by shape: the document names a parameter {TrackingNumber} where the route table has :trackingNumber.
  const byShape = new Map<string, RouteScope>(
    Object.entries(ROUTE_SCOPES).map(([key, scope]) => [key.replace(/:[^/]+/g, ':'), scope]),
  );
  for (const [template, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (method === 'parameters') continue;
      const key = `${method.toUpperCase()} ${template.replace(/\{[^}]+\}/g, ':')}`;
      const scope = byShape.get(key);
      if (!scope) throw new Error(`${method.toUpperCase()} ${template} has no scope in lib/auth/scopes.ts`);
      const op = operation as { security?: Json[]; responses: Record<string, Json> };
      const responses: Record<string, Json> = { '401': UNAUTHORIZED, '429': RATE_LIMITED, ...op.responses };
      // The carrier's operations tokens have no scopes: the route says whose tokens it takes (its own 403).
      if (scope !== CARRIER_OPERATIONS) {
        op.security = [{ Token: [scope] }];
        responses['403'] = errorResponse(
          `The token lacks the \`${scope}\` scope (\`insufficient_scope\`; \`required_scope\` names it), or is a carrier operations token (\`forbidden\`).`,
        );
      }
      // Every shipper POST takes an Idempotency-Key (lib/http/idempotency.ts): its refusals are answers of its own.
      if (method === 'post' && scope !== CARRIER_OPERATIONS) {
        const withKey = op as { parameters?: Json[] };
        withKey.parameters = [...(withKey.parameters ?? []), IDEMPOTENCY_KEY];
        responses['409'] ??= errorResponse(
          '`conflict`: a request with the same `Idempotency-Key` is still running; retry after `Retry-After`.',
        );
        responses['422'] ??= errorResponse(
          '`validation_failed`, naming each field; or an `Idempotency-Key` already used with another request.',
        );
      }
      op.responses = byStatus(responses);
    }
  }
  return paths;
}

const IDEMPOTENCY_KEY: Json = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
  description:
    'Any unique string (a UUID, say), to make a retry safe: the first answer to a key is kept 24 hours and given again, with `Idempotent-Replayed: true`, to the same request sent with the same key; the same key with another method, path or body is a 422; while the first request runs, a 409 with `Retry-After`. Per account and environment. Failed answers are not kept: a corrected retry runs.',
};

/** Answers in the order of their status codes, as a reader looks for them. */
function byStatus(responses: Record<string, Json>): Record<string, Json> {
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}

/** The headers of every delivery (lib/webhooks/deliver-message.ts, sign-message.ts): the event's name and the Standard Webhooks three. */
function deliveryHeaders(event: string): Json[] {
  const header = (name: string, required: boolean, schema: Json, description: string): Json => ({
    name,
    in: 'header',
    required,
    schema,
    description,
  });
  return [
    header('x-carrier-event', true, { type: 'string', const: event }, `The event's name: \`${event}\`.`),
    header(
      'webhook-id',
      true,
      { type: 'string' },
      'Message id (`msg_…`); the same on every retry and redelivery: deduplicate on it.',
    ),
    header(
      'webhook-timestamp',
      true,
      { type: 'integer' },
      'Unix seconds when this attempt was signed; refuse one too far from your clock.',
    ),
    header(
      'webhook-signature',
      true,
      { type: 'string' },
      'Space-separated `v1,<base64 HMAC-SHA256>` signatures of `<webhook-id>.<webhook-timestamp>.<body>`, one per signing secret (two while a rotated secret overlaps): accept any one that verifies.',
    ),
    // A test event (POST /webhooks/{id}/test) is always a package.sorting.
    ...(event === PACKAGE_SORTING_EVENT
      ? [
          header(
            'x-carrier-test-event',
            false,
            { type: 'string', const: 'true' },
            'Present on a test delivery (an endpoint\'s "send test event") only.',
          ),
        ]
      : []),
  ];
}

/** Every webhook's operation with its delivery headers and its tag (the portal and Redocly group operations by tag). */
function withDeliveries(webhooks: Record<string, Json>): Record<string, Json> {
  for (const [event, item] of Object.entries(webhooks)) {
    const op = item.post as Json;
    op.tags = ['Webhooks'];
    op.parameters = deliveryHeaders(event);
  }
  return webhooks;
}

/**
 * Every tag an operation uses, declared with its description, in the order the reference shows them: a renderer
 * groups by the declared tags, and leaves out an operation whose tag is not among them. `redocly lint`
 * (operation-tag-defined) and document.test.ts fail on an undeclared one.
 */
const TAGS: Json[] = [
  { name: 'Rating', description: 'Price a package against the rate cards.' },
  { name: 'Manifests', description: 'Tell the carrier what it will receive: container manifests and packages.' },
  {
    name: 'Lifecycle',
    description:
      'Manifests and packages after they were sent: read them with their status and timeline, cancel or close them, and (test path only) simulate their progress.',
  },
  { name: 'Documents', description: 'Handover manifests, container tags and package labels, as PDF, ZPL II or PNG.' },
  {
    name: 'Webhooks',
    description:
      'Endpoints that receive `package.sorting` and lifecycle notifications, and the deliveries themselves: each carries `x-carrier-event` (the event name) and is signed per the Standard Webhooks spec (`webhook-id`, `webhook-timestamp`, `webhook-signature`).',
  },
  { name: 'Events', description: 'What the webhooks announced, to read back or to poll.' },
  { name: 'Requests', description: 'The request log: what was sent and answered, kept 30 days.' },
  {
    name: 'Carrier operations',
    description: "The carrier's own calls, with carrier operations tokens (`ck_ops_…`) only: scans from its terminals.",
  },
];

const SCOPES_DESCRIPTION =
  'A token has full access (every scope, those added later included; every token made before scopes has it) or only the scopes it was created with. ' +
  'Each operation lists the one scope it needs; a token without it is answered 403 `insufficient_scope`, with `required_scope` naming it. Scopes: ' +
  API_SCOPES.map((scope) => `\`${scope}\`: ${SCOPE_DESCRIPTIONS[scope]}`).join(' ');

let cached: Json | undefined;

/** The whole OpenAPI 3.1 document; built once per process (the schemas do not change at runtime). */
export function openApiDocument(): Json {
  if (cached) return cached;
  const endpointResponse = (description: string) => ({ description, content: json(ref('WebhookEndpoint')) });
  cached = {
    openapi: '3.1.0',
    info: {
      title: 'Carrier shipping API',
      version: '1.1',
      license: {
        name: "Proprietary: for the carrier's shippers under their service agreement",
        identifier: 'LicenseRef-Carrier-Proprietary',
      },
      description:
        'Rates, container manifests and package manifests, with package-sorting webhooks. Every request carries `Authorization: Token <token>` ' +
        '(`Bearer` is accepted too). Test tokens (`ck_test_…`) work only under `/version-test/api/1.1`, live tokens (`ck_live_…`) only under `/api/1.1`. ' +
        'Bodies are parsed as JSON whatever their Content-Type. Every response carries `x-request-id` and `Access-Control-Allow-Origin: *`. ' +
        'Every answer to a known token carries the IETF `RateLimit-Policy` (`"token";q=<burst>;w=<seconds>`) and `RateLimit` (`"token";r=<left>;t=<seconds to refill>`) headers; ' +
        "past the burst the answer is 429 with `Retry-After`. Unknown request fields are accepted and named in the answer's `warnings`.",
    },
    servers: [
      { url: '/api/1.1', description: 'Live' },
      { url: '/version-test/api/1.1', description: 'Test' },
    ],
    security: [{ Token: [] }],
    tags: TAGS,
    paths: withAccess({
      '/wf/rate': {
        post: {
          tags: ['Rating'],
          operationId: 'quoteRates',
          summary: 'Quote rates',
          description:
            'One quote per active rate card that can price the package, or only the named `service`. Cards that lack an input they need are left out and explained in `messages`. ' +
            "Billable weight is the greater of actual weight and L×W×H ÷ the card's dim divisor, rounded up to the card's weight step.",
          requestBody: { required: true, content: json(ref('RateRequest')) },
          responses: {
            '200': {
              description: 'Quotes.',
              content: json(ref('RateResponse'), {
                rates: [
                  {
                    carrier: 'Carrier',
                    service: 'Carrier Express',
                    amount: '12.40',
                    zone: 8,
                    billable_weight: '3',
                    delivery_days: 2,
                  },
                ],
              }),
            },
            ...COMMON_ERRORS,
          },
        },
      },
      '/wf/manifest': {
        post: {
          tags: ['Manifests'],
          operationId: 'createContainerManifest',
          summary: 'Create a container manifest',
          description:
            'Sending the same `ContainerID` again with an identical body returns the original `ManifestID` (safe retry); with a different body, 409 naming the existing ManifestID. ' +
            'Error bodies also carry `"IsSuccess": "false"`.',
          requestBody: { required: true, content: json(ref('ContainerManifestRequest')) },
          responses: {
            '200': {
              description: 'Created (or the identical retry).',
              headers: REPLAYED_HEADERS,
              content: json(ref('ContainerManifestResponse'), {
                IsSuccess: 'true',
                ManifestID: 'MAN-7K3Q9X2M4T8V6W1Z',
                PackageCount: 2,
              }),
            },
            '409': errorResponse('The ContainerID or a tracking number is already used with a different body.'),
            ...COMMON_ERRORS,
          },
        },
      },
      '/wf/package': {
        post: {
          tags: ['Manifests'],
          operationId: 'createPackageManifest',
          summary: 'Create a package manifest',
          description:
            "Exactly one package under `package` (an array: 422 `one_package_per_request`). The package joins the account's manifest for its ManifestDate, and a `package.sorting` " +
            'notification goes to every enabled endpoint. The same TrackingNumber again: identical body → 200 with nothing duplicated; different body → 409. Error bodies also carry `"IsSuccess": false`.',
          requestBody: { required: true, content: json(ref('PackageManifestRequest'), { package: packageExample }) },
          responses: {
            '200': {
              description: 'Accepted (or the identical retry).',
              headers: REPLAYED_HEADERS,
              content: json(ref('PackageManifestResponse'), {
                IsSuccess: true,
                ManifestID: 'MAN-7K3Q9X2M4T8V6W1Z',
                TrackingNumber: '1Z999AA10123456784',
              }),
            },
            '409': errorResponse('The TrackingNumber is already used with a different body.'),
            ...COMMON_ERRORS,
          },
        },
      },
      '/webhooks': {
        get: {
          tags: ['Webhooks'],
          operationId: 'listWebhooks',
          summary: 'List webhook endpoints',
          responses: {
            '200': {
              description: 'The endpoints of this account and environment.',
              content: json(ref('WebhookEndpointList')),
            },
          },
        },
        post: {
          tags: ['Webhooks'],
          operationId: 'createWebhook',
          summary: 'Create a webhook endpoint',
          description:
            'In test and live alike, URLs that resolve to loopback, private, link-local, reserved or metadata addresses are refused, at registration and again at every delivery. ' +
            "Each delivery is a POST of the event's body (see the webhooks), with `x-carrier-event` naming the event and the Standard Webhooks headers " +
            '`webhook-id`, `webhook-timestamp` and `webhook-signature`, signed with the secret this answer shows.',
          requestBody: {
            required: true,
            content: json(ref('CreateWebhookRequest'), {
              url: 'https://example.com/hooks/carrier',
              events: [PACKAGE_SORTING_EVENT],
              description: 'Sorting',
            }),
          },
          responses: {
            '201': { description: 'Created; the secret is shown only here.', content: json(ref('WebhookEndpointWithSecret')) },
            '422': COMMON_ERRORS['422'],
          },
        },
      },
      '/webhooks/{id}': {
        parameters: [idParam],
        get: {
          tags: ['Webhooks'],
          operationId: 'getWebhook',
          summary: 'Get a webhook endpoint',
          responses: {
            '200': endpointResponse('The endpoint.'),
            '404': errorResponse('No such endpoint in this account and environment.'),
          },
        },
        patch: {
          tags: ['Webhooks'],
          operationId: 'updateWebhook',
          summary: 'Update a webhook endpoint',
          requestBody: { required: true, content: json(ref('UpdateWebhookRequest'), { enabled: false }) },
          responses: {
            '200': endpointResponse('The updated endpoint.'),
            '404': errorResponse('No such endpoint.'),
            '422': COMMON_ERRORS['422'],
          },
        },
        delete: {
          tags: ['Webhooks'],
          operationId: 'deleteWebhook',
          summary: 'Delete a webhook endpoint',
          responses: { '204': { description: 'Deleted.' }, '404': errorResponse('No such endpoint.') },
        },
      },
      '/webhooks/{id}/rotate-secret': {
        parameters: [idParam],
        post: {
          tags: ['Webhooks'],
          operationId: 'rotateWebhookSecret',
          summary: 'Rotate the signing secret',
          description:
            'The old secret keeps signing beside the new one for `grace_period_seconds` (24 h by default; 0 stops it at once): each delivery carries one `v1,` signature per secret in `webhook-signature`, so receivers verify with either while they deploy the new one. The body may be left out.',
          requestBody: { required: false, content: json(ref('RotateWebhookSecretRequest'), { grace_period_seconds: 3600 }) },
          responses: {
            '200': {
              description: 'The endpoint with its new secret, shown only here, and when the old one stops signing.',
              content: json(ref('RotatedWebhookEndpoint')),
            },
            '422': COMMON_ERRORS['422'],
            '404': errorResponse('No such endpoint.'),
          },
        },
      },
      ...documentPaths(),
      '/webhooks/{id}/test': {
        parameters: [idParam],
        post: {
          tags: ['Webhooks'],
          operationId: 'testWebhook',
          summary: 'Send a test event',
          description:
            'Queues a `package.sorting` event with sample values for this endpoint alone. Its delivery carries the headers every delivery does ' +
            '(`x-carrier-event`, `webhook-id`, `webhook-timestamp`, `webhook-signature`) and `x-carrier-test-event: true`.',
          responses: {
            '202': {
              description: 'Queued.',
              content: json(ref('WebhookTest')),
            },
            '404': errorResponse('No such endpoint.'),
            '409': errorResponse('The endpoint is disabled, or not subscribed to `package.sorting` (`conflict`).'),
          },
        },
      },
      '/webhooks/{id}/deliveries': {
        parameters: [idParam],
        get: {
          tags: ['Webhooks'],
          operationId: 'listWebhookDeliveries',
          summary: 'List delivery attempts',
          description: 'Newest first, a page at a time.',
          parameters: Object.entries((inputSchema(ZListWebhookDeliveriesQuery).properties ?? {}) as Record<string, Json>).map(
            ([name, schema]) => ({
              name,
              in: 'query',
              required: false,
              schema: name === 'cursor' ? { type: 'string', description: 'next_cursor of the previous page.' } : schema,
            }),
          ),
          responses: {
            '200': {
              description: 'A page of attempts.',
              content: json(ref('WebhookDeliveryList')),
            },
            '404': errorResponse('No such endpoint.'),
          },
        },
      },
      '/webhooks/{id}/deliveries/{deliveryId}/redeliver': {
        parameters: [
          idParam,
          pathParameter(
            'deliveryId',
            'A delivery (`att_…`) or message id (`msg_…`, the `webhook-id` of its deliveries).',
            EXAMPLE_ID.delivery,
          ),
        ],
        post: {
          tags: ['Webhooks'],
          operationId: 'redeliverWebhook',
          summary: 'Redeliver a message now',
          description:
            'The same body and `webhook-id` as before, signed again with a fresh `webhook-timestamp` (and the secrets that sign now).',
          responses: {
            '202': {
              description: 'Queued for delivery.',
              content: json(ref('WebhookRedelivery')),
            },
            '404': errorResponse('No such endpoint or delivery.'),
            '409': errorResponse('The endpoint is disabled, or the message is being delivered right now (`conflict`).'),
          },
        },
      },
      ...lifecyclePaths(),
      ...eventPaths(),
      ...requestPaths(),
    }),
    webhooks: withDeliveries({
      ...lifecycleWebhooks(),
      [PACKAGE_SORTING_EVENT]: {
        post: {
          operationId: 'onPackageSorting',
          summary: 'Package sorting notification',
          description:
            'Sent to each enabled endpoint subscribed to `package.sorting` when a package manifest is accepted. Every delivery, of this event and the others, ' +
            'carries `x-carrier-event` (the event name) and is signed per the Standard Webhooks spec: verify `webhook-signature` (`v1,<base64 HMAC-SHA256>` of ' +
            '`<webhook-id>.<webhook-timestamp>.<body>` with your `whsec_…` secret), e.g. with the `standardwebhooks` package. Its body is exactly ' +
            '`manifest_id`, `package_count` and `tracking_numbers`, without the `type` the other events carry: the header names it. ' +
            'Answer 2xx within 10 s; otherwise it is retried after about 5 s, 30 s, 2 min, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h. Delivery is at least once: deduplicate on `webhook-id`.',
          requestBody: { required: true, content: json(ref('PackageSortingPayload')) },
          responses: { '200': { description: 'Any 2xx acknowledges the delivery.' } },
        },
      },
    }),
    components: {
      securitySchemes: {
        Token: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: `Send \`Authorization: Token <token>\`. Create tokens in the portal under API tokens. ${SCOPES_DESCRIPTION}`,
        },
      },
      schemas: {
        RateRequest: rateRequestSchema(),
        ContainerManifestRequest: containerManifestSchema(),
        ContainerDetail: inputSchema(ZContainerDetail),
        Package: { ...withAliases(inputSchema(ZPackage), PACKAGE_MANIFEST_ALIASES), example: packageExample },
        PackageManifestRequest: { type: 'object', required: ['package'], properties: { package: ref('Package') } },
        CreateWebhookRequest: webhookRequestSchema(ZCreateWebhookRequest),
        UpdateWebhookRequest: { ...webhookRequestSchema(ZUpdateWebhookRequest), minProperties: 1 },
        RotateWebhookSecretRequest: { ...inputSchema(ZRotateWebhookSecretRequest), additionalProperties: false },
        ...responseSchemas(),
        ...lifecycleSchemas(),
        ...eventSchemas(),
        ...requestSchemas(),
      },
    },
  };
  return cached;
}
