// `npm test`: the Vitest suites (unit, API over HTTP, reliability), then the Playwright browser suite, each against its
// own production server on its own database. One after the other, not side by side: each runs several at a time
// (vitest.config.ts, playwright.config.ts), and together they held both cores the whole time, so that the pair took
// longer than one after the other and timing tests failed. The browser suite runs even when Vitest failed, so that one
// run shows every failure.
//
// TEST_BESIDE_BROWSER: a shell command run beside the browser suite and counted with it (CI gives it the cluster test,
// which mostly waits on failovers and networks; beside Vitest's timing tests it would not be welcome). Its output is
// kept and printed when it ends, not mixed into the browser suite's.
import { spawn } from 'node:child_process';

const children = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
  });
}

/** Runs a command to its end: its exit code (1 for a signal), and its output when `captured`. */
function run(command, args, { shell = false, captured = false } = {}) {
  const child = spawn(command, args, { shell, stdio: captured ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
  children.add(child);
  const chunks = [];
  if (captured) {
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
  }
  return new Promise((resolve) => {
    child.once('close', (code) => {
      children.delete(child);
      resolve({ code: code ?? 1, output: Buffer.concat(chunks).toString() });
    });
  });
}

for (const script of ['scripts/test-tools.mjs', 'scripts/ensure-build.mjs']) {
  const { code } = await run(process.execPath, [script]);
  if (code !== 0) process.exit(code);
}

const bin = (name) => `node_modules/.bin/${name}`;
const vitest = await run(bin('vitest'), ['run']);
const besideCommand = process.env.TEST_BESIDE_BROWSER;
const started = Date.now();
const [playwright, beside] = await Promise.all([
  run(bin('playwright'), ['test']),
  besideCommand ? run(besideCommand, [], { shell: true, captured: true }) : undefined,
]);
if (beside) {
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(`\n--- beside the browser suite: ${besideCommand} (exit ${beside.code}, within ${seconds} s)\n${beside.output}`);
}
const failed = [
  vitest.code !== 0 && 'Vitest',
  playwright.code !== 0 && 'Playwright',
  beside && beside.code !== 0 && besideCommand,
].filter(Boolean);
if (failed.length > 0) console.error(`\nnpm test: ${failed.join(' and ')} failed`);
process.exit(failed.length > 0 ? 1 : 0);
