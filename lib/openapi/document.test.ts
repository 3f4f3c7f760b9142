import { describe, expect, it } from 'vitest';
import { API_SCOPES, CARRIER_OPERATIONS, routeScope } from '@/lib/auth/scopes';
import { apiRoutes } from '@/lib/http/routes';
import { openApiDocument } from './document';

type Json = Record<string, unknown>;
const doc = openApiDocument() as Json & { paths: Record<string, Json>; components: { schemas: Json } };

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 with both servers and the Token scheme', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect((doc.servers as { url: string }[]).map((s) => s.url)).toEqual(['/api/1.1', '/version-test/api/1.1']);
    expect(doc.components).toHaveProperty(['securitySchemes', 'Token', 'name'], 'Authorization');
  });

  it('documents only paths and methods the API router serves, in both environments', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      // The document's {name} is the route table's :name (Fastify's router mounts the table under both bases).
      const pattern = path.replace(/\{[^}]+\}/g, ':');
      const route = apiRoutes().find((r) => r.pattern.replace(/:[^/]+/g, ':') === pattern);
      expect(route, path).toBeDefined();
      for (const method of Object.keys(item).filter((k) => k !== 'parameters')) {
        expect(Object.keys(route?.methods ?? {}), `${method} ${path}`).toContain(method.toUpperCase());
      }
    }
  });

  it('names every operation\'s scope (lib/auth/scopes.ts) and its 403 insufficient_scope', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item).filter(([k]) => k !== 'parameters')) {
        const op = operation as { security?: { Token: string[] }[]; responses: Record<string, { description: string }> };
        const route = apiRoutes().find((r) => r.pattern.replace(/:[^/]+/g, ':') === path.replace(/\{[^}]+\}/g, ':'));
        const scope = routeScope(method.toUpperCase(), route?.pattern ?? '');
        if (scope === CARRIER_OPERATIONS) {
          expect(op.security, `${method} ${path}`).toBeUndefined();
          continue;
        }
        expect(op.security, `${method} ${path}`).toEqual([{ Token: [scope] }]);
        expect(op.responses['403']?.description, `${method} ${path}`).toContain(`\`${scope}\``);
      }
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
    const rate = doc.components.schemas.RateRequest as { properties: Record<string, Json>; required: string[] };
    // `length` or its published spelling `lenght`: either satisfies the requirement.
    expect(rate.required.sort()).toEqual(['height', 'weight', 'weight_unit', 'width']);
    expect((rate as Json).allOf).toEqual([{ anyOf: [{ required: ['length'] }, { required: ['lenght'] }] }]);
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
    expect(hook.properties.events?.maxItems).toBe(20);
    expect(hook.properties.url?.maxLength).toBe(2048);
  });
});
