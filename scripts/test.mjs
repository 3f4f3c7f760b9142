// `npm test`: the Vitest suites (unit, API over HTTP, reliability) and the Playwright browser suite, at the same
// time. Each has its own server and database, and each spends most of its wall time waiting on I/O (HTTP, a
// browser, servers it starts and stops), so on two cores the pair takes little more than the longer one alone.
// Vitest prints as it goes; Playwright's output is kept and printed whole when it ends, so neither interleaves.
import { spawn, spawnSync } from 'node:child_process';

function runSync(args) {
  const result = spawnSync(process.execPath, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function run(command, args, { buffered }) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    const chunks = [];
    if (buffered) {
      child.stdout.on('data', (chunk) => chunks.push(chunk));
      child.stderr.on('data', (chunk) => chunks.push(chunk));
    }
    const stop = (signal) => child.kill(signal);
    process.on('SIGINT', stop).on('SIGTERM', stop);
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks) }));
  });
}

runSync(['scripts/test-tools.mjs']);
runSync(['scripts/ensure-build.mjs']);

const bin = (name) => `node_modules/.bin/${name}`;
const [vitest, playwright] = await Promise.all([
  run(bin('vitest'), ['run'], { buffered: false }),
  run(bin('playwright'), ['test'], { buffered: true }),
]);
process.stdout.write('\n=== Playwright (browser suite), run beside Vitest\n');
process.stdout.write(playwright.output);
const failed = [vitest.code !== 0 && 'Vitest', playwright.code !== 0 && 'Playwright'].filter(Boolean);
if (failed.length > 0) console.error(`\nnpm test: ${failed.join(' and ')} failed`);
process.exit(failed.length > 0 ? 1 : 0);
