// `npm test`: the Vitest suites (unit, API over HTTP, reliability), then the Playwright browser suite, each against its
// own production server on its own database. One after the other, not side by side: each runs two at a time
// (vitest.config.ts, playwright.config.ts), and together they held both cores the whole time, so that the pair took
// longer than one after the other and timing tests failed. The browser suite runs even when Vitest failed, so that one
// run shows every failure.
//
// TEST_BESIDE_BROWSER: a shell command run beside the browser suite and counted with it (CI gives it the cluster test,
// which mostly waits on failovers and networks; beside Vitest's timing tests it would not be welcome).
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function run(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  return result.status ?? 1;
}

/** Starts `command` in a shell with its output kept in a file, printed when it ends (not mixed into the browser suite's). */
function beside(command) {
  const file = join(mkdtempSync(join(tmpdir(), 'beside-')), 'out.log');
  const out = createWriteStream(file);
  const started = Date.now();
  const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(out, { end: false });
  child.stderr.pipe(out, { end: false });
  return new Promise((resolve) => {
    child.once('close', (code, signal) => {
      out.end(() => {
        const seconds = Math.round((Date.now() - started) / 1000);
        console.log(
          `\n--- beside the browser suite: ${command} (${seconds} s, exit ${code ?? signal})\n${readFileSync(file, 'utf8')}`,
        );
        resolve(code ?? 1);
      });
    });
  });
}

function runAsync(command, args) {
  const child = spawn(command, args, { stdio: 'inherit' });
  return new Promise((resolve) => child.once('close', (code) => resolve(code ?? 1)));
}

for (const script of ['scripts/test-tools.mjs', 'scripts/ensure-build.mjs']) {
  const status = run(process.execPath, [script]);
  if (status !== 0) process.exit(status);
}

const bin = (name) => `node_modules/.bin/${name}`;
const vitest = run(bin('vitest'), ['run']);
const besideCommand = process.env.TEST_BESIDE_BROWSER;
const [playwright, other] = await Promise.all([
  runAsync(bin('playwright'), ['test']),
  besideCommand ? beside(besideCommand) : Promise.resolve(0),
]);
const failed = [vitest !== 0 && 'Vitest', playwright !== 0 && 'Playwright', other !== 0 && besideCommand].filter(Boolean);
if (failed.length > 0) console.error(`\nnpm test: ${failed.join(' and ')} failed`);
process.exit(failed.length > 0 ? 1 : 0);
