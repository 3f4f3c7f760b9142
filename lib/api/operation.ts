import { z } from 'zod';
import type { AuditOrigin } from '@/lib/audit/record-audit';
import type { AuthContext } from '@/lib/auth/authenticate-token';
import type { RouteScope } from '@/lib/auth/scopes';
import type { Environment } from '@/lib/generated/prisma/enums';
import type { SpilledDocument } from '@/lib/documents/spilled-document';
import type { Deprecation } from './deprecation';
import { ignoredFields, ZWarnings, type TWarning } from '@/lib/schemas/unknown-fields';

// One API operation is one definition: what the server routes and authorises, what the OpenAPI document says,
// and the handler, together. The registry (./registry.ts) lists them; everything else is derived from it.

export interface OperationContext {
  environment: Environment;
  auth: AuthContext;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The raw query string (no `?`), for the list readers' strict decoding (lib/api/query.ts decodedPairs). */
  search: string;
  /** The Accept header, for operations that answer in more than one format (documents). */
  accept?: string | null;
  requestId: string;
  /** Who is calling and from where, for the audit log (lib/audit): the token, or the portal's signed-in user. */
  origin: AuditOrigin;
  /** The request body parsed as JSON (400 invalid_json when it is not). */
  json(): Promise<unknown>;
}

/** `Body`: the output type of the operation's response schema, so the compiler holds the two together. */
export interface OperationResult<Body = unknown> {
  status?: number;
  body?: Body;
  headers?: Record<string, string>;
  /**
   * A document instead of JSON; a stream is sent as read (constant memory), an error after its first bytes ends the body;
   * a spilled document is sent from its file.
   */
  file?: {
    bytes: Uint8Array | string | ReadableStream<Uint8Array> | SpilledDocument;
    contentType: string;
    fileName: string;
    disposition?: 'inline' | 'attachment';
  };
}

export type Handler<Body = unknown> = (context: OperationContext) => Promise<OperationResult<Body>>;

/** An OpenAPI fragment (a parameter, a response, a request body), as the document writes it. */
export type Json = Record<string, unknown>;

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export const OPERATION_TAGS = [
  'Rating',
  'Addresses',
  'Manifests',
  'Lifecycle',
  'Documents',
  'Customs',
  'Pickups',
  'Webhooks',
  'Events',
  'Requests',
  'Billing',
  'Carrier operations',
] as const;
export type OperationTag = (typeof OPERATION_TAGS)[number];

/** The success answer: JSON produced through `schema`, a document (bytes), or nothing (204). */
export type SuccessAnswer =
  | {
      kind: 'json';
      status: 200 | 201 | 202;
      description: string;
      schema: z.ZodType;
      example?: unknown;
      headers?: Json;
    }
  | { kind: 'file'; description: string; contentTypes: readonly string[]; headers?: Json }
  | { kind: 'empty'; status: 204; description: string };

export interface OperationDefinition<Body = unknown> {
  /** The OpenAPI operationId, and the SDK's name for it. */
  id: string;
  method: HttpMethod;
  /** Under both base paths; parameters in braces, spelled as the handler reads them from `params`. */
  path: `/${string}`;
  /** What a token needs: an API scope, or a carrier operations token. */
  scope: RouteScope;
  tag: OperationTag;
  summary: string;
  description?: string;
  /** Path, query and header parameters as the reference documents them. */
  parameters?: readonly Json[];
  requestBody?: Json;
  success: SuccessAnswer;
  /** This operation's own refusals; those every operation shares (401, 403, 429, the body's) are added to all. */
  errors?: Readonly<Record<string, Json>>;
  /** How the error envelope carries IsSuccess, as the contract's samples do for this operation. */
  isSuccess?: 'text' | 'boolean';
  /** Exists on the test path only (the simulator): the live path answers 404. */
  testOnly?: boolean;
  /** Not written to the request log (the log's own reads). */
  unlogged?: boolean;
  /** Going away (docs/versioning.md): every answer says since when, until when and where to read. */
  deprecation?: Deprecation;
  handler: Handler<Body>;
}

type JsonSuccess = Extract<SuccessAnswer, { kind: 'json' }>;

/**
 * Its handler must return the response schema's output type, or tsc refuses it. The schema comes first, so that the
 * handler's literals are checked against it rather than widened. Documents and 204s use `defineOperation`.
 */
export function defineJsonOperation<Body>(
  schema: z.ZodType<Body>,
  definition: Omit<OperationDefinition, 'success' | 'handler'> & {
    success: Omit<JsonSuccess, 'schema'>;
    handler: Handler<Body>;
  },
): OperationDefinition {
  if (definition.method !== 'GET' && !definition.requestBody && schema instanceof z.ZodObject) {
    // A schema the document lists as a component says `warnings` itself, so that operations keep referring to it.
    const answered = 'warnings' in schema.shape ? schema : schema.extend({ warnings: ZWarnings });
    return {
      ...definition,
      success: { ...definition.success, schema: answered },
      handler: namingIgnoredBody(definition.handler),
    };
  }
  return { ...definition, success: { ...definition.success, schema } };
}

const NO_FIELDS = { keys: new Set<string>() };

/**
 * A write that reads no body (cancel, close, return, offload…) still accepts one, as every operation accepts fields it
 * does not read, but never silently: its answer names each field in `warnings`. A body that is no JSON is ignored, as
 * it always was; one that is JSON but no object is named as a whole.
 */
function namingIgnoredBody<Body>(handler: Handler<Body>): Handler<Body> {
  return async (context) => {
    const result = await handler(context);
    const answer = result.body as Record<string, unknown> | undefined;
    if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return result;
    const sent = await context.json().catch(() => undefined);
    if (sent === undefined) return result;
    const warnings: TWarning[] =
      typeof sent === 'object' && sent !== null && !Array.isArray(sent)
        ? ignoredFields(sent, NO_FIELDS)
        : [{ path: '(body)', message: 'this operation reads no body: ignored' }];
    return warnings.length === 0 ? result : { ...result, body: { ...answer, warnings } as Body };
  };
}

export function defineOperation(definition: OperationDefinition<never>): OperationDefinition {
  return definition;
}

/** Checks the answer against its schema (API_RESPONSE_CHECK=on): catches what types cannot see (stored JSON, casts). */
export function checkedHandler(definition: OperationDefinition): OperationDefinition['handler'] {
  const { success } = definition;
  if (success.kind !== 'json') return definition.handler;
  return async (context) => {
    const result = await definition.handler(context);
    if ((result.status ?? 200) === success.status && result.body !== undefined) {
      const checked = success.schema.safeParse(result.body);
      if (!checked.success)
        throw new Error(
          `${definition.id}: the answer does not match its schema: ${JSON.stringify(checked.error.issues.slice(0, 5))}`,
        );
    }
    return result;
  };
}
