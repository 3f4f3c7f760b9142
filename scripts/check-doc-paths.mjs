// `node scripts/check-doc-paths.mjs`: every path a doc or a comment names (app/…, lib/…, scripts/…, docs/…) must exist.
// A doc that points at a file that moved or went sends the next reader nowhere; this fails the check instead.
// Reads the files git tracks; a path with a wildcard, a placeholder (<…>, …), a URL around it, or followed by
// "since removed" is not checked.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const ROOTS = ['app', 'lib', 'components', 'server', 'scripts', 'docs', 'e2e', 'bench', 'prisma', 'sdk', 'public', '.ci'];
const PATH = new RegExp(
  String.raw`(?<![\w/.@-])((?:${ROOTS.map((r) => r.replace('.', '\\.')).join('|')})/[A-Za-z0-9_.\-/\[\]()@+]*[A-Za-z0-9_\])])`,
  'g',
);
const TEXT = /\.(md|ts|tsx|mjs|js|sh)$|^\.ci\/run$/;

const files = execFileSync('git', ['ls-files'], { encoding: 'utf8' })
  .split('\n')
  // bench/RESULTS.md is a record of past runs, in the names of their day.
  .filter(
    (f) =>
      TEXT.test(f) &&
      !f.startsWith('lib/generated/') &&
      !f.startsWith('bench/results/') &&
      f !== 'bench/RESULTS.md' &&
      f !== 'sdk/generated/schema.ts',
  );
const missing = [];
for (const file of files) {
  if (!existsSync(file)) continue;
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, i) => {
    // In code, only comments name paths for a reader; strings are the program's own business (tests build paths).
    const prose = /\.md$/.test(file) ? line : /^\s*(\/\/|\*|\/\*|#)/.test(line) ? line : (line.match(/\/\/.*$/)?.[0] ?? '');
    for (const match of prose.matchAll(PATH)) {
      const name = match[1].replace(/[.)]+$/, '');
      const after = prose.slice(match.index + match[0].length, match.index + match[0].length + 40);
      // A path the doc itself says is gone ("(x.ts, since removed)") is history, not a pointer.
      if (/[*<>…]|\/\/|:\w/.test(name) || /^[{*]|^-\*|^[,;]?\s*(since removed|removed|deleted)/.test(after)) continue;
      if (name.includes('(') && !name.includes(')')) continue;
      const exists = [name, `${name}.ts`, `${name}.ts`.replace(/\.test\.ts$/, '.test.ts'), name.replace(/\.js$/, '.ts')].some(
        (candidate) => existsSync(candidate),
      );
      if (!exists) missing.push(`${file}:${i + 1}: ${name}`);
    }
  });
}
if (missing.length > 0) {
  console.error(`check-doc-paths: ${missing.length} path(s) named in docs or comments do not exist:\n${missing.join('\n')}`);
  process.exit(1);
}
console.log(`check-doc-paths: every path named in ${files.length} files exists`);
