// `node scripts/comment-density.mjs`: the share of lib/'s non-blank lines that are only a comment, per folder and in
// total, first without the *.test.ts files, then with them. lib/generated/ is not ours to write, so it is left out.
// A line counts as a comment when nothing but a comment is on it (//, /*, *, */, or inside a block comment).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const ROOT = 'lib';

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (path !== join(ROOT, 'generated')) yield* sources(path);
    } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      yield path;
    }
  }
}

function count(text) {
  let code = 0;
  let comments = 0;
  let inBlock = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    code += 1;
    if (inBlock) {
      comments += 1;
      if (line.includes('*/')) inBlock = false;
    } else if (line.startsWith('//')) {
      comments += 1;
    } else if (line.startsWith('/*')) {
      comments += 1;
      if (!line.includes('*/', 2)) inBlock = true;
    }
  }
  return { lines: code, comments };
}

const folderOf = (file) => {
  const parts = relative(ROOT, file).split(sep);
  return parts.length > 1 ? `lib/${parts[0]}` : 'lib (top level)';
};

const withoutTests = new Map();
const withTests = new Map();
for (const file of sources(ROOT)) {
  const counted = count(readFileSync(file, 'utf8'));
  const add = (table) => {
    const row = table.get(folderOf(file)) ?? { lines: 0, comments: 0 };
    row.lines += counted.lines;
    row.comments += counted.comments;
    table.set(folderOf(file), row);
  };
  add(withTests);
  if (!/\.test\.tsx?$/.test(file)) add(withoutTests);
}

const percent = ({ lines, comments }) => (lines === 0 ? 0 : (100 * comments) / lines);

function print(title, table) {
  const rows = [...table].sort((a, b) => percent(b[1]) - percent(a[1]));
  const total = rows.reduce((sum, [, row]) => ({ lines: sum.lines + row.lines, comments: sum.comments + row.comments }), {
    lines: 0,
    comments: 0,
  });
  console.log(`\n${title}`);
  for (const [folder, row] of rows) {
    console.log(`  ${folder.padEnd(24)} ${percent(row).toFixed(1).padStart(5)} %  (${row.comments} of ${row.lines})`);
  }
  console.log(`  ${'total'.padEnd(24)} ${percent(total).toFixed(1).padStart(5)} %  (${total.comments} of ${total.lines})`);
  return percent(total);
}

print('lib/ comment lines, *.test.ts excluded', withoutTests);
print('lib/ comment lines, *.test.ts included', withTests);
