// npm ci refuses a lock file that lacks any optional dependency of a locked package, but the
// registry these machines reach serves only the Linux builds of platform packages (the macOS and
// Windows builds of next's swc, tailwind's oxide, …). So `npm install` writes a lock without them
// and `npm ci` then fails. This adds each missing one to package-lock.json as an optional entry
// limited to its platform: npm ci on Linux skips it without fetching anything.
// Run after any `npm install` that changes dependencies: node scripts/lock-platform-stubs.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const OS = ['darwin', 'win32', 'linux', 'freebsd', 'android', 'openbsd', 'sunos', 'aix', 'netbsd', 'openharmony', 'wasm32'];
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 'riscv64', 's390x', 'loong64', 'mips64el', 'wasi'];

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((part) => OS.includes(part));
  const cpu = parts.find((part) => CPU.includes(part)) ?? (parts.includes('arm') ? 'arm' : undefined);
  if (!os) return undefined;
  // wasm builds run anywhere node does; pin them to an impossible platform so they are never fetched.
  if (os === 'wasm32') return { os: ['none'], cpu: ['wasm32'] };
  return { os: [os === 'openharmony' ? 'openharmony' : os], cpu: cpu ? [cpu] : undefined };
}

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [dep, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const where = `node_modules/${dep}`;
    if (lock.packages[where] || lock.packages[`${path}/${where}`]) continue;
    const platform = platformOf(dep);
    if (!platform) continue;
    const version = range.replace(/^[\^~=]/, '');
    // In the order npm itself writes these keys, so that a later `npm install` leaves the lock as it is.
    lock.packages[where] = {
      version,
      ...(platform.cpu ? { cpu: platform.cpu } : {}),
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      os: platform.os,
    };
    added += 1;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);
console.error(`lock-platform-stubs: added ${added} platform entries`);
