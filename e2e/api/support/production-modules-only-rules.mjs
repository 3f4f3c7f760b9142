// The rules of ./production-modules-only.mjs (which see), shared with its ES module hook.
import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const COMPILERS = new Set(['tsx', 'esbuild', 'typescript']);
const LOG = process.env.PRODUCTION_MODULES_LOG;

/** package-lock.json's dev-only package directories (relative to the root, e.g. node_modules/tsx). */
function devOnly() {
  const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
  return new Set(Object.entries(lock.packages).flatMap(([where, entry]) => (where && entry.dev ? [where] : [])));
}
const DEV = devOnly();

/** The package directory a file belongs to (node_modules/a/node_modules/@s/b), or undefined. */
function packageDir(file) {
  const relative = path.relative(ROOT, file).split(path.sep);
  let end = -1;
  for (let i = 0; i < relative.length; i += 1) if (relative[i] === 'node_modules') end = i;
  if (end === -1 || end + 1 >= relative.length) return undefined;
  const name = relative[end + 1].startsWith('@') ? relative.slice(end + 1, end + 3) : [relative[end + 1]];
  return [...relative.slice(0, end + 1), ...name].join('/');
}

/** Why `file` must not load in production, or undefined. */
export function forbidden(file) {
  const dir = packageDir(file);
  if (!dir) return undefined;
  const name = dir.slice(dir.lastIndexOf('node_modules/') + 'node_modules/'.length);
  if (COMPILERS.has(name) || name.startsWith('@esbuild/')) return `${name} (a TypeScript compiler or loader)`;
  if (DEV.has(dir)) return `${name} (a devDependency: not installed in production)`;
  return undefined;
}

export function refuse(file, specifier) {
  const reason = forbidden(file);
  if (!reason) return;
  const line = `pid ${process.pid} (${process.argv.slice(1).join(' ')}): ${specifier} -> ${reason}`;
  if (LOG) appendFileSync(LOG, `${line}\n`);
  throw new Error(`production-modules-only: ${line}`);
}
