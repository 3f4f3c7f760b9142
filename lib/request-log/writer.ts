import 'server-only';
import pg from 'pg';
import type { Environment } from '@/lib/generated/prisma/enums';
import { isDatabaseUnavailable } from '@/lib/db-errors';
import { env, processSettings } from '@/lib/env';
import { log } from '@/lib/log';
import { logRepeated } from '@/lib/log-repeats';
import { copyIn, sql } from '@/lib/sql';
import { holdsSecret, LOGGED_BODY_BYTES, loggedBody, loggedQuery, loggedText, REDACTED } from './redact';

// record() never waits: lines are redacted and COPYed in batches on a connection of the log's own. The buffer is
// bounded and drops lines (counted) while PostgreSQL is away, and redaction yields so a flush never holds up requests.

export interface RequestLogLine {
  requestId: string;
  accountId: string;
  environment: Environment;
  source: 'api' | 'portal';
  method: string;
  path: string;
  query: string;
  status: number;
  durationMs: number;
  tokenId?: string | null;
  userId?: string | null;
  clientAddress?: string | null;
  userAgent?: string | null;
  requestBody?: string | null;
  /** The whole body's size, when the body given was already cut. */
  requestBytes?: number;
  responseBody?: string | null;
  responseBytes?: number;
  atMs: number;
}

export const FLUSH_MS = 100;
export const BATCH_SIZE = 500;
const BATCH_BYTES = 4 * 1024 * 1024;
const MAX_LINES = 8_000;
const MAX_BUFFERED_BYTES = 24 * 1024 * 1024;
// Redaction yields to the event loop after this long, so that a flush never holds up the requests.
const REDACT_SLICE_MS = 2;
// Made once: an Error's stack is not free on the hot path.
const BUFFER_FULL = new Error('request log buffer full');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const state = {
  lines: [] as RequestLogLine[],
  bytes: 0,
  inFlightBytes: 0,
  timer: undefined as NodeJS.Timeout | undefined,
  flushing: undefined as Promise<void> | undefined,
  enabled: undefined as boolean | undefined,
  refusals: new Map<string, number>(),
};

export function setRequestLogEnabled(enabled: boolean): void {
  state.enabled = enabled;
}

const sizeOf = (line: RequestLogLine) =>
  (line.requestBody?.length ?? 0) +
  (line.responseBody?.length ?? 0) +
  Math.min(line.query.length, 2048) +
  Math.min(line.path.length, 2048) +
  512;

// A copy of a large body's start: a slice would keep the whole multi-megabyte string alive.
export function keptBody(body: string | null | undefined): { body: string | null; bytes: number | undefined } {
  if (!body) return { body: null, bytes: 0 };
  const keep = LOGGED_BODY_BYTES + 256;
  if (body.length <= keep) return { body, bytes: undefined };
  return { body: Buffer.from(body.slice(0, keep)).toString('utf8'), bytes: Buffer.byteLength(body) };
}

export const REFUSALS_KEPT = 10_000;

// One 429 line per token a second: a row per refused request would cost what the limit is there to spare.
export function shouldRecordRefusal(tokenId: string, now = Date.now()): boolean {
  const last = state.refusals.get(tokenId);
  if (last !== undefined && now - last < 1_000) return false;
  // Evict the oldest (a Map keeps insertion order), not all at once, which would let every throttled token write again.
  state.refusals.delete(tokenId);
  if (state.refusals.size >= REFUSALS_KEPT) {
    const oldest = state.refusals.keys().next();
    if (!oldest.done) state.refusals.delete(oldest.value);
  }
  state.refusals.set(tokenId, now);
  return true;
}

// On globalThis: Next's bundle of the portal's routes has its own copy of this module in the same process, and its
// lines must reach the same thread (thread.ts).
export interface RequestLogSink {
  post(line: RequestLogLine): void;
  flush(): Promise<void>;
  close(): Promise<void>;
}
const SINK = Symbol.for('carrier.request-log.sink');
const holder = globalThis as { [SINK]?: RequestLogSink };

export function setRequestLogSink(sink: RequestLogSink | undefined): void {
  holder[SINK] = sink;
}

export function recordRequest(line: RequestLogLine): void {
  state.enabled ??= processSettings().REQUEST_LOG === 'on';
  if (!state.enabled) return;
  const sink = holder[SINK];
  if (sink) sink.post(line);
  else queueLine(line);
}

export function queueLine(line: RequestLogLine): void {
  const size = sizeOf(line);
  if (state.lines.length >= MAX_LINES || state.bytes + state.inFlightBytes + size > MAX_BUFFERED_BYTES) {
    logRepeated(log, 'warn', 'request log buffer full: lines dropped', BUFFER_FULL, {}, { anyError: true });
    return;
  }
  state.lines.push(line);
  state.bytes += size;
  if ((state.lines.length >= BATCH_SIZE || state.bytes >= BATCH_BYTES) && !state.flushing) void flushQueued();
  else scheduleFlush();
}

function scheduleFlush(): void {
  if (state.timer) return;
  state.timer = setTimeout(() => void flushQueued(), FLUSH_MS);
  state.timer.unref();
}

function takeBatch(): RequestLogLine[] {
  let bytes = 0;
  let count = 0;
  while (count < state.lines.length && count < BATCH_SIZE) {
    const size = sizeOf(state.lines[count]!);
    if (count > 0 && bytes + size > BATCH_BYTES) break;
    bytes += size;
    count++;
  }
  state.bytes -= bytes;
  state.inFlightBytes = bytes;
  return state.lines.splice(0, count);
}

export async function flushRequestLog(): Promise<void> {
  const sink = holder[SINK];
  if (sink) return sink.flush();
  return flushQueued();
}

export async function flushQueued(): Promise<void> {
  if (state.timer) {
    clearTimeout(state.timer);
    state.timer = undefined;
  }
  while (state.flushing) await state.flushing;
  if (state.lines.length === 0) return;
  const batch = takeBatch();
  let written = false;
  state.flushing = write(batch)
    .then((ok) => {
      written = ok;
    })
    .finally(() => {
      state.inFlightBytes = 0;
      state.flushing = undefined;
    });
  await state.flushing;
  // More waiting: on at once while the database takes them; after an outage, at the next timer.
  if (state.lines.length > 0) {
    if (written) await flushQueued();
    else scheduleFlush();
  }
}

// The database is away, read-only or busy: the batch waits. Only a refusal of the row itself drops it.
function waitsForDatabase(error: unknown): boolean {
  if (isDatabaseUnavailable(error)) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (/^(08|53|57|58)/.test(code) || ['25006', '40001', '40P01', '55P03'].includes(code));
}

async function write(batch: RequestLogLine[]): Promise<boolean> {
  const rows = await redactedRows(batch);
  try {
    await insert(rows);
    return true;
  } catch (error) {
    if (waitsForDatabase(error)) {
      logRepeated(log, 'warn', 'request log waits for the database', error, {}, { anyError: true });
      for (const line of batch) queueLine(line);
      return false;
    }
    // A line the database refuses must not take its batch with it: one at a time, the bad one dropped.
    logRepeated(
      log,
      'warn',
      'request log batch refused; writing its lines one at a time',
      error,
      { lines: batch.length },
      { anyError: true },
    );
    for (const [i, row] of rows.entries()) {
      try {
        await insert([row]);
      } catch (one) {
        if (waitsForDatabase(one)) {
          for (const waiting of batch.slice(i)) queueLine(waiting);
          return false;
        }
        logRepeated(log, 'warn', 'request log line dropped', one, { requestId: row.line.requestId }, { anyError: true });
      }
    }
    return true;
  }
}

interface Row {
  line: RequestLogLine;
  logged: LoggedLine;
}

export interface LoggedLine {
  requestId: string;
  path: string | null;
  query: string;
  clientAddress: string | null;
  userAgent: string | null;
  requestBody: string | null;
  requestBytes: number;
  responseBody: string | null;
  responseBytes: number;
}

// requestIdFrom already refuses a client's id holding a secret; this keeps any other way in from storing one.
function loggedRequestId(requestId: string): string {
  const id = requestId.slice(0, 128);
  return holdsSecret(id) ? REDACTED : id;
}

// Pure, so the redaction's property test reads exactly what is stored.
export function loggedLine(line: RequestLogLine): LoggedLine {
  const request = loggedBody(line.requestBody);
  const response = loggedBody(line.responseBody);
  return {
    requestId: loggedRequestId(line.requestId),
    path: wellFormed(loggedText(line.path, 2048)),
    query: wellFormed(loggedQuery(line.query, 2048)) ?? '',
    clientAddress: wellFormed(loggedText(line.clientAddress, 64)),
    userAgent: wellFormed(loggedText(line.userAgent, 512)),
    requestBody: wellFormed(request.text),
    requestBytes: line.requestBytes ?? request.bytes,
    responseBody: wellFormed(response.text),
    responseBytes: line.responseBytes ?? response.bytes,
  };
}

async function redactedRows(batch: RequestLogLine[]): Promise<Row[]> {
  const rows: Row[] = [];
  let sliceStart = performance.now();
  for (const line of batch) {
    if (performance.now() - sliceStart > REDACT_SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
    rows.push({ line, logged: loggedLine(line) });
  }
  return rows;
}

// A lone surrogate, which UTF-8 cannot carry and PostgreSQL refuses, becomes U+FFFD.
const wellFormed = (text: string | null): string | null => (text === null || text.isWellFormed() ? text : text.toWellFormed());

function copyValue(value: string | number | null): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return String(value);
  return /[\\\t\n\r]/.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c] ?? c) : value;
}
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

const COPY_STATEMENT = sql`COPY request_logs (request_id, account_id, environment, source, method, path, query, status, duration_ms,
                                              token_id, user_id, client_address, user_agent, request_body, request_bytes,
                                              response_body, response_bytes, created_at) FROM STDIN`;

// COPY costs PostgreSQL half the CPU of INSERT … SELECT FROM json_to_recordset, and the log is most of what it writes.
async function insert(rows: Row[]): Promise<void> {
  const uuidOrNull = (value: string | null | undefined) => (value && UUID.test(value) ? value : null);
  // Each row encoded as it is made: encoding the joined batch (a large rope) was a third of the thread's work.
  let text = Buffer.allocUnsafe(rows.reduce((bytes, row) => bytes + sizeOf(row.line), 0));
  let used = 0;
  for (const { line: l, logged } of rows) {
    const at = new Date(Number.isFinite(l.atMs) ? l.atMs : Date.now());
    const values: (string | number | null)[] = [
      logged.requestId,
      l.accountId,
      l.environment,
      l.source,
      l.method.slice(0, 16),
      logged.path,
      logged.query,
      l.status,
      // A value of the wrong type (NaN, a fraction) is refused by COPY, and its line alone dropped (write()).
      Math.min(Math.round(l.durationMs), 2_147_483_647),
      uuidOrNull(l.tokenId),
      uuidOrNull(l.userId),
      logged.clientAddress,
      logged.userAgent,
      logged.requestBody,
      logged.requestBytes,
      logged.responseBody,
      logged.responseBytes,
      at.toISOString(),
    ];
    const row = values.map(copyValue).join('\t') + '\n';
    // A UTF-16 code unit is at most 3 bytes of UTF-8 (a pair, 4 for 2): room for the row whatever it holds.
    if (used + row.length * 3 > text.length) {
      const larger = Buffer.allocUnsafe(Math.max(used + row.length * 3, text.length * 2));
      text.copy(larger, 0, 0, used);
      text = larger;
    }
    used += text.write(row, used);
  }
  const client = await logPool().connect();
  let broken = false;
  try {
    await copyIn(client, COPY_STATEMENT, text.subarray(0, used));
  } catch (error) {
    // A refused value leaves the connection usable; a broken connection is not given back to the pool.
    broken = !(
      typeof (error as { code?: unknown } | null)?.code === 'string' && !/^(08|57P)/.test((error as { code: string }).code)
    );
    throw error;
  } finally {
    client.release(broken);
  }
}

let pool: pg.Pool | undefined;

// synchronous_commit off: a crash may lose the last lines (never corrupt them); a log line is not worth a WAL flush.
function logPool(): pg.Pool {
  if (!pool) {
    pool = new pg.Pool({
      connectionString: env().DATABASE_URL,
      max: 1,
      connectionTimeoutMillis: 5_000,
      options: '-c synchronous_commit=off',
    });
    // An idle connection that breaks (a database restart) is dropped by the pool; the next flush reconnects.
    pool.on('error', (error) => logRepeated(log, 'warn', 'request log connection lost', error, {}, { anyError: true }));
  }
  return pool;
}

export async function closeRequestLog(): Promise<void> {
  const sink = holder[SINK];
  if (sink) {
    setRequestLogSink(undefined);
    await sink.close();
  }
  await flushQueued();
  const closing = pool;
  pool = undefined;
  await closing?.end();
}
