import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import nextConfig from '@/next.config.mjs';

// In a child process: loading Next's environment changes the globals of the process that loads it.
function run(script: string): Record<string, unknown> {
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: process.cwd(),
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as Record<string, unknown>;
}

describe('native globals', () => {
  it("are Next's wrappers once Next is loaded, and the natives again once restored", () => {
    const seen = run(`
      import crypto from 'node:crypto';
      import { createRequire } from 'node:module';
      const { captureNativeGlobals } = await import('./lib/http/native-globals.ts');
      const before = { Date, now: Date.now, random: Math.random, uuid: crypto.randomUUID, bytes: crypto.randomBytes,
        web: globalThis.crypto.getRandomValues, webUuid: globalThis.crypto.randomUUID };
      const restore = captureNativeGlobals();
      createRequire(import.meta.url)('next/dist/server/node-environment');
      const same = () => ({ Date: Date === before.Date, now: Date.now === before.now, random: Math.random === before.random,
        uuid: crypto.randomUUID === before.uuid, bytes: crypto.randomBytes === before.bytes,
        web: globalThis.crypto.getRandomValues === before.web, webUuid: globalThis.crypto.randomUUID === before.webUuid,
        constructor: new Date(0).constructor === Date });
      const wrapped = same();
      restore();
      const restored = same();
      const works = new Date(86_400_000).toISOString() === '1970-01-02T00:00:00.000Z' && typeof Date.now() === 'number'
        && crypto.randomBytes(4).length === 4 && /^[0-9a-f-]{36}$/.test(globalThis.crypto.randomUUID())
        && globalThis.crypto.getRandomValues(new Uint8Array(4)).length === 4 && Math.random() < 1;
      console.log(JSON.stringify({ wrapped, restored, works }));
    `);
    const all = (value: boolean) => ({
      Date: value,
      now: value,
      random: value,
      uuid: value,
      bytes: value,
      web: value,
      webUuid: value,
      constructor: true,
    });
    // If Next stops wrapping one of these, this says which: its restore can then go.
    expect(seen.wrapped).toEqual(all(false));
    expect(seen.restored).toEqual(all(true));
    expect(seen.works).toBe(true);
  }, 30_000);

  it('are only put back where Next does not use its wrappers: cacheComponents stays off', () => {
    const config = nextConfig as { cacheComponents?: unknown; experimental?: { cacheComponents?: unknown } };
    expect(config.cacheComponents ?? false).toBe(false);
    expect(config.experimental?.cacheComponents ?? false).toBe(false);
  });
});
