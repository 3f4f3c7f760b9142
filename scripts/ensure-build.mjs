// Before the browser suite: build the production bundle unless the one in .next is newer than
// every source file it is made of, so `npm test` never runs the e2e suite against stale code.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const SOURCES = ['app', 'components', 'lib', 'public', 'proxy.ts', 'instrumentation.ts', 'next.config.mjs', 'tailwind.config.ts', 'package-lock.json'];

function newest(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce((latest, name) => Math.max(latest, newest(path.join(entry, name))), stat.mtimeMs);
}

const built = existsSync('.next/BUILD_ID') ? statSync('.next/BUILD_ID').mtimeMs : 0;
const changed = Math.max(...SOURCES.map(newest));
if (built > changed) {
  console.error('ensure-build: .next is up to date');
} else {
  console.error('ensure-build: building (sources changed since the last build)');
  const result = spawnSync('npx', ['--no-install', 'next', 'build'], { stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  process.exit(result.status ?? 1);
}
