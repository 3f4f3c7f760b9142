// `node scripts/slowest-tests.mjs <vitest json results> [N]`: the N slowest test files of a Vitest run (its json
// reporter's output; vitest.config.ts writes one where VITEST_RESULTS says), slowest first, so that CI shows
// where its time goes.
import { readFileSync } from 'node:fs';

const [file, count = '20'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/slowest-tests.mjs <results.json> [N]');
  process.exit(2);
}
const results = JSON.parse(readFileSync(file, 'utf8'));
const files = results.testResults.map((r) => ({
  name: r.name.replace(`${process.cwd()}/`, ''),
  ms: r.endTime - r.startTime,
  tests: r.assertionResults.length,
}));
files.sort((a, b) => b.ms - a.ms);
console.log(`\n=== the ${Math.min(Number(count), files.length)} slowest of ${files.length} test files (Vitest)`);
for (const f of files.slice(0, Number(count)))
  console.log(`${(f.ms / 1000).toFixed(1).padStart(7)} s  ${f.name} (${f.tests} tests)`);
