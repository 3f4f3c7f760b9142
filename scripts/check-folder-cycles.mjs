// Fails when two folders under lib/ import each other, directly or round a longer loop
// (docs/decisions/layering.md). Folder = lib/<name>; a top-level file such as lib/db.ts is its own node.
// Type-only imports count too: a cycle in types is still a cycle in design. Test files are left out:
// a test may exercise a higher folder (lib/schemas/limits.test.ts checks the portal's schemas too)
// without the code depending on it. Run by `npm run lint`.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm;

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : files(full);
    return /\.(ts|tsx|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** lib/rating/quote-rates.ts → lib/rating; lib/env.ts → lib/env.ts; anything outside lib → undefined. */
function nodeOf(file) {
  const rel = path.relative(root, file).split(path.sep);
  if (rel[0] !== 'lib') return undefined;
  return rel.length > 2 ? `lib/${rel[1]}` : rel.join('/');
}

function resolve(from, specifier) {
  if (specifier.startsWith('@/')) return path.join(root, specifier.slice(2));
  if (specifier.startsWith('.')) return path.resolve(path.dirname(from), specifier);
  return undefined;
}

const graph = new Map();
for (const file of files(path.join(root, 'lib'))) {
  const from = nodeOf(file);
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(IMPORT)) {
    const target = resolve(file, match[1] ?? match[2] ?? match[3]);
    if (!target) continue;
    let to = nodeOf(target);
    if (to && /^lib\/[^/]+$/.test(to) && !/\.(ts|tsx|mjs)$/.test(to)) {
      // '@/lib/env' → lib/env.ts when no folder of that name exists.
      try {
        readdirSync(path.join(root, to));
      } catch {
        to = `${to}.ts`;
      }
    }
    if (!to || to === from) continue;
    if (!graph.has(from)) graph.set(from, new Map());
    graph.get(from).set(to, path.relative(root, file));
  }
}

// Tarjan's strongly connected components: any component of more than one node is a cycle.
let index = 0;
const stack = [];
const info = new Map();
const cycles = [];
function visit(node) {
  info.set(node, { index, low: index, onStack: true });
  index += 1;
  stack.push(node);
  for (const next of graph.get(node)?.keys() ?? []) {
    if (!info.has(next)) {
      visit(next);
      info.get(node).low = Math.min(info.get(node).low, info.get(next).low);
    } else if (info.get(next).onStack) {
      info.get(node).low = Math.min(info.get(node).low, info.get(next).index);
    }
  }
  if (info.get(node).low === info.get(node).index) {
    const component = [];
    let member;
    do {
      member = stack.pop();
      info.get(member).onStack = false;
      component.push(member);
    } while (member !== node);
    if (component.length > 1) cycles.push(component.sort());
  }
}
for (const node of graph.keys()) if (!info.has(node)) visit(node);

if (cycles.length === 0) {
  console.log(`check-folder-cycles: no cycles among ${graph.size} folders of lib/`);
} else {
  for (const component of cycles) {
    console.error(`check-folder-cycles: these folders import each other: ${component.join(', ')}`);
    for (const from of component) {
      for (const [to, file] of graph.get(from) ?? [])
        if (component.includes(to)) console.error(`  ${from} → ${to} (e.g. ${file})`);
    }
  }
  process.exit(1);
}
