import { describe, expect, it } from 'vitest';
import { openApiDocument } from './document';
import { examplePath, METHODS, ZOpenApiDocument } from './shape';

// Every example id in the document has the prefix of the resource it names (lib/ids.ts, the request id of
// lib/http/api-steps.ts, att_<n> of the delivery log): a path parameter by the collection before it, a field by its
// name (or, for `id`, by the schema it belongs to). The reference's curl snippets had put a webhook endpoint's `we_…`
// into /events/{id} and /requests/{id}; built from these examples (examplePath), each path gets its own kind of id.

type Json = Record<string, unknown>;

/** The collection a path parameter follows → the prefixes its ids have. Packages are named by the shipper's tracking number. */
const COLLECTION_PREFIX: Record<string, readonly string[]> = {
  webhooks: ['we_'],
  events: ['evt_'],
  requests: ['req_'],
  manifests: ['MAN-'],
  deliveries: ['att_', 'msg_'],
  packages: [''],
  invoices: ['inv_'],
  pickups: ['pu_'],
};

/** A field → the prefix of the id it holds. */
const FIELD_PREFIX: Record<string, string> = {
  manifest_id: 'MAN-',
  ManifestID: 'MAN-',
  event_id: 'evt_',
  message_id: 'msg_',
  request_id: 'req_',
  endpoint_id: 'we_',
};

/** The schemas whose own `id` is a known kind of id (the lists' items included). */
const ID_PREFIX: Record<string, string> = {
  WebhookEndpoint: 'we_',
  WebhookEndpointList: 'we_',
  WebhookEndpointWithSecret: 'we_',
  RotatedWebhookEndpoint: 'we_',
  WebhookDelivery: 'att_',
  WebhookDeliveryList: 'att_',
  WebhookEvent: 'evt_',
  WebhookEventList: 'evt_',
  RequestLogEntry: 'req_',
  RequestLogList: 'req_',
  Invoice: 'inv_',
  InvoiceList: 'inv_',
};

type Doc = Json & { paths: Record<string, Json>; webhooks?: Record<string, Json>; components: { schemas: Record<string, Json> } };
const doc = openApiDocument() as Doc;

/** Each id in an example value, by the field that holds it: [where, field, value]. */
function idsInExample(value: unknown, where: string, owner: string | undefined, out: [string, string, unknown][]): void {
  if (Array.isArray(value)) value.forEach((item, i) => idsInExample(item, `${where}/${i}`, owner, out));
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key in FIELD_PREFIX || (key === 'id' && owner && owner in ID_PREFIX))
        out.push([`${where}/${key}`, key === 'id' ? `${owner}.id` : key, inner]);
      idsInExample(inner, `${where}/${key}`, owner, out);
    }
  }
}

function prefixOf(field: string): string | undefined {
  return field.endsWith('.id') ? ID_PREFIX[field.slice(0, -'.id'.length)] : FIELD_PREFIX[field];
}

const operationsOf = (item: Json) => Object.entries(item).filter(([k]) => k !== 'parameters') as [string, Json][];

/** Every example of an id in the schemas, their examples and the operations' and webhooks' examples. */
function exampleIds(document: Doc): [string, string, unknown][] {
  const out: [string, string, unknown][] = [];
  const visitSchema = (schema: unknown, where: string, owner: string | undefined) => {
    if (Array.isArray(schema)) return schema.forEach((s, i) => visitSchema(s, `${where}/${i}`, owner));
    if (!schema || typeof schema !== 'object') return;
    const json = schema as Json;
    for (const [name, property] of Object.entries((json.properties ?? {}) as Record<string, Json>)) {
      const field = name === 'id' && owner && owner in ID_PREFIX ? `${owner}.id` : name in FIELD_PREFIX ? name : undefined;
      if (!field) continue;
      for (const example of [
        ...((property.examples as unknown[] | undefined) ?? []),
        ...(property.example === undefined ? [] : [property.example]),
      ])
        out.push([`${where}/properties/${name}`, field, example]);
    }
    if (json.example !== undefined) idsInExample(json.example, `${where}/example`, owner, out);
    for (const [key, inner] of Object.entries(json))
      if (key !== 'example' && key !== 'examples') visitSchema(inner, `${where}/${key}`, owner);
  };
  for (const [name, schema] of Object.entries(document.components.schemas))
    visitSchema(schema, `#/components/schemas/${name}`, name);
  const media = (content: unknown, where: string) => {
    for (const [type, m] of Object.entries((content ?? {}) as Record<string, Json>)) {
      const owner = ((m.schema as Json | undefined)?.$ref as string | undefined)?.split('/').at(-1);
      if (m.example !== undefined) idsInExample(m.example, `${where}/${type}/example`, owner, out);
    }
  };
  for (const [path, item] of [...Object.entries(document.paths), ...Object.entries(document.webhooks ?? {})]) {
    for (const [method, operation] of operationsOf(item)) {
      const op = operation as { requestBody?: { content: unknown }; responses: Record<string, { content?: unknown }> };
      media(op.requestBody?.content, `${method} ${path} request`);
      for (const [status, response] of Object.entries(op.responses)) media(response.content, `${method} ${path} ${status}`);
    }
  }
  return out;
}

/** An id example without its resource's prefix, as `where (field): value`. */
function idProblems(document: Doc): string[] {
  return exampleIds(document)
    .filter(([, field, value]) => {
      const prefix = prefixOf(field) ?? '';
      return typeof value !== 'string' || !value.startsWith(prefix) || value.length === prefix.length;
    })
    .map(([where, field, value]) => `${where} (${field}): ${JSON.stringify(value)}`);
}

/** A path parameter without an example, or whose example lacks the prefix of the collection it follows. */
function pathParameterProblems(document: Doc): { problems: string[]; checked: number } {
  const problems: string[] = [];
  let checked = 0;
  for (const [path, item] of Object.entries(document.paths)) {
    const shared = (item.parameters ?? []) as Json[];
    for (const [method, operation] of operationsOf(item)) {
      const parameters = [...shared, ...((operation.parameters ?? []) as Json[])].filter((p) => p.in === 'path');
      const segments = path.split('/');
      for (const name of [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1])) {
        checked += 1;
        const example = parameters.find((p) => p.name === name)?.example;
        const prefixes = COLLECTION_PREFIX[segments[segments.indexOf(`{${name}}`) - 1] ?? ''];
        if (!prefixes) problems.push(`${method} ${path} {${name}}: a collection this test does not know`);
        else if (typeof example !== 'string' || !prefixes.some((prefix) => example.startsWith(prefix)))
          problems.push(`${method} ${path} {${name}}: ${JSON.stringify(example)} does not start with ${prefixes.join(' or ')}`);
      }
    }
  }
  return { problems, checked };
}

describe('example ids in the OpenAPI document', () => {
  it('gives every path parameter an example with the prefix of the collection it follows', () => {
    const { problems, checked } = pathParameterProblems(doc);
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(20);
  });

  it('gives every id a field or schema names the prefix of its resource', () => {
    expect(idProblems(doc)).toEqual([]);
    // The endpoint's and the delivery's ids, the manifests' ManifestIDs and package.sorting's manifest_id at least.
    expect(exampleIds(doc).length).toBeGreaterThanOrEqual(8);
  });

  it('sees a wrong prefix', () => {
    const broken = structuredClone(doc);
    const eventId = (broken.paths['/events/{id}'] as { get: { parameters: Json[] } }).get.parameters[0];
    if (eventId) eventId.example = 'we_3k9x2m4t8v6w1z5q7r0y';
    expect(pathParameterProblems(broken).problems).toEqual([
      'get /events/{id} {id}: "we_3k9x2m4t8v6w1z5q7r0y" does not start with evt_',
    ]);
    const sorting = broken.components.schemas.PackageSortingPayload as Json;
    sorting.example = { ...(sorting.example as Json), manifest_id: 'evt_1' };
    expect(idProblems(broken)).toEqual(['#/components/schemas/PackageSortingPayload/example/manifest_id (manifest_id): "evt_1"']);
  });

  it('makes every curl path of the reference a sendable path with the right kind of id', () => {
    const parsed = ZOpenApiDocument.parse(doc);
    const paths: string[] = [];
    for (const [path, item] of Object.entries(parsed.paths)) {
      for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        const sample = examplePath(path, [...item.parameters, ...op.parameters]);
        expect(sample, `${method} ${path}`).not.toContain('{');
        paths.push(sample);
      }
    }
    expect(paths).toContain('/events/evt_7k3q9x2m4t8v6w1z5q7r0y2b');
    expect(paths).toContain('/requests/req_4f1c2a9e7b3d4c5e8f9a0b1c2d3e4f5a');
    expect(paths).toContain('/webhooks/we_3k9x2m4t8v6w1z5q7r0y/deliveries/att_42/redeliver');
    expect(paths).toContain('/manifests/MAN-7K3Q9X2M4T8V6W1Z/close');
    expect(paths).toContain('/packages/1Z999AA10123456784/label');
    expect(paths.filter((p) => /\/(events|requests|manifests)\/we_/.test(p))).toEqual([]);
  });
});
