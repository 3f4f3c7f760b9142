import { errorAnswer, EXAMPLE_ID, jsonAnswer, jsonSchemaOf, pathParameter, queryParameters, type Json } from './parts';
import { ZListRequestsQuery, ZRequestLogEntry, ZRequestLogList } from '@/lib/schemas/request-log';

// The request log's part of the OpenAPI document, generated from the schemas its operations parse and
// answer with (lib/schemas/request-log.ts).

export function requestPaths(): Json {
  const parameters = queryParameters(ZListRequestsQuery);
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
        responses: {
          '200': jsonAnswer('A page.', 'RequestLogList'),
          '422': errorAnswer('A parameter is invalid, unknown or repeated; `details` names it.'),
        },
      },
    },
    '/requests/{id}': {
      parameters: [pathParameter('id', 'A request id (`req_…`): the `x-request-id` header of its answer.', EXAMPLE_ID.request)],
      get: {
        tags: ['Requests'],
        operationId: 'getRequest',
        summary: 'One logged request',
        description: "For an integrator's own support tooling: quote the `x-request-id` of any answer.",
        responses: {
          '200': jsonAnswer('The request.', 'RequestLogEntry'),
          '404': errorAnswer('No such request in this account and environment (yet, or any more).'),
        },
      },
    },
  };
}

export function requestSchemas(): Json {
  return { RequestLogEntry: jsonSchemaOf(ZRequestLogEntry, 'output'), RequestLogList: jsonSchemaOf(ZRequestLogList, 'output') };
}
