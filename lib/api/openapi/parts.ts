import { z } from 'zod';

export type Json = Record<string, unknown>;

/** A Zod schema as JSON Schema 2020-12: `input`, what a request may send; `output`, what an answer holds. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Json {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  delete json.$schema;
  return json;
}

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Example ids with the right prefix, so a snippet built from the document sends a real-looking id (examples.test.ts). */
export const EXAMPLE_ID = {
  webhookEndpoint: 'we_3k9x2m4t8v6w1z5q7r0y',
  event: 'evt_7k3q9x2m4t8v6w1z5q7r0y2b',
  message: 'msg_7k3q9x2m4t8v6w1z5q7r0y2b1',
  request: 'req_4f1c2a9e7b3d4c5e8f9a0b1c2d3e4f5a',
  delivery: 'att_42',
  manifest: 'MAN-7K3Q9X2M4T8V6W1Z',
  trackingNumber: '1Z999AA10123456784',
  invoice: 'inv_4f1c2a9e7b3d4c5e8f9a0b1c',
} as const;

/** A required path parameter (a string) with its description and example. */
export const pathParameter = (name: string, description: string, example: string): Json => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description,
  example,
});

/** An error answer: the `Error` envelope. */
export const errorAnswer = (description: string): Json => ({
  description,
  content: { 'application/json': { schema: ref('Error') } },
});

/** Every property of a query schema as an optional query parameter. */
export function queryParameters(schema: z.ZodType): Json[] {
  return Object.entries((jsonSchemaOf(schema, 'input').properties ?? {}) as Record<string, Json>).map(([name, s]) => ({
    name,
    in: 'query',
    required: false,
    schema: s,
  }));
}

/** The answers of every operation that reads a JSON body. */
export const BODY_ERRORS: Readonly<Record<string, Json>> = {
  '400': errorAnswer('The body is not valid JSON.'),
  '413': errorAnswer('The body is over 5 MB.'),
  '422': errorAnswer('Validation failed: every failing field is listed in `details`.'),
  '500': errorAnswer('Server error; the body carries a request_id and nothing internal.'),
};

/** The path parameters the operations share, described once. */
export const PATH_PARAMETERS = {
  manifestId: pathParameter('id', 'A ManifestID (`MAN-…`), container or daily.', EXAMPLE_ID.manifest),
  trackingNumber: pathParameter(
    'TrackingNumber',
    "The package's TrackingNumber (matched in any case) or its carrier_barcode (CB…).",
    EXAMPLE_ID.trackingNumber,
  ),
  webhookId: pathParameter('id', 'Webhook endpoint id (`we_…`).', EXAMPLE_ID.webhookEndpoint),
  invoiceId: pathParameter('id', 'Invoice id (`inv_…`).', EXAMPLE_ID.invoice),
} as const;

/** The common 404 of the manifest and package operations. */
export const NOT_FOUND = errorAnswer('No such manifest or package in this account and environment.');
