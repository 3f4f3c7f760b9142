import 'server-only';
import type { Environment } from '@/lib/generated/prisma/enums';
import { pgPool, pgTransaction } from '@/lib/db';
import { AppError, validationError } from '@/lib/errors/app-error';
import { createdAtPosition, dayStart, decodeCursor, newestFirstPage } from '@/lib/pagination/keyset';
import type { TListRequestsQuery, TRequestLogEntry, TRequestLogList } from '@/lib/schemas/request-log';
import { execute, queryRow, queryRows, sql, type Sql } from '@/lib/sql';
import { LOGGED_BODY_BYTES } from './redact';
import { resourcesOf } from './resources';

// Errors-only pages read the partial index of statuses from 400; a request id is one lookup.

interface Scope {
  accountId: string;
  environment: Environment;
}

interface Row {
  id: string;
  request_id: string;
  source: string;
  method: string;
  path: string;
  query: string;
  status: number;
  duration_ms: number;
  token_id: string | null;
  token_name: string | null;
  token_prefix: string | null;
  user_id: string | null;
  user_email: string | null;
  client_address: string | null;
  user_agent: string | null;
  request_body: string | null;
  request_bytes: number;
  response_body: string | null;
  response_bytes: number;
  created_at: Date;
}

const COLUMNS = sql<never>`r.id::text AS id, r.request_id, r.source, r.method, r.path, r.query, r.status, r.duration_ms,
  r.token_id::text AS token_id, t.name AS token_name, t.display_prefix AS token_prefix, r.user_id::text AS user_id, u.email AS user_email,
  r.client_address, r.user_agent, r.request_body, r.request_bytes, r.response_body, r.response_bytes, r.created_at
  FROM request_logs r LEFT JOIN api_tokens t ON t.id = r.token_id LEFT JOIN users u ON u.id = r.user_id`;

const LIST_TIMEOUT_MS = 3_000;

const scoped = (scope: Scope) =>
  sql<never>`r.account_id = ${scope.accountId}::uuid AND r.environment = ${scope.environment}::"Environment"`;

function parsed(text: string | null): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function present(row: Row): TRequestLogEntry {
  const response = parsed(row.response_body);
  const error =
    row.status >= 400 && response && typeof response === 'object'
      ? (response as { error?: { code?: unknown } }).error
      : undefined;
  return {
    id: row.request_id,
    object: 'request',
    created_at: row.created_at.toISOString(),
    source: row.source === 'portal' ? 'portal' : 'api',
    method: row.method,
    path: row.path,
    query: row.query,
    status: row.status,
    duration_ms: row.duration_ms,
    token: row.token_id ? { id: row.token_id, name: row.token_name ?? '', prefix: row.token_prefix ?? '' } : null,
    user: row.user_id ? { id: row.user_id, email: row.user_email } : null,
    client_address: row.client_address,
    user_agent: row.user_agent,
    request: { body: row.request_body, bytes: row.request_bytes, truncated: row.request_bytes > LOGGED_BODY_BYTES },
    response: { body: row.response_body, bytes: row.response_bytes, truncated: row.response_bytes > LOGGED_BODY_BYTES },
    error_code: typeof error?.code === 'string' ? error.code : null,
    resources: resourcesOf({ method: row.method, path: row.path, status: row.status, response }),
  };
}

const likePrefix = (value: string) => `${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listRequests(options: Scope & { query: TListRequestsQuery }): Promise<TRequestLogList> {
  const { query } = options;
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor, 'numeric');
  const where: Sql<never>[] = [scoped(options)];
  if (query.status === 'error') where.push(sql`r.status >= 400`);
  else if (query.status === '4xx') where.push(sql`r.status >= 400 AND r.status < 500`);
  else if (query.status === '5xx') where.push(sql`r.status >= 500`);
  else if (query.status === '2xx') where.push(sql`r.status >= 200 AND r.status < 300`);
  if (query.method) where.push(sql`r.method = ${query.method}`);
  if (query.path) where.push(sql`r.path LIKE ${likePrefix(query.path)}`);
  if (query.requestId) where.push(sql`r.request_id = ${query.requestId}`);
  if (query.source) where.push(sql`r.source = ${query.source}`);
  if (query.from) where.push(sql`r.created_at >= ${dayStart(query.from)}`);
  if (query.to) where.push(sql`r.created_at < ${dayStart(query.to, 1)}`);
  if (cursor) where.push(sql`(r.created_at, r.id) < (${cursor.t}::timestamptz, ${cursor.i}::bigint)`);
  const statement = sql<Row>`SELECT ${COLUMNS} WHERE ${sql.join(where, sql` AND `)} ORDER BY r.created_at DESC, r.id DESC LIMIT ${query.limit + 1}`;
  // Method, path and source have no index (each would cost every request's insert): the walk is bounded in time, and
  // past it the answer asks for fewer days.
  const rows = await pgTransaction(async (client) => {
    await execute(client, sql`SELECT set_config('statement_timeout', ${String(LIST_TIMEOUT_MS)}, true)`);
    return queryRows(client, statement);
  }).catch((error: unknown) => {
    if ((error as { code?: unknown } | null)?.code !== '57014') throw error;
    throw validationError([
      {
        path: 'from',
        message:
          'this search reads too much of the log at once: narrow it to fewer days with from and to, or filter by status or request_id',
      },
    ]);
  });
  return newestFirstPage(rows, query.limit, present, createdAtPosition);
}

// A client may have sent the same x-request-id twice: the latest.
export async function getRequest(options: Scope & { requestId: string }): Promise<TRequestLogEntry> {
  const row = await queryRow(
    pgPool(),
    sql<Row>`SELECT ${COLUMNS} WHERE ${scoped(options)} AND r.request_id = ${options.requestId} ORDER BY r.created_at DESC, r.id DESC LIMIT 1`,
  );
  if (!row) {
    throw new AppError(
      'not_found',
      `No request ${options.requestId} in this account and environment's log: requests appear within a second, and are kept 30 days.`,
    );
  }
  return present(row);
}
