import { z } from 'zod';

// The small pieces every part of the OpenAPI document is built from (document.ts, lifecycle.ts, events.ts,
// requests.ts): a schema's JSON Schema as a request reads it or as a response is written, a reference to a
// component, a JSON answer, the error envelope, and a query schema's parameters.

export type Json = Record<string, unknown>;

/** A Zod schema as JSON Schema 2020-12: `input`, what a request may send; `output`, what an answer holds. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Json {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  delete json.$schema;
  return json;
}

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A JSON answer whose body is the named component. */
export const jsonAnswer = (description: string, schema: string): Json => ({ description, content: { 'application/json': { schema: ref(schema) } } });

/** An error answer: the `Error` envelope. */
export const errorAnswer = (description: string): Json => ({ description, content: { 'application/json': { schema: ref('Error') } } });

/** Every property of a query schema as an optional query parameter. */
export function queryParameters(schema: z.ZodType): Json[] {
  return Object.entries((jsonSchemaOf(schema, 'input').properties ?? {}) as Record<string, Json>).map(([name, s]) => ({
    name,
    in: 'query',
    required: false,
    schema: s,
  }));
}
