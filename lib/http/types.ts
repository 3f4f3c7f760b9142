import type { AuditOrigin } from '@/lib/audit/record-audit';
import type { AuthContext } from '@/lib/auth/authenticate-token';
import type { Environment } from '@/lib/generated/prisma/enums';

export interface OperationContext {
  environment: Environment;
  auth: AuthContext;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The raw query string (no `?`), for the list readers' strict decoding (lib/http/query.ts decodedPairs). */
  search: string;
  /** The Accept header, for operations that answer in more than one format (documents). */
  accept?: string | null;
  requestId: string;
  /** Who is calling and from where, for the audit log (lib/audit): the token, or the portal's signed-in user. */
  origin: AuditOrigin;
  /** The request body parsed as JSON (400 invalid_json when it is not). */
  json(): Promise<unknown>;
}

/** `Body`: the operation's answer, the output type of its response schema (lib/schemas), so the compiler holds the two together. */
export interface OperationResult<Body = unknown> {
  status?: number;
  body?: Body;
  headers?: Record<string, string>;
  /** A document instead of JSON: sent as it is with its own content type and file name (Content-Disposition). */
  file?: { bytes: Uint8Array | string; contentType: string; fileName: string; disposition?: 'inline' | 'attachment' };
}

export type Operation<Body = unknown> = (context: OperationContext) => Promise<OperationResult<Body>>;
