import type { AuthContext } from '@/lib/auth/authenticate-token';
import type { Environment } from '@/lib/generated/prisma/enums';

/** A request as the framework-free API sees it; adapters (Next, node:http) build one. */
export interface ApiRequest {
  method: string;
  /** URL path without query string, e.g. /version-test/api/1.1/wf/rate */
  path: string;
  query: URLSearchParams;
  headers: { get(name: string): string | null };
  /** Reads the whole body: 413 as soon as it passes `limit` bytes, 408 if not complete within `timeoutMs`. */
  readBody(limit: number, timeoutMs: number): Promise<string>;
  /** The client's address (lib/http/client-address.ts), for per-address limits. */
  remoteAddress?: string;
  /** Arrived over TLS (directly, per a trusted proxy, or HTTPS_ONLY): the answer carries Strict-Transport-Security. */
  secure?: boolean;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  /** JSON text; empty when `bytes` is set. */
  body: string;
  /** A document's bytes (OperationResult.file), sent instead of body. */
  bytes?: Uint8Array<ArrayBuffer>;
}

export interface OperationContext {
  environment: Environment;
  auth: AuthContext;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The Accept header, for operations that answer in more than one format (documents). */
  accept?: string | null;
  requestId: string;
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
