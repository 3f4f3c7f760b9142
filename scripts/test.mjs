// `npm test`: the Vitest suites (unit and API over HTTP; the reliability suite in a Vitest process of its own) and the
// Playwright browser suite, at the same time. Each has its own servers and database, and each spends much of its wall
// time waiting on I/O (HTTP, a browser, servers it starts, kills and starves), so on two cores they take little more
// than the longest alone. The unit and API run prints as it goes; the others' output is kept and printed whole when
// they end, so nothing interleaves.
import { spawn, spawnSync } from 'node:child_process';

function runSync(args) {
  const result = spawnSync(process.execPath, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function run(command, args, { buffered, env = process.env }) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
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
// VITEST_RESULTS (CI's list of the slowest files): the reliability process writes its own file beside it.
const results = process.env.VITEST_RESULTS;
const [vitest, reliability, playwright] = await Promise.all([
  run(bin('vitest'), ['run', '--project', 'unit', '--project', 'api'], { buffered: false }),
  run(bin('vitest'), ['run', '--project', 'reliability'], {
    buffered: true,
    env: results ? { ...process.env, VITEST_RESULTS: results.replace(/(\.json)?$/, '.reliability.json') } : process.env,
  }),
  run(bin('playwright'), ['test'], { buffered: true }),
]);
process.stdout.write('\n=== Vitest, reliability suite (e2e/api/reliability), run beside the others\n');
process.stdout.write(reliability.output);
process.stdout.write('\n=== Playwright (browser suite), run beside Vitest\n');
process.stdout.write(playwright.output);
const failed = [
  vitest.code !== 0 && 'Vitest',
  reliability.code !== 0 && 'Vitest (reliability)',
  playwright.code !== 0 && 'Playwright',
].filter(Boolean);
if (failed.length > 0) console.error(`\nnpm test: ${failed.join(', ')} failed`);
process.exit(failed.length > 0 ? 1 : 0);
