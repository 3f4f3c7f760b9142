// `node scripts/slowest-tests.mjs <vitest json results>… [N]`: the N slowest test files of one or more Vitest runs
// (their json reporter's output; vitest.config.ts writes one where VITEST_RESULTS says), slowest first, so that CI
// shows where its time goes. Files that do not exist are skipped.
import { existsSync, readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const count = /^\d+$/.test(args.at(-1) ?? '') ? args.pop() : '20';
if (args.length === 0) {
  console.error('usage: node scripts/slowest-tests.mjs <results.json>… [N]');
  process.exit(2);
}
const files = args
  .filter((file) => existsSync(file))
  .flatMap((file) => JSON.parse(readFileSync(file, 'utf8')).testResults)
  .map((r) => ({
    name: r.name.replace(`${process.cwd()}/`, ''),
    ms: r.endTime - r.startTime,
    tests: r.assertionResults.length,
  }));
files.sort((a, b) => b.ms - a.ms);
console.log(`\n=== the ${Math.min(Number(count), files.length)} slowest of ${files.length} test files (Vitest)`);
for (const f of files.slice(0, Number(count)))
  console.log(`${(f.ms / 1000).toFixed(1).padStart(7)} s  ${f.name} (${f.tests} tests)`);
