import { inspect } from 'node:util';
import type { Logger } from 'pino';

// A fault that repeats (the database down) must not flood the log: the first of a kind is written at once, the rest
// within the interval are counted and reported in one line, and a kind quiet for a whole interval is forgotten.

export const REPEAT_INTERVAL_MS = 10_000;

type Level = 'info' | 'warn' | 'error';

interface Kind {
  logger: Logger;
  level: Level;
  msg: string;
  fields: Record<string, unknown>;
  count: number;
  timer: ReturnType<typeof setInterval>;
}

const kinds = new Map<string, Kind>();

export function describeError(error: unknown): { code: string | undefined; message: string } {
  if (error && typeof error === 'object') {
    const e: { code?: unknown; message?: unknown; cause?: unknown } = error;
    const code = typeof e.code === 'string' || typeof e.code === 'number' ? String(e.code) : undefined;
    // An object without a message is shown as it is, not as "[object Object]".
    const message = typeof e.message === 'string' ? e.message : inspect(error, { depth: 2, breakLength: Infinity });
    if (code === undefined && e.cause) {
      const cause = describeError(e.cause);
      return { code: cause.code, message: message || cause.message };
    }
    return { code, message };
  }
  return { code: undefined, message: String(error) };
}

export function logRepeated(
  logger: Logger,
  level: Level,
  msg: string,
  error: unknown,
  fields: Record<string, unknown> = {},
  options: { intervalMs?: number; anyError?: boolean } = {},
): void {
  const intervalMs = options.intervalMs ?? REPEAT_INTERVAL_MS;
  const { code, message } = describeError(error);
  // anyError: one kind whatever the error (the line names the first; the count covers them all).
  const key = options.anyError ? `${level}\u0000${msg}` : `${level}\u0000${msg}\u0000${code ?? message.slice(0, 200)}`;
  const kind = kinds.get(key);
  if (kind) {
    kind.count += 1;
    return;
  }
  const errFields = { ...fields, err: message.slice(0, 1_000), ...(code === undefined ? {} : { code }) };
  logger[level](errFields, msg);
  const timer = setInterval(() => {
    const current = kinds.get(key);
    if (!current) return clearInterval(timer);
    if (current.count === 0) {
      clearInterval(timer);
      kinds.delete(key);
      return;
    }
    current.logger[current.level](
      { ...current.fields, repeated: current.count, intervalMs },
      `${current.msg} (repeated ${current.count} times in the last ${Math.round(intervalMs / 1_000)} s)`,
    );
    current.count = 0;
  }, intervalMs);
  timer.unref?.();
  kinds.set(key, { logger, level, msg, fields: errFields, count: 0, timer });
}

export function flushRepeated(): void {
  for (const [key, kind] of kinds) {
    clearInterval(kind.timer);
    kinds.delete(key);
    if (kind.count > 0) {
      kind.logger[kind.level]({ ...kind.fields, repeated: kind.count }, `${kind.msg} (repeated ${kind.count} times)`);
    }
  }
}
