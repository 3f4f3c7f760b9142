// `npm test`: the Vitest suites (unit, API over HTTP, reliability), then the Playwright browser suite, each against its
// own production server on its own database. One after the other, not side by side: each runs two at a time
// (vitest.config.ts, playwright.config.ts), and together they held both cores the whole time, so that the pair took
// longer than one after the other and timing tests failed. The browser suite runs even when Vitest failed, so that one
// run shows every failure.
import { spawnSync } from 'node:child_process';

function run(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  return result.status ?? 1;
}

for (const script of ['scripts/test-tools.mjs', 'scripts/ensure-build.mjs']) {
  const status = run(process.execPath, [script]);
  if (status !== 0) process.exit(status);
}

const bin = (name) => `node_modules/.bin/${name}`;
const vitest = run(bin('vitest'), ['run']);
const playwright = run(bin('playwright'), ['test']);
const failed = [vitest !== 0 && 'Vitest', playwright !== 0 && 'Playwright'].filter(Boolean);
if (failed.length > 0) console.error(`\nnpm test: ${failed.join(' and ')} failed`);
process.exit(failed.length > 0 ? 1 : 0);
