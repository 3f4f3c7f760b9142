import { describe, expect, it } from 'vitest';
import { openApiDocument } from './document';
import { ZOpenApiDocument } from './shape';

describe('ZOpenApiDocument (what the reference page reads of the document)', () => {
  it('accepts the document the service publishes, keeping every operation and schema', () => {
    const raw = openApiDocument();
    const doc = ZOpenApiDocument.parse(raw);
    expect(Object.keys(doc.paths)).toEqual(Object.keys(Object(raw.paths)));
    expect(Object.keys(doc.components.schemas)).toEqual(Object.keys(Object(Object(raw.components).schemas)));
    expect(doc.paths['/wf/rate']?.post?.tags).toEqual(['Rating']);
  });

  it('refuses a document whose fields the page shows have another type', () => {
    const raw = openApiDocument();
    const result = ZOpenApiDocument.safeParse({
      ...raw,
      components: { schemas: { Broken: { properties: { a: { maxLength: '5' } } } } },
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['components', 'schemas', 'Broken', 'properties', 'a', 'maxLength']);
  });
});
