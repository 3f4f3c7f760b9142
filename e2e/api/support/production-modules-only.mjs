// A test-only preload: `NODE_OPTIONS=--import=<this file>` makes a Node process (and every Node
// process it starts: the supervisor's workers, `next start`, inherit NODE_OPTIONS) unable to load
// what a production install does not have. Any import or require that resolves into
//   - a package package-lock.json marks `dev` (installed only for development: `npm ci --omit=dev`
//     leaves it out), or
//   - a TypeScript compiler or loader (tsx, esbuild, typescript), whatever the lock says,
// fails with an error, and is written, one line each, to the file named by PRODUCTION_MODULES_LOG.
// PRODUCTION_MODULES_SEEN names a file each process that ran this preload appends its pid and
// command line to, so that a test knows the check was there in every process.
// e2e/api/reliability/compiled.test.ts asserts on both: `npm start` serves with none of them.
import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';
import path from 'node:path';
import { refuse } from './production-modules-only-rules.mjs';

if (process.env.PRODUCTION_MODULES_SEEN)
  appendFileSync(process.env.PRODUCTION_MODULES_SEEN, `${process.pid} ${process.argv.slice(1).join(' ')}\n`);

// Already loaded before this preload ran (--import / --require given before it on the command line).
for (const file of Object.keys(Module._cache ?? {})) refuse(file, file);

// CommonJS require().
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const file = resolveFilename.call(this, request, ...rest);
  if (typeof file === 'string' && path.isAbsolute(file)) refuse(file, request);
  return file;
};

// ES module import (the hook runs on Node's module-hooks thread: ./production-modules-only-hook.mjs).
register('./production-modules-only-hook.mjs', import.meta.url);
