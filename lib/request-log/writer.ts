import 'server-only';
import pg from 'pg';
import type { Environment } from '@/lib/generated/prisma/enums';
import { isDatabaseUnavailable } from '@/lib/db-errors';
import { env, processSettings } from '@/lib/env';
import { log } from '@/lib/log';
import { logRepeated } from '@/lib/log-repeats';
import { copyIn, sql } from '@/lib/sql';
import { holdsSecret, LOGGED_BODY_BYTES, loggedBody, loggedQuery, loggedText, REDACTED } from './redact';

// The request log's writer: a request hands its line to record() and goes on; lines are written in
// batches, one COPY per batch, every FLUSH_MS or as soon as BATCH_SIZE are waiting. The redaction and the cut to
// 16 KB happen in the flush, not on the request's path. The buffer is bounded (lines and bytes): while PostgreSQL
// is away it keeps what fits and counts what it drops, logged once per interval. A log line is never worth a
// request, nor the memory of the process that serves them.
//
// Under load the writer must keep up, or the bounded buffer drops lines (the bench counts lines against requests
// answered). A flush costs the event loop's turns, not just CPU: on a busy worker each turn serves dozens of
// requests, so a flush of BEGIN, SET, INSERT, COMMIT and five redaction chunks took ten turns, and at 6,000 rate
// requests a second a third of the lines were dropped (bench/RESULTS.md). So a batch is one statement on a
// connection of the log's own, whose sessions commit without waiting for the WAL, and it is redacted in
// slices of time rather than of lines.

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
  /** When the request arrived, in epoch milliseconds. */
  atMs: number;
}

export const FLUSH_MS = 100;
export const BATCH_SIZE = 500;
/** A batch's bodies at most (the rest wait for the next): one COPY stays a few megabytes. */
const BATCH_BYTES = 4 * 1024 * 1024;
const MAX_LINES = 8_000;
/** Buffered and in-flight lines together, bodies counted as kept (at most 16.25 KB each) plus path and query. */
const MAX_BUFFERED_BYTES = 24 * 1024 * 1024;
/** Redaction runs this long at most between two turns of the event loop, so that a flush never holds up the requests. */
const REDACT_SLICE_MS = 2;
/** Said once per interval when the buffer is full (made once: an Error's stack is not free, and this is the hot path). */
const BUFFER_FULL = new Error('request log buffer full');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const state = {
  lines: [] as RequestLogLine[],
  bytes: 0,
  /** The batch being written, its bytes: still in memory until its COPY ends. */
  inFlightBytes: 0,
  timer: undefined as NodeJS.Timeout | undefined,
  flushing: undefined as Promise<void> | undefined,
  enabled: undefined as boolean | undefined,
  /** A token's last logged 429, so that a client hammering past its limit costs one line a second, not one a request. */
  refusals: new Map<string, number>(),
};

/** For the benchmark's baseline and the tests: the log on or off in this process. */
export function setRequestLogEnabled(enabled: boolean): void {
  state.enabled = enabled;
}

const sizeOf = (line: RequestLogLine) =>
  (line.requestBody?.length ?? 0) +
  (line.responseBody?.length ?? 0) +
  Math.min(line.query.length, 2048) +
  Math.min(line.path.length, 2048) +
  512;

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

/** Tokens whose last refusal is remembered; past it, the one refused longest ago is forgotten. */
export const REFUSALS_KEPT = 10_000;

/**
 * Whether a 429 of this token is worth a line: the first of each second is (its answer says when to retry, and the
 * integrator sees that it happened); the rest of that second are not, or a client past its limit would write a row
 * per refused request, which the limit is there to spare.
 */
export function shouldRecordRefusal(tokenId: string, now = Date.now()): boolean {
  const last = state.refusals.get(tokenId);
  if (last !== undefined && now - last < 1_000) return false;
  // Bounded by evicting the token refused longest ago (a Map keeps insertion order; delete + set moves it to the end),
  // not by forgetting all of them at once, which would let every throttled token write again in the same second.
  state.refusals.delete(tokenId);
  if (state.refusals.size >= REFUSALS_KEPT) {
    const oldest = state.refusals.keys().next();
    if (!oldest.done) state.refusals.delete(oldest.value);
  }
  state.refusals.set(tokenId, now);
  return true;
}

/**
 * Where lines go when not to this module's own buffer: the request log's thread (lib/request-log/thread.ts), which
 * the production server starts. On globalThis, because Next's bundle of the portal's routes has a copy of this
 * module of its own in the same process, and its lines must take the same way.
 */
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

/** Records one request's line; never throws, never waits. */
export function recordRequest(line: RequestLogLine): void {
  state.enabled ??= processSettings().REQUEST_LOG === 'on';
  if (!state.enabled) return;
  const sink = holder[SINK];
  if (sink) sink.post(line);
  else queueLine(line);
}

/** Queues a line in this thread's buffer (the request log thread's entry for the lines it receives). */
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

/** The next batch: up to BATCH_SIZE lines and BATCH_BYTES (always at least one line). */
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

/** Writes everything recorded so far, here or in the log's thread (the tests use it to read their own lines at once). */
export async function flushRequestLog(): Promise<void> {
  const sink = holder[SINK];
  if (sink) return sink.flush();
  return flushQueued();
}

/** Writes everything queued in this thread's buffer. */
export async function flushQueued(): Promise<void> {
  if (state.timer) {
    clearTimeout(state.timer);
    state.timer = undefined;
  }
  // One flush at a time; a flush asked for during one runs after it.
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

/**
 * A refusal that says nothing about the line: the database is away, full, read-only (a failover), cancelling
 * statements or deadlocked. The batch waits; only a refusal of the row itself (a value it will not take) drops it.
 */
function waitsForDatabase(error: unknown): boolean {
  if (isDatabaseUnavailable(error)) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (/^(08|53|57|58)/.test(code) || ['25006', '40001', '40P01', '55P03'].includes(code));
}

/** Writes a batch; false when the database cannot take it now (the batch then waits in the buffer, as much of it as fits). */
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
    // A line the database refuses must not take its batch with it: one at a time, the bad one dropped. Logged once
    // per interval, without a stack.
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

/** The texts of a line as the log stores them (before COPY's own escaping). */
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

/**
 * The request id as stored: the API already refuses a client's id that holds a secret (requestIdFrom); this keeps
 * any other way in from storing one, as the redaction marker.
 */
function loggedRequestId(requestId: string): string {
  const id = requestId.slice(0, 128);
  return holdsSecret(id) ? REDACTED : id;
}

/** A line's texts redacted, cut and made storable; pure, so the redaction's property test reads exactly what is stored. */
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

/**
 * The batch's bodies redacted and cut, REDACT_SLICE_MS at a time with a turn of the event loop between: a batch of
 * small bodies in one go (a rate line takes a few µs), one of 16 KB bodies over several turns.
 */
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

/** The text of a string column: a lone surrogate (which UTF-8 cannot carry, and PostgreSQL refuses) as U+FFFD. */
const wellFormed = (text: string | null): string | null => (text === null || text.isWellFormed() ? text : text.toWellFormed());

/** A value in COPY's text format: \N for none; backslash, tab, newline and carriage return escaped. */
function copyValue(value: string | number | null): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return String(value);
  return /[\\\t\n\r]/.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c] ?? c) : value;
}
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

const COPY_STATEMENT = sql`COPY request_logs (request_id, account_id, environment, source, method, path, query, status, duration_ms,
                                              token_id, user_id, client_address, user_agent, request_body, request_bytes,
                                              response_body, response_bytes, created_at) FROM STDIN`;

/**
 * The batch as one COPY … FROM STDIN, in COPY's text format. PostgreSQL parses it for less than half the CPU of
 * the INSERT … SELECT FROM json_to_recordset it replaces (15.8 against 32–40 µs of the backend's CPU a rate
 * line, measured on request_logs on 2026-11-24 with batches of rate-sized lines), and the log's lines are most
 * of what it writes under load. Each value is of its column's type or the COPY is refused (write() then writes
 * the lines one at a time).
 */
async function insert(rows: Row[]): Promise<void> {
  const uuidOrNull = (value: string | null | undefined) => (value && UUID.test(value) ? value : null);
  // Each row is encoded into one buffer as it is made. Buffer.from() of the batch joined as one string cost 6 µs a
  // rate line (flattening and encoding a 350 KB rope), a third of the thread's work; a row at a time costs 0.3 µs.
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

/**
 * The log's own connection (docs/decisions/data-access.md, pools): one, since one flush runs at a time, so the log
 * never takes a connection from requests nor waits behind them. Its session commits without waiting for the WAL
 * (synchronous_commit off): a crash of PostgreSQL itself can lose the last log lines written (never corrupt them),
 * and a log line is not worth a WAL flush of its own, nor the requests' commits queueing behind it.
 */
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

/** Writes what is recorded, then closes the log's thread or connection (the server's stop). */
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
