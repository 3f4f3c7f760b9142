import { spawn } from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';
import { isoTime } from './log';

describe('isoTime', () => {
  it("writes pino's time field as an ISO date, the current millisecond's", () => {
    vi.useFakeTimers({ now: new Date('2026-11-21T08:00:00.123Z') });
    try {
      expect(isoTime()).toBe(',"time":"2026-11-21T08:00:00.123Z"');
      vi.setSystemTime(new Date('2026-11-21T08:00:00.124Z'));
      expect(isoTime()).toBe(',"time":"2026-11-21T08:00:00.124Z"');
      expect(isoTime()).toBe(',"time":"2026-11-21T08:00:00.124Z"');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('log lines', () => {
  // A child process imports the logger as the server does, so stdout is a real pipe.
  function run(script: string): Promise<{ lines: string[]; firstLineAt: number | undefined; code: number | null }> {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: process.cwd(),
      env: { ...process.env, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    let firstLineAt: number | undefined;
    // Decoded across reads: a pipe's read can end inside a character.
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      firstLineAt ??= Date.now();
      out += chunk;
    });
    return new Promise((resolve) =>
      child.on('close', (code) => resolve({ lines: out.split('\n').filter(Boolean), firstLineAt, code })),
    );
  }
  const importLog = "const { log } = await import('./lib/log.ts');";

  it('reach stdout while the process lives, though gathered, within a fraction of a second', async () => {
    const result = await run(`${importLog} log.info('one'); setTimeout(() => {}, 3000);`);
    const lines = result.lines.map((l) => JSON.parse(l) as { msg: string; time: string });
    expect(lines.map((l) => l.msg)).toEqual(['one']);
    // Written by the next flush, not when the child exits 3 s later.
    expect(result.firstLineAt! - Date.parse(lines[0]!.time)).toBeLessThan(1000);
  }, 20_000);

  it('are all written when the process exits at once after logging them', async () => {
    const result = await run(`${importLog} for (let i = 0; i < 5000; i++) log.info({ i }, 'line'); process.exit(3);`);
    expect(result.code).toBe(3);
    expect(result.lines).toHaveLength(5000);
    expect((JSON.parse(result.lines[4999]!) as { i: number }).i).toBe(4999);
  }, 20_000);

  it('keep text of every script whole across the gathered writes, in order', async () => {
    // Lines of three, two and one byte per character, long enough that gathered writes end inside them.
    const result = await run(
      `${importLog} for (let i = 0; i < 3000; i++) log.info({ i, text: ['漢字かな', 'Ünïcødé', 'ascii'][i % 3].repeat(40) }, 'line'); process.exit(0);`,
    );
    const lines = result.lines.map((l) => JSON.parse(l) as { i: number; text: string });
    expect(lines).toHaveLength(3000);
    lines.forEach((line, i) => {
      expect(line.i).toBe(i);
      expect(line.text).toBe(['漢字かな', 'Ünïcødé', 'ascii'][i % 3]!.repeat(40));
    });
  }, 20_000);

  it('call back a flush, once what was gathered is written', async () => {
    // Called back with or without an error: on a pipe, sonic-boom's fsync after the write is refused (EINVAL).
    const result = await run(`${importLog} log.info('before'); log.flush(() => process.exit(7)); setTimeout(() => {}, 5000);`);
    expect(result.code).toBe(7);
    expect(result.lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(['before']);
  }, 20_000);
});
