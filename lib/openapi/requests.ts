import { z } from 'zod';
import { ZListRequestsQuery, ZRequestLogEntry, ZRequestLogList } from '@/lib/schemas/request-log';

// The request log's part of the OpenAPI document (issue 16), generated from the schemas its operations parse and
// answer with (lib/schemas/request-log.ts).

type Json = Record<string, unknown>;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const toJson = (schema: z.ZodType, io: 'input' | 'output'): Json => z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' });
const ok = (description: string, schema: string): Json => ({ description, content: { 'application/json': { schema: ref(schema) } } });
const error = (description: string): Json => ({ description, content: { 'application/json': { schema: ref('Error') } } });

export function requestPaths(): Json {
  const parameters = Object.entries((toJson(ZListRequestsQuery, 'input').properties ?? {}) as Record<string, Json>).map(([name, schema]) => ({
    name,
    in: 'query',
    required: false,
    schema,
  }));
  return {
    '/requests': {
      get: {
        tags: ['Requests'],
        operationId: 'listRequests',
        summary: 'List logged requests, newest first',
        description:
          "The account's requests in this environment, a page at a time: every API request whose token was known (whatever its answer), and " +
          "the portal's writes and errors. Bodies are the first 16 KB, with secrets and tokens replaced by `[redacted]`. A request appears " +
          'within a second of its answer and is kept 30 days. Reads of the log itself are not logged. `from` and `to` are UTC days, inclusive.',
        parameters,
        responses: { '200': ok('A page.', 'RequestLogList'), '422': error('A parameter is invalid, unknown or repeated; `details` names it.') },
      },
    },
    '/requests/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'A request id: the `x-request-id` header of its answer.' }],
      get: {
        tags: ['Requests'],
        operationId: 'getRequest',
        summary: 'One logged request',
        description: 'For an integrator\'s own support tooling: quote the `x-request-id` of any answer.',
        responses: { '200': ok('The request.', 'RequestLogEntry'), '404': error('No such request in this account and environment (yet, or any more).') },
      },
    },
  };
}

export function requestSchemas(): Json {
  return { RequestLogEntry: toJson(ZRequestLogEntry, 'output'), RequestLogList: toJson(ZRequestLogList, 'output') };
}
