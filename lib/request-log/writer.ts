import 'server-only';
import type { Environment } from '@/lib/generated/prisma/enums';
import { pgPool } from '@/lib/db';
import { isDatabaseUnavailable } from '@/lib/db-errors';
import { processSettings } from '@/lib/env';
import { log } from '@/lib/log';
import { logRepeated } from '@/lib/log-repeats';
import { execute, sql } from '@/lib/sql';
import { LOGGED_BODY_BYTES, loggedBody, loggedText } from './redact';

// The request log's writer (issue 16): a request hands its line to record() and goes on; lines are written in
// batches, one INSERT per batch, every FLUSH_MS or as soon as BATCH_SIZE are waiting. The redaction and the cut to
// 16 KB happen in the flush, not on the request's path. The buffer is bounded (lines and bytes): while PostgreSQL
// is away it keeps what fits and counts what it drops, logged once per interval. A log line is never worth a
// request, nor the memory of the process that serves them.

export interface RequestLogLine {
  requestId: string;
  accountId: string;
  environment: Environment;
  source: 'api' | 'portal';
  method: string;
  /** Under the environment's base, without the query. */
  path: string;
  query: string;
  status: number;
  durationMs: number;
  tokenId?: string | null;
  userId?: string | null;
  clientAddress?: string | null;
  userAgent?: string | null;
  requestBody?: string | null;
  /** The whole body's size, when the body given was already cut (a large body is kept only in part). */
  requestBytes?: number;
  responseBody?: string | null;
  responseBytes?: number;
  at: Date;
}

export const FLUSH_MS = 500;
export const BATCH_SIZE = 500;
const MAX_LINES = 2_000;
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const state = {
  lines: [] as RequestLogLine[],
  bytes: 0,
  timer: undefined as NodeJS.Timeout | undefined,
  flushing: undefined as Promise<void> | undefined,
  enabled: undefined as boolean | undefined,
};

/** For the benchmark's baseline and the tests: the log on or off in this process. */
export function setRequestLogEnabled(enabled: boolean): void {
  state.enabled = enabled;
}

/**
 * The part of a body worth keeping until the flush: all of a small one; of a large one a copy of its start (a
 * slice would keep the whole multi-megabyte string alive), with its size.
 */
export function keptBody(body: string | null | undefined): { body: string | null; bytes: number | undefined } {
  if (!body) return { body: null, bytes: 0 };
  const keep = LOGGED_BODY_BYTES + 256;
  if (body.length <= keep) return { body, bytes: undefined };
  return { body: Buffer.from(body.slice(0, keep)).toString('utf8'), bytes: Buffer.byteLength(body) };
}

/** Queues one request's line; never throws, never waits. */
export function recordRequest(line: RequestLogLine): void {
  state.enabled ??= processSettings().REQUEST_LOG === 'on';
  if (!state.enabled) return;
  const size = (line.requestBody?.length ?? 0) + (line.responseBody?.length ?? 0) + 512;
  if (state.lines.length >= MAX_LINES || state.bytes + size > MAX_BUFFERED_BYTES) {
    logRepeated(log, 'warn', 'request log buffer full: lines dropped', new Error('request log buffer full'), {}, { anyError: true });
    return;
  }
  state.lines.push(line);
  state.bytes += size;
  if (state.lines.length >= BATCH_SIZE && !state.flushing) void flushRequestLog();
  else scheduleFlush();
}

/** Writes everything queued so far (the server's stop awaits it; the tests use it to read their own lines at once). */
export async function flushRequestLog(): Promise<void> {
  if (state.timer) {
    clearTimeout(state.timer);
    state.timer = undefined;
  }
  // One flush at a time; a flush asked for during one runs after it.
  while (state.flushing) await state.flushing;
  if (state.lines.length === 0) return;
  const batch = state.lines.splice(0, BATCH_SIZE);
  state.bytes = state.lines.reduce((sum, l) => sum + (l.requestBody?.length ?? 0) + (l.responseBody?.length ?? 0) + 512, 0);
  let written = false;
  state.flushing = write(batch)
    .then((ok) => {
      written = ok;
    })
    .finally(() => {
      state.flushing = undefined;
    });
  await state.flushing;
  // More waiting: on at once while the database takes them; after an outage, at the next timer.
  if (state.lines.length > 0) {
    if (written) await flushRequestLog();
    else scheduleFlush();
  }
}

function scheduleFlush(): void {
  if (state.timer) return;
  state.timer = setTimeout(() => void flushRequestLog(), FLUSH_MS);
  state.timer.unref();
}

/** Writes a batch; false when the database is away (the batch then waits in the buffer, as much of it as fits). */
async function write(batch: RequestLogLine[]): Promise<boolean> {
  try {
    await insert(batch);
    return true;
  } catch (error) {
    if (isDatabaseUnavailable(error)) {
      logRepeated(log, 'warn', 'request log waits for the database', error, {}, { anyError: true });
      for (const line of batch) recordRequest(line);
      return false;
    }
    // A line the database refuses must not take its batch with it: one at a time, the bad one dropped. Logged once
    // per interval, without a stack.
    logRepeated(log, 'warn', 'request log batch refused; writing its lines one at a time', error, { lines: batch.length }, { anyError: true });
    for (const [i, line] of batch.entries()) {
      try {
        await insert([line]);
      } catch (one) {
        if (isDatabaseUnavailable(one)) {
          for (const waiting of batch.slice(i)) recordRequest(waiting);
          return false;
        }
        logRepeated(log, 'warn', 'request log line dropped', one, { requestId: line.requestId }, { anyError: true });
      }
    }
    return true;
  }
}

async function insert(batch: RequestLogLine[]): Promise<void> {
  const column = <T>(pick: (line: RequestLogLine) => T) => batch.map(pick);
  const requestBodies = batch.map((line) => loggedBody(line.requestBody));
  const responseBodies = batch.map((line) => loggedBody(line.responseBody));
  const uuidOrNull = (value: string | null | undefined) => (value && UUID.test(value) ? value : null);
  await execute(
    pgPool(),
    sql`INSERT INTO request_logs (request_id, account_id, environment, source, method, path, query, status, duration_ms,
                                  token_id, user_id, client_address, user_agent, request_body, request_bytes,
                                  response_body, response_bytes, created_at)
        SELECT * FROM unnest(${column((l) => l.requestId.slice(0, 128))}::text[], ${column((l) => l.accountId)}::uuid[],
                             ${column((l) => l.environment)}::"Environment"[], ${column((l) => l.source)}::text[],
                             ${column((l) => l.method.slice(0, 16))}::text[], ${column((l) => loggedText(l.path, 2048))}::text[],
                             ${column((l) => loggedText(l.query, 2048) ?? '')}::text[], ${column((l) => l.status)}::int[],
                             ${column((l) => Math.min(Math.round(l.durationMs), 2_147_483_647))}::int[],
                             ${column((l) => uuidOrNull(l.tokenId))}::uuid[], ${column((l) => uuidOrNull(l.userId))}::uuid[],
                             ${column((l) => loggedText(l.clientAddress, 64))}::text[], ${column((l) => loggedText(l.userAgent, 512))}::text[],
                             ${requestBodies.map((b) => b.text)}::text[],
                             ${batch.map((l, i) => l.requestBytes ?? requestBodies[i]!.bytes)}::int[],
                             ${responseBodies.map((b) => b.text)}::text[],
                             ${batch.map((l, i) => l.responseBytes ?? responseBodies[i]!.bytes)}::int[],
                             ${column((l) => l.at)}::timestamptz[])`,
  );
}
