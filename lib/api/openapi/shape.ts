import { z } from 'zod';

// The parts of our OpenAPI 3.1 document that the portal's reference page reads, as Zod schemas: the page
// parses the document once instead of casting its JSON at each use. Loose objects, so keys the page does not
// show pass through untouched; a key it does show with an unexpected type fails the parse (and the unit test).

export interface OpenApiSchema {
  $ref?: string;
  const?: unknown;
  allOf?: OpenApiSchema[];
  anyOf?: OpenApiSchema[];
  type?: string | string[];
  items?: OpenApiSchema;
  properties?: Record<string, OpenApiSchema>;
  required?: string[];
  enum?: unknown[];
  format?: string;
  pattern?: string;
  exclusiveMinimum?: number;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  maxItems?: number;
  examples?: unknown[];
  example?: unknown;
  description?: string;
}

export const ZOpenApiSchema: z.ZodType<OpenApiSchema> = z.lazy(() =>
  z.looseObject({
    $ref: z.string().optional(),
    const: z.unknown().optional(),
    allOf: z.array(ZOpenApiSchema).optional(),
    anyOf: z.array(ZOpenApiSchema).optional(),
    type: z.union([z.string(), z.array(z.string())]).optional(),
    items: ZOpenApiSchema.optional(),
    properties: z.record(z.string(), ZOpenApiSchema).optional(),
    required: z.array(z.string()).optional(),
    enum: z.array(z.unknown()).optional(),
    format: z.string().optional(),
    pattern: z.string().optional(),
    exclusiveMinimum: z.number().optional(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    maxLength: z.number().optional(),
    maxItems: z.number().optional(),
    examples: z.array(z.unknown()).optional(),
    example: z.unknown().optional(),
    description: z.string().optional(),
  }),
);

const ZMedia = z.looseObject({ schema: ZOpenApiSchema.optional(), example: z.unknown().optional() });
const ZContent = z.looseObject({ 'application/json': ZMedia.optional() });

const ZParameter = z.looseObject({
  name: z.string(),
  in: z.string(),
  required: z.boolean().optional(),
  description: z.string().optional(),
  schema: ZOpenApiSchema.optional(),
  example: z.unknown().optional(),
});

const ZOperation = z.looseObject({
  summary: z.string().optional(),
  description: z.string().optional(),
  tags: z.array(z.string()).default([]),
  parameters: z.array(ZParameter).default([]),
  requestBody: z.looseObject({ content: ZContent }).optional(),
  responses: z
    .record(z.string(), z.looseObject({ description: z.string().optional(), content: ZContent.optional() }))
    .default({}),
});

export const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

const ZPathItem = z.looseObject({
  parameters: z.array(ZParameter).default([]),
  get: ZOperation.optional(),
  post: ZOperation.optional(),
  put: ZOperation.optional(),
  patch: ZOperation.optional(),
  delete: ZOperation.optional(),
});

export const ZOpenApiDocument = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string(), description: z.string().optional() }),
  servers: z.array(z.looseObject({ url: z.string(), description: z.string() })).default([]),
  tags: z.array(z.looseObject({ name: z.string(), description: z.string().optional() })).default([]),
  paths: z.record(z.string(), ZPathItem),
  components: z.looseObject({ schemas: z.record(z.string(), ZOpenApiSchema) }),
  webhooks: z.record(z.string(), z.looseObject({ post: ZOperation })).default({}),
});

export type TOpenApiDocument = z.output<typeof ZOpenApiDocument>;
export type TOpenApiOperation = z.output<typeof ZOperation>;
export type TOpenApiParameter = z.output<typeof ZParameter>;
export type TOpenApiMedia = z.output<typeof ZMedia>;

/**
 * A path with each `{parameter}` replaced by the example the document gives it (`/events/{id}` → `/events/evt_…`), for
 * a snippet that can be sent as it is: each id with its own resource's prefix, not one kind of id for every path. A
 * parameter without an example stays `{name}`.
 */
export function examplePath(path: string, parameters: readonly TOpenApiParameter[]): string {
  return path.replace(/\{([^}]+)\}/g, (placeholder, name: string) => {
    const example = parameters.find((p) => p.in === 'path' && p.name === name)?.example;
    return typeof example === 'string' || typeof example === 'number' ? encodeURIComponent(String(example)) : placeholder;
  });
}
