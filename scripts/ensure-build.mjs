// Before the test suites: build what `npm start` runs unless it is newer than every source it is made
// of, so `npm test` never runs against stale code. Two parts, as `npm run build` has:
//   - Next's production bundle (.next), if any of its sources changed since the last build;
//   - the server and scripts compiled into dist/ (scripts/build-server.mjs), if any file they were
//     built from changed (a second or so).
// `node scripts/ensure-build.mjs --server`: the second part only (the API suite's global setup).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { buildServer, serverBuildStale } from './build-server.mjs';

const SOURCES = [
  'app',
  'components',
  'lib',
  'public',
  'proxy.ts',
  'instrumentation.ts',
  'next.config.mjs',
  'tailwind.config.ts',
  'package-lock.json',
];

function newest(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce((latest, name) => Math.max(latest, newest(path.join(entry, name))), stat.mtimeMs);
}

if (!process.argv.includes('--server')) {
  const built = existsSync('.next/BUILD_ID') ? statSync('.next/BUILD_ID').mtimeMs : 0;
  const changed = Math.max(...SOURCES.map(newest));
  if (built > changed) {
    console.error('ensure-build: .next is up to date');
  } else {
    console.error('ensure-build: building (sources changed since the last build)');
    const result = spawnSync('npx', ['--no-install', 'next', 'build'], {
      stdio: 'inherit',
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
}

if (serverBuildStale()) {
  const started = Date.now();
  await buildServer();
  console.error(`ensure-build: dist/ rebuilt (its sources changed) in ${Date.now() - started} ms`);
} else {
  console.error('ensure-build: dist/ is up to date');
}
