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
    child.stdout.on('data', (chunk: Buffer) => {
      firstLineAt ??= Date.now();
      out += chunk.toString();
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
});
