import { describe, expect, it } from 'vitest';
import { API_SCOPES, CARRIER_OPERATIONS } from '@/lib/auth/scopes';
import { OPERATIONS } from '../registry';
import { openApiDocument } from './document';

type Json = Record<string, unknown>;
const doc = openApiDocument() as Json & { paths: Record<string, Json>; components: { schemas: Json } };

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 with both servers and the Token scheme', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect((doc.servers as { url: string }[]).map((s) => s.url)).toEqual(['/api/1.1', '/version-test/api/1.1']);
    expect(doc.components).toHaveProperty(['securitySchemes', 'Token', 'name'], 'Authorization');
  });

  it('documents every operation of the registry once, and nothing else', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(
        ([method, operation]) => `${method.toUpperCase()} ${path} ${(operation as Json).operationId as string}`,
      ),
    );
    expect(documented.sort()).toEqual(OPERATIONS.map((op) => `${op.method} ${op.path} ${op.id}`).sort());
    expect(new Set(OPERATIONS.map((op) => op.id)).size).toBe(OPERATIONS.length);
  });

  it("names every operation's scope and its 403 insufficient_scope", () => {
    for (const { method, path, scope } of OPERATIONS) {
      const op = (doc.paths[path] as Record<string, Json>)[method.toLowerCase()] as {
        security?: { Token: string[] }[];
        responses: Record<string, { description: string }>;
      };
      if (scope === CARRIER_OPERATIONS) {
        expect(op.security, `${method} ${path}`).toBeUndefined();
        continue;
      }
      expect(op.security, `${method} ${path}`).toEqual([{ Token: [scope] }]);
      expect(op.responses['403']?.description, `${method} ${path}`).toContain(`\`${scope}\``);
    }
    const error = doc.components.schemas.Error as { properties: { error: { properties: Record<string, { enum?: string[] }> } } };
    expect(error.properties.error.properties.code?.enum).toContain('insufficient_scope');
    expect(error.properties.error.properties.required_scope?.enum).toEqual([...API_SCOPES]);
  });

  it('every $ref resolves', () => {
    const refs = [...JSON.stringify(doc).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(10);
    for (const name of refs) expect(doc.components.schemas).toHaveProperty([name ?? '']);
  });

  it('request schemas come from the Zod schemas, with their documented types', () => {
    const rate = doc.components.schemas.RateRequest as {
      properties: Record<string, Json>;
      required: string[];
      description: string;
    };
    // `length` or its published spelling `lenght`: both listed, both optional, and the rule in words. A plain object
    // (no allOf/anyOf), so that a renderer lists its fields.
    expect(rate.required.sort()).toEqual(['height', 'weight', 'weight_unit', 'width']);
    expect(Object.keys(rate).filter((k) => ['allOf', 'anyOf', 'oneOf', 'not', 'if'].includes(k))).toEqual([]);
    expect(rate).toMatchObject({ type: 'object' });
    expect(Object.keys(rate.properties)).toEqual(expect.arrayContaining(['weight', 'length', 'lenght', 'width', 'height']));
    expect(rate.description).toContain('One of `length` or `lenght` is required.');
    for (const name of ['length', 'lenght'])
      expect(rate.properties[name]?.description, name).toContain('One of `length` or `lenght` is required.');
    // The same for every request schema with published spellings: none is a composition a renderer shows as "any".
    for (const name of ['RateRequest', 'ContainerManifestRequest', 'Package']) {
      const schema = doc.components.schemas[name] as Json;
      expect(schema.type, name).toBe('object');
      expect(schema.allOf ?? schema.anyOf ?? schema.oneOf, name).toBeUndefined();
    }
    // A number, or numeric text (the published samples send "2.5").
    expect(rate.properties.weight?.type).toEqual(['number', 'string']);
    expect(rate.properties.weight_unit?.enum).toEqual(['lb', 'kg', 'oz']);
    const pkg = doc.components.schemas.Package as { properties: Record<string, Json>; required: string[] };
    expect(pkg.required).toContain('TrackingNumber');
    // A date, or a date-time with or without an offset: what the field reads, which JSON Schema's date-time is not.
    expect(pkg.properties.ManifestDate?.pattern).toEqual(expect.stringContaining('\\d{4}-\\d{2}-\\d{2}'));
    // No field is left without a type: a bare transform would document as {}.
    for (const name of [
      'RateRequest',
      'Package',
      'ContainerManifestRequest',
      'ContainerDetail',
      'CreateWebhookRequest',
      'UpdateWebhookRequest',
      'RotateWebhookSecretRequest',
    ]) {
      const schema = doc.components.schemas[name] as { properties: Record<string, Json> };
      for (const [field, property] of Object.entries(schema.properties)) {
        expect(property.type ?? property.$ref, `${name}.${field}`).toBeDefined();
      }
    }
  });

  it('documents a bound for every request string and array (the memory budget)', () => {
    const names = [
      'RateRequest',
      'Package',
      'ContainerManifestRequest',
      'ContainerDetail',
      'CreateWebhookRequest',
      'UpdateWebhookRequest',
    ];
    for (const name of names) {
      const schema = doc.components.schemas[name] as { properties: Record<string, Json> };
      for (const [field, property] of Object.entries(schema.properties)) {
        const types = ([] as unknown[]).concat(property.type);
        if (types.includes('string')) expect(property.maxLength, `${name}.${field}`).toEqual(expect.any(Number));
        if (types.includes('array')) expect(property.maxItems, `${name}.${field}`).toEqual(expect.any(Number));
      }
    }
    const container = doc.components.schemas.ContainerManifestRequest as { properties: Record<string, Json> };
    expect(container.properties.ContainerDetails?.maxItems).toBe(5000);
    expect(container.properties.FromCompany?.maxLength).toBe(255);
    const hook = doc.components.schemas.CreateWebhookRequest as { properties: Record<string, Json> };
    expect(hook.properties.events?.maxItems).toBe(40);
    expect(hook.properties.url?.maxLength).toBe(2048);
  });

  it('declares every tag an operation or a webhook uses, each with a description, and uses every one it declares', () => {
    const declared = (doc.tags as { name: string; description?: string }[]).map((tag) => tag.name);
    for (const tag of doc.tags as { name: string; description?: string }[]) expect(tag.description, tag.name).toMatch(/\w/);
    const used = new Set<string>();
    const items = [...Object.values(doc.paths), ...Object.values(doc.webhooks as Record<string, Json>)];
    for (const item of items) {
      for (const [method, operation] of Object.entries(item).filter(([k]) => k !== 'parameters')) {
        const tags = (operation as { tags?: string[] }).tags ?? [];
        expect(tags.length, `${method} ${JSON.stringify(tags)}`).toBeGreaterThan(0);
        for (const tag of tags) used.add(tag);
      }
    }
    expect([...used].filter((tag) => !declared.includes(tag))).toEqual([]);
    expect(declared.filter((tag) => !used.has(tag))).toEqual([]);
  });

  it('documents 401, 403 (for a scope) and 429 with Retry-After on every operation: every one takes a token', () => {
    let operations = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item).filter(([k]) => k !== 'parameters')) {
        const op = operation as {
          responses: Record<string, { description: string; headers?: Record<string, { required?: boolean }> }>;
        };
        const at = `${method} ${path}`;
        expect(op.responses['401']?.description, at).toContain('token');
        expect(op.responses['403'], at).toBeDefined();
        expect(op.responses['429']?.headers?.['Retry-After']?.required, at).toBe(true);
        // In the order of their codes.
        const codes = Object.keys(op.responses);
        expect(codes, at).toEqual([...codes].sort());
        operations += 1;
      }
    }
    expect(operations).toBe(56);
  });

  it('documents the headers of every webhook delivery: x-carrier-event and the Standard Webhooks three', () => {
    const webhooks = doc.webhooks as Record<
      string,
      { post: { parameters: { name: string; in: string; required: boolean; schema: Json }[] } }
    >;
    expect(Object.keys(webhooks).length).toBeGreaterThan(10);
    for (const [event, item] of Object.entries(webhooks)) {
      const headers = Object.fromEntries(item.post.parameters.filter((p) => p.in === 'header').map((p) => [p.name, p]));
      for (const name of ['x-carrier-event', 'webhook-id', 'webhook-timestamp', 'webhook-signature'])
        expect(headers[name]?.required, `${event} ${name}`).toBe(true);
      expect(headers['x-carrier-event']?.schema, event).toEqual({ type: 'string', const: event });
      // Only package.sorting is ever sent as a test event.
      expect(headers['x-carrier-test-event']?.required, event).toBe(event === 'package.sorting' ? false : undefined);
    }
    // Every event but package.sorting names itself in its signed body.
    const lifecycle = doc.components.schemas.LifecycleWebhookPayload as { properties: Record<string, Json>; required: string[] };
    expect(lifecycle.properties.type).toMatchObject({ type: 'string' });
    expect(lifecycle.required).toContain('type');
    const sorting = doc.components.schemas.PackageSortingPayload as { properties: Record<string, Json> };
    expect(sorting.properties.type).toBeUndefined();
  });
});
