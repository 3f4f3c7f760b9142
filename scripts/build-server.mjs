// `npm run build`'s second step (after `next build`): the server, the supervisor and the scripts that
// production runs, compiled from TypeScript into JavaScript under dist/, so that `npm start` runs
// plain Node: no TypeScript compiler, no tsx, no esbuild at run time (docs/decisions/production-server.md).
//
//   dist/start.js                    npm start: the supervisor (server/start.ts)
//   dist/server.js                   what each of its workers runs (server/server.ts)
//   dist/portal.js                   its portal's process: Next alone (server/portal.ts)
//   dist/request-log-thread.js       the request log's writer thread in each of them (server/request-log-thread.ts)
//   dist/document-render-thread.js   their document render threads (server/document-render-thread.ts)
//   dist/document-render-job.js      the renderers, for a render inline where no render thread runs (lib/documents)
//   dist/worker.js                   npm run worker (server/worker.ts)
//   dist/token.js                    npm run token (scripts/token.ts)
//   dist/encrypt-webhook-secrets.js  npm run db:encrypt-secrets (scripts/encrypt-webhook-secrets.ts)
//
// Each is one self-contained ES module (no shared chunks, so that a rebuild while an older server runs
// never removes a file that server still has to load): lib/ and prisma/ bundled through the `@/` alias
// of tsconfig.json; `server-only` mapped to an empty module (what scripts/hooks/server-only.mjs does
// for tsx); every npm package left outside (node_modules at run time, as Next's own bundle leaves
// them); scripts/*.mjs (database.mjs, migrate.mjs: plain JavaScript already, also run directly and by
// the tests) imported from where they are. Files are replaced by rename, so a server starting during a
// rebuild reads either the old file or the new one, never half of one.
//
//   node scripts/build-server.mjs            build
//   node scripts/build-server.mjs --if-stale build only if a source dist/ was made from changed since
//
// dist/build-info.json records the sources (esbuild's inputs) and the externals, for --if-stale and
// for the test that every external package is a production dependency (e2e/api/reliability/compiled.test.ts).
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = path.join(ROOT, 'dist');
const INFO = path.join(OUT, 'build-info.json');

export const ENTRIES = {
  start: 'server/start.ts',
  server: 'server/server.ts',
  portal: 'server/portal.ts',
  'request-log-thread': 'server/request-log-thread.ts',
  'document-render-thread': 'server/document-render-thread.ts',
  'document-render-job': 'lib/documents/render-job.ts',
  worker: 'server/worker.ts',
  token: 'scripts/token.ts',
  'encrypt-webhook-secrets': 'scripts/encrypt-webhook-secrets.ts',
  'next-request-target': 'server/next-request-target.ts',
};

/** Whether dist/ is missing or older than any file it was built from (or than package-lock.json). */
export function serverBuildStale() {
  if (!existsSync(INFO)) return true;
  let info;
  try {
    info = JSON.parse(readFileSync(INFO, 'utf8'));
  } catch {
    return true;
  }
  const builtAt = statSync(INFO).mtimeMs;
  const sources = [...(info.inputs ?? []), 'package-lock.json', 'tsconfig.json', 'scripts/build-server.mjs'];
  if (Object.keys(ENTRIES).some((name) => !existsSync(path.join(OUT, `${name}.js`)))) return true;
  return sources.some((file) => {
    const at = path.join(ROOT, file);
    return !existsSync(at) || statSync(at).mtimeMs > builtAt;
  });
}

export async function buildServer() {
  // A development tool: `npm run build` needs the devDependencies (next build does too); run time does not.
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: ENTRIES,
    outdir: OUT,
    bundle: true,
    splitting: false,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    packages: 'external',
    tsconfig: path.join(ROOT, 'tsconfig.json'),
    sourcemap: 'linked',
    metafile: true,
    write: false,
    logLevel: 'warning',
    legalComments: 'none',
    banner: { js: '// Built by scripts/build-server.mjs (npm run build) from scripts/ and lib/: edit those, not this file.' },
    plugins: [
      {
        name: 'server-only',
        setup(build) {
          // lib modules begin with `import 'server-only'`; outside Next it is an empty module.
          build.onResolve({ filter: /^server-only$/ }, () => ({ path: 'server-only', namespace: 'empty-module' }));
          build.onLoad({ filter: /.*/, namespace: 'empty-module' }, () => ({ contents: '', loader: 'js' }));
        },
      },
      {
        name: 'renderers-apart',
        setup(build) {
          // The render pool imports the renderers only to render inline; bundled, their packages (pdf-lib, fontkit:
          // half a second) would load at the start of every server process, which renders on its threads instead.
          build.onResolve({ filter: /^\.\/render-job$/ }, (args) =>
            args.kind === 'dynamic-import' && args.importer.endsWith(path.join('lib', 'documents', 'render-pool.ts'))
              ? { path: './document-render-job.js', external: true }
              : undefined,
          );
        },
      },
      {
        name: 'scripts-mjs',
        setup(build) {
          // scripts/*.mjs stay files of their own, imported from dist/ by their place in scripts/.
          build.onResolve({ filter: /\.mjs$/ }, (args) => {
            if (!args.path.startsWith('.')) return undefined;
            const target = path.resolve(args.resolveDir, args.path);
            const relative = path.relative(OUT, target).split(path.sep).join('/');
            return { path: relative.startsWith('.') ? relative : `./${relative}`, external: true };
          });
        },
      },
    ],
  });
  mkdirSync(OUT, { recursive: true });
  for (const file of result.outputFiles) {
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, file.contents);
    renameSync(temporary, file.path);
  }
  const inputs = Object.keys(result.metafile.inputs).filter((input) => !input.includes(':'));
  const externals = new Set();
  const scripts = new Set();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const imported of output.imports) {
      if (!imported.external) continue;
      if (imported.path.startsWith('.')) scripts.add(path.resolve(OUT, imported.path));
      else externals.add(imported.path);
    }
  }
  // What the scripts/*.mjs that dist/ imports import in turn: run time needs those packages too.
  const scriptImports = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [...scripts],
    outdir: path.join(OUT, 'unused'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    metafile: true,
    write: false,
    logLevel: 'error',
  });
  for (const input of Object.keys(scriptImports.metafile.inputs)) inputs.push(input);
  for (const output of Object.values(scriptImports.metafile.outputs)) {
    for (const imported of output.imports) if (imported.external) externals.add(imported.path);
  }
  const info = {
    builtAt: new Date().toISOString(),
    entries: ENTRIES,
    inputs: [...new Set(inputs)].sort(),
    externals: [...externals].sort(),
  };
  writeFileSync(`${INFO}.${process.pid}.tmp`, `${JSON.stringify(info, null, 2)}\n`);
  renameSync(`${INFO}.${process.pid}.tmp`, INFO);
  return info;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--if-stale') && !serverBuildStale()) {
    console.error('build-server: dist/ is up to date');
  } else {
    const started = Date.now();
    const info = await buildServer();
    console.error(
      `build-server: ${Object.keys(ENTRIES).length} entry points from ${info.inputs.length} sources into dist/ in ${Date.now() - started} ms`,
    );
  }
}
