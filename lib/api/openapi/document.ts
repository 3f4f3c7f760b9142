import { z } from 'zod';
import { API_SCOPES, CARRIER_OPERATIONS, SCOPE_DESCRIPTIONS } from '@/lib/auth/scopes';
import { jsonSchemaOf, ref, type Json } from './parts';
import { PACKAGE_EXAMPLE } from './examples';
import { OPERATIONS } from '../registry';
import { OPERATION_TAGS, type OperationDefinition, type OperationTag, type SuccessAnswer } from '../operation';
import { LISTED_RESPONSES, listedSchemas } from './listed';
import { lifecycleSchemas, lifecycleWebhooks } from './lifecycle';
import { billingSchemas, billingWebhooks } from './billing';
import { customsSchemas, customsWebhooks } from './customs';
import { pickupSchemas, pickupWebhooks } from './pickups';
import { returnWebhooks } from './returns';
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

// The OpenAPI 3.1 document, generated from the operation registry and the Zod schemas, so the reference cannot drift
// from what the server accepts and answers. Written here: what a schema cannot say of itself, the webhooks, the head.

const inputSchema = (schema: z.ZodType) => jsonSchemaOf(schema, 'input');

/** Generated together, so a schema used inside another is a $ref to its component rather than a copy. */
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

/** The name each response schema is listed under: an operation answering with it refers to the component. */
const COMPONENT_NAMES = new Map<z.ZodType, string>(
  [...Object.entries(RESPONSE_COMPONENTS), ...Object.entries(LISTED_RESPONSES)].map(([name, schema]) => [schema, name]),
);

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
    // Zod closes every object, so an undocumented field is drift the API suite catches. An intersection's parts each
    // list only their own properties, so they are left open and the whole is closed instead.
    override: ({ zodSchema, jsonSchema }) => {
      if (parts.has(zodSchema)) delete jsonSchema.additionalProperties;
      if (zodSchema instanceof z.ZodIntersection) jsonSchema.unevaluatedProperties = false;
    },
  }) as { schemas: Record<string, Json> };
  return Object.fromEntries(Object.entries(schemas).map(([id, { $schema: _schema, $id: _id, ...schema }]) => [id, schema]));
}

/**
 * Published alternative spellings, each a property listed after its field's, so the published samples validate. A
 * required field with another spelling is required in words: allOf/anyOf of `required` made renderers show "any".
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
  properties.from_zip = {
    ...properties.from_zip,
    description: 'Origin US ZIP or Canadian postal code. Required by Carrier Express and Carrier Ground.',
  };
  properties.to_zip = {
    ...properties.to_zip,
    description: 'Destination US ZIP or Canadian postal code. Required by Carrier Express and Carrier Ground.',
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

function errorResponse(description: string, extra: Json = {}): Json {
  return { description, content: { 'application/json': { schema: ref('Error') } }, ...extra };
}

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

/** A named component's reference for a response schema the document lists, else the schema itself. */
function responseSchemaOf(schema: z.ZodType): Json {
  const name = COMPONENT_NAMES.get(schema);
  return name ? ref(name) : jsonSchemaOf(schema, 'output');
}

function binary(types: readonly string[]): Json {
  return Object.fromEntries(
    types.map((type) => [
      type,
      { schema: type === 'application/zpl' ? { type: 'string' } : { type: 'string', format: 'binary' } },
    ]),
  );
}

function successResponses(success: SuccessAnswer): Record<string, Json> {
  switch (success.kind) {
    case 'json':
      return {
        [String(success.status)]: {
          description: success.description,
          ...(success.headers ? { headers: success.headers } : {}),
          content: json(responseSchemaOf(success.schema), success.example),
        },
      };
    case 'file':
      return {
        '200': {
          description: success.description,
          ...(success.headers ? { headers: success.headers } : {}),
          content: binary(success.contentTypes),
        },
      };
    case 'empty':
      return { [String(success.status)]: { description: success.description } };
  }
}

/**
 * One operation plus the answers every operation shares, added here and nowhere else: 401, 429 with Retry-After, and
 * for a shipper's operation its scope (OpenAPI 3.1 lets an apiKey requirement list roles) and 403. Its own 401/429 are kept.
 */
function operationObject(definition: OperationDefinition): Json {
  const { scope, method } = definition;
  const parameters: Json[] = [...(definition.parameters ?? [])];
  const responses: Record<string, Json> = {
    '401': UNAUTHORIZED,
    '429': RATE_LIMITED,
    ...successResponses(definition.success),
    ...definition.errors,
  };
  const op: Json = {
    tags: [definition.tag],
    operationId: definition.id,
    summary: definition.summary,
    ...(definition.description ? { description: definition.description } : {}),
  };
  // The carrier's operations tokens have no scopes: the operation says whose tokens it takes (its own 403).
  if (scope !== CARRIER_OPERATIONS) {
    op.security = [{ Token: [scope] }];
    responses['403'] = errorResponse(
      `The token lacks the \`${scope}\` scope (\`insufficient_scope\`; \`required_scope\` names it), or is a carrier operations token (\`forbidden\`).`,
    );
  }
  // Every shipper POST takes an Idempotency-Key (lib/http/idempotency.ts): its refusals are answers of its own.
  if (method === 'POST' && scope !== CARRIER_OPERATIONS) {
    parameters.push(IDEMPOTENCY_KEY);
    responses['409'] ??= errorResponse(
      '`conflict`: a request with the same `Idempotency-Key` is still running; retry after `Retry-After`.',
    );
    responses['422'] ??= errorResponse(
      '`validation_failed`, naming each field; or an `Idempotency-Key` already used with another request.',
    );
  }
  if (parameters.length > 0) op.parameters = parameters;
  if (definition.requestBody) op.requestBody = definition.requestBody;
  op.responses = byStatus(responses);
  if (definition.deprecation) op.deprecated = true;
  return op;
}

/** The document's paths: every operation of the registry under its path, in the registry's order. */
function registryPaths(): Record<string, Json> {
  const paths: Record<string, Json> = {};
  for (const definition of OPERATIONS) {
    const item = (paths[definition.path] ??= {});
    item[definition.method.toLowerCase()] = operationObject(definition);
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

/** In the order the reference shows them; renderers leave out operations whose tag is undeclared, so all are required. */
const TAG_DESCRIPTIONS: Readonly<Record<OperationTag, string>> = {
  Rating: 'Price a package against the rate cards.',
  Addresses: 'Check an address before it goes on a label: its city, state or province and country against its postal code.',
  Manifests: 'Tell the carrier what it will receive: container manifests and packages.',
  Lifecycle:
    'Manifests and packages after they were sent: read them with their status and timeline, cancel or close them, and (test path only) simulate their progress.',
  Documents: 'Handover manifests, container tags and package labels, as PDF, ZPL II or PNG.',
  Customs:
    'Cross-border air cargo: customs declarations per parcel, house and master waybills, ULDs, readiness per destination regime, customs outcomes, and the ONE Record export.',
  Pickups:
    'The carrier collects a manifest, or some packages, from an address within a window the service allows; cancel before it opens.',
  Webhooks:
    'Endpoints that receive `package.sorting` and lifecycle notifications, and the deliveries themselves: each carries `x-carrier-event` (the event name) and is signed per the Standard Webhooks spec (`webhook-id`, `webhook-timestamp`, `webhook-signature`).',
  Events: 'What the webhooks announced, to read back or to poll.',
  Requests: 'The request log: what was sent and answered, kept 30 days.',
  Billing:
    "Invoices: one per period (a calendar month, or a week) in the account's close-out time zone, numbered without gaps, never changed; their lines as CSV and the PDF.",
  'Carrier operations': "The carrier's own calls, with carrier operations tokens (`ck_ops_…`) only: scans from its terminals.",
};
const TAGS: Json[] = OPERATION_TAGS.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] }));

const SCOPES_DESCRIPTION =
  'A token has full access (every scope, those added later included; every token made before scopes has it) or only the scopes it was created with. ' +
  'Each operation lists the one scope it needs; a token without it is answered 403 `insufficient_scope`, with `required_scope` naming it. Scopes: ' +
  API_SCOPES.map((scope) => `\`${scope}\`: ${SCOPE_DESCRIPTIONS[scope]}`).join(' ');

let cached: Json | undefined;

/** The whole OpenAPI 3.1 document; built once per process (the schemas do not change at runtime). */
export function openApiDocument(): Json {
  if (cached) return cached;
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
    paths: registryPaths(),
    webhooks: withDeliveries({
      ...lifecycleWebhooks(),
      ...customsWebhooks(),
      ...pickupWebhooks(),
      ...returnWebhooks(),
      ...billingWebhooks(),
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
        Package: { ...withAliases(inputSchema(ZPackage), PACKAGE_MANIFEST_ALIASES), example: PACKAGE_EXAMPLE },
        PackageManifestRequest: { type: 'object', required: ['package'], properties: { package: ref('Package') } },
        CreateWebhookRequest: webhookRequestSchema(ZCreateWebhookRequest),
        UpdateWebhookRequest: { ...webhookRequestSchema(ZUpdateWebhookRequest), minProperties: 1 },
        RotateWebhookSecretRequest: { ...inputSchema(ZRotateWebhookSecretRequest), additionalProperties: false },
        ...responseSchemas(),
        ...listedSchemas(),
        ...lifecycleSchemas(),
        ...customsSchemas(),
        ...pickupSchemas(),
        ...billingSchemas(),
      },
    },
  };
  return cached;
}
