import type { Logger } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushRepeated, logRepeated } from './log-repeats';

function fakeLogger() {
  const lines: { level: string; fields: Record<string, unknown>; msg: string }[] = [];
  const logger = {
    warn: (fields: Record<string, unknown>, msg: string) => lines.push({ level: 'warn', fields, msg }),
    error: (fields: Record<string, unknown>, msg: string) => lines.push({ level: 'error', fields, msg }),
  } as unknown as Logger;
  return { logger, lines };
}

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('logRepeated', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    flushRepeated();
    vi.useRealTimers();
  });

  it('writes the first of a kind at once, then one line with the count per interval', () => {
    const { logger, lines } = fakeLogger();
    for (let i = 0; i < 500; i++) logRepeated(logger, 'error', 'database unavailable', refused, { requestId: `r${i}` });
    expect(lines).toEqual([
      {
        level: 'error',
        fields: { requestId: 'r0', err: 'connect ECONNREFUSED 127.0.0.1:5432', code: 'ECONNREFUSED' },
        msg: 'database unavailable',
      },
    ]);
    expect(JSON.stringify(lines)).not.toContain('at '); // no stack
    vi.advanceTimersByTime(10_000);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toEqual({
      level: 'error',
      fields: {
        requestId: 'r0',
        err: 'connect ECONNREFUSED 127.0.0.1:5432',
        code: 'ECONNREFUSED',
        repeated: 499,
        intervalMs: 10_000,
      },
      msg: 'database unavailable (repeated 499 times in the last 10 s)',
    });
    // Still repeating: one line per interval.
    for (let i = 0; i < 30; i++) logRepeated(logger, 'error', 'database unavailable', refused);
    vi.advanceTimersByTime(10_000);
    expect(lines).toHaveLength(3);
    expect(lines[2]?.fields.repeated).toBe(30);
    // A quiet interval forgets the kind: nothing written, and the next one is written at once.
    vi.advanceTimersByTime(10_000);
    expect(lines).toHaveLength(3);
    logRepeated(logger, 'error', 'database unavailable', refused);
    expect(lines).toHaveLength(4);
    expect(lines[3]?.msg).toBe('database unavailable');
  });

  it('keys by level, message and code (or the error message without one)', () => {
    const { logger, lines } = fakeLogger();
    const terminated = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    logRepeated(logger, 'error', 'database unavailable', refused);
    logRepeated(logger, 'error', 'database unavailable', terminated);
    logRepeated(logger, 'warn', 'database unavailable', refused);
    logRepeated(logger, 'error', 'claiming failed', refused);
    logRepeated(logger, 'warn', 'listener lost', new Error('Connection terminated unexpectedly'));
    logRepeated(logger, 'warn', 'listener lost', new Error('Connection terminated unexpectedly'));
    logRepeated(logger, 'warn', 'listener lost', new Error('something else'));
    expect(lines.map((l) => `${l.level} ${l.msg} ${String(l.fields.code ?? l.fields.err)}`)).toEqual([
      'error database unavailable ECONNREFUSED',
      'error database unavailable 57P01',
      'warn database unavailable ECONNREFUSED',
      'error claiming failed ECONNREFUSED',
      'warn listener lost Connection terminated unexpectedly',
      'warn listener lost something else',
    ]);
  });

  it('anyError: one kind for the message whatever the error', () => {
    const { logger, lines } = fakeLogger();
    const terminated = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    logRepeated(logger, 'error', 'database unavailable', refused, {}, { anyError: true });
    logRepeated(logger, 'error', 'database unavailable', terminated, {}, { anyError: true });
    logRepeated(logger, 'error', 'database unavailable', new Error('timeout'), {}, { anyError: true });
    expect(lines.map((l) => l.fields.code)).toEqual(['ECONNREFUSED']);
    vi.advanceTimersByTime(10_000);
    expect(lines[1]?.fields.repeated).toBe(2);
  });

  it('takes the code from the cause chain (driver adapters wrap the pg error)', () => {
    const { logger, lines } = fakeLogger();
    logRepeated(logger, 'error', 'x', new Error('wrapped', { cause: refused }));
    expect(lines[0]?.fields).toEqual({ err: 'wrapped', code: 'ECONNREFUSED' });
  });

  it('flushRepeated writes what is pending and forgets', () => {
    const { logger, lines } = fakeLogger();
    logRepeated(logger, 'warn', 'x', refused);
    logRepeated(logger, 'warn', 'x', refused);
    flushRepeated();
    expect(lines.map((l) => l.msg)).toEqual(['x', 'x (repeated 1 times)']);
    logRepeated(logger, 'warn', 'x', refused);
    expect(lines).toHaveLength(3);
  });
});
