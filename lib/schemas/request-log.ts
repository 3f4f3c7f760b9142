import { z } from 'zod';
import { oneOf, text } from './fields';
import { day, LIST_LIMIT_DEFAULT, limit, rangeInOrder } from './lifecycle';
import { cursor } from './list';
import { keysetList } from './list';

// The request log: GET /requests and GET /requests/{request_id}, and the portal's Logs page.

export const REQUEST_STATUS_CLASSES = ['2xx', '4xx', '5xx', 'error'] as const;
export const REQUEST_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export const REQUEST_SOURCES = ['api', 'portal'] as const;

/** GET /requests's query parameters: any other is a 422 naming it. */
export const REQUEST_LIST_PARAMETERS = [
  'limit',
  'cursor',
  'status',
  'method',
  'path',
  'request_id',
  'source',
  'from',
  'to',
] as const;

export const ZListRequestsQuery = z
  .strictObject({
    limit,
    cursor,
    status: oneOf(REQUEST_STATUS_CLASSES).meta({ description: '`2xx`, `4xx`, `5xx`, or `error` (every status from 400).' }),
    method: oneOf(REQUEST_METHODS),
    path: text({ max: 200 }).meta({
      description: "Paths starting with this, under the environment's base: `/wf/package`, `/manifests/MAN-…`.",
    }),
    request_id: text({ max: 128 }).meta({ description: 'One request: the `x-request-id` of its answer.' }),
    source: oneOf(REQUEST_SOURCES).meta({ description: "`api` (a token) or `portal` (a signed-in user's writes and errors)." }),
    from: day(),
    to: day(),
  })
  .superRefine((q, ctx) => {
    rangeInOrder(q, ctx);
    if (q.path && !q.path.startsWith('/')) ctx.addIssue({ code: 'custom', path: ['path'], message: 'must start with /' });
  })
  .transform((q) => ({
    limit: q.limit ?? LIST_LIMIT_DEFAULT,
    cursor: q.cursor || undefined,
    status: q.status,
    method: q.method,
    path: q.path || undefined,
    requestId: q.request_id || undefined,
    source: q.source,
    from: q.from,
    to: q.to,
  }));

export type TListRequestsQuery = z.output<typeof ZListRequestsQuery>;

const ZLoggedBody = z.object({
  body: z
    .string()
    .nullable()
    .meta({ description: 'Its first 16 KB (UTF-8), secrets and tokens replaced by `[redacted]`; null when empty.' }),
  bytes: z.number().int().meta({ description: "The whole body's size." }),
  truncated: z.boolean(),
});

/** What a request made or named: the Logs page links to it. */
export const ZRequestResource = z.object({
  type: z.enum(['manifest', 'package', 'webhook_endpoint', 'event']),
  id: z.string(),
});

export const ZRequestLogEntry = z.object({
  id: z.string().meta({ description: 'The request id (`req_…`): the `x-request-id` header of its answer.' }),
  object: z.literal('request'),
  created_at: z.string().meta({ format: 'date-time' }),
  source: z.enum(REQUEST_SOURCES),
  method: z.string(),
  path: z.string().meta({ description: "Under the environment's base, without the query." }),
  query: z.string(),
  status: z.number().int(),
  duration_ms: z.number().int(),
  token: z
    .object({
      id: z.string(),
      name: z.string(),
      prefix: z.string().meta({ description: 'The first characters of the token, as the portal lists it.' }),
    })
    .nullable()
    .meta({ description: 'The API token that sent it; null for the portal.' }),
  user: z
    .object({ id: z.string(), email: z.string().nullable() })
    .nullable()
    .meta({ description: 'The portal user; null for the API.' }),
  client_address: z.string().nullable(),
  user_agent: z.string().nullable(),
  request: ZLoggedBody,
  response: ZLoggedBody,
  error_code: z.string().nullable().meta({ description: "The error envelope's `code`, when the answer was an error." }),
  resources: z.array(ZRequestResource).meta({ description: 'What the request created or named.' }),
});

export const ZRequestLogList = keysetList(ZRequestLogEntry);

export type TRequestLogEntry = z.output<typeof ZRequestLogEntry>;
export type TRequestLogList = z.output<typeof ZRequestLogList>;
export type TRequestResource = z.output<typeof ZRequestResource>;
