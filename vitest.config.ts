import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));
const resolve = {
  alias: {
    '@/': root,
    // `server-only` throws outside Next's server bundles; in tests every module is server-side.
    'server-only': fileURLToPath(new URL('./e2e/api/support/server-only-stub.ts', import.meta.url)),
  },
};

function testFiles(directory: string): string[] {
  return readdirSync(join(root, directory), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => join(directory, file));
}

// Test files share one module graph per worker (isolate: false): loading Prisma and the app's modules again for each
// of ~190 files was a third of the suite's time. A file that changes what modules see when loaded (mocks a module,
// stubs the environment, points lib/db at a database of its own) gets a fresh graph, found here by what it calls.
const changesModules = /\bvi\.(mock|doMock|stubEnv|stubGlobal)\(|\bdeliveryHarness\(|\bownDatabase\(|process\.env\.\w+\s*=(?!=)/;
// Three files at a time on two cores: most API files wait on HTTP, servers they start and stop, and timeouts they prove
// (with two, a fifth of the CPU stayed idle while the reliability files waited). A file that measures the shared
// server's process (its memory, its threads) runs after the rest, alone, so that no other file's load is in its numbers.
const readsServerProcess = /inject\('(serverPid|supervisorPid)'\)/;
// Alone too: a file whose promise is a time on a machine otherwise quiet (deliveries resume within 5 s of a restart).
const timesAlone = ['e2e/api/reliability/worker-killed.test.ts'];
const alone = (file: string, text: string) => readsServerProcess.test(text) || timesAlone.includes(file);
function files(...directories: string[]) {
  const all = directories.flatMap(testFiles).map((file) => ({ file, text: readFileSync(join(root, file), 'utf8') }));
  const pick = (keep: (file: string, text: string) => boolean) =>
    all.filter(({ file, text }) => keep(file, text)).map(({ file }) => file);
  return {
    shared: pick((file, text) => !changesModules.test(text) && !alone(file, text)),
    fresh: pick((file, text) => changesModules.test(text) && !alone(file, text)),
    alone: pick(alone),
  };
}
const unit = files('lib', 'components');
const api = files('e2e/api');

const unitTest = { environment: 'node' as const, testTimeout: 20_000 };
const apiTest = {
  environment: 'node' as const,
  globalSetup: ['e2e/api/support/global-setup.ts'],
  setupFiles: ['e2e/api/support/worker-setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
};

export default defineConfig({
  test: {
    maxWorkers: 3,
    // VITEST_RESULTS: also write the run's results as JSON there (CI prints the slowest files from it).
    reporters: process.env.VITEST_RESULTS ? ['default', ['json', { outputFile: process.env.VITEST_RESULTS }]] : ['default'],
    projects: [
      // 20 s: the property suites (thousands of runs each) take 1-3 s alone and timed out at 5 s on a CI machine at
      // load 20; a unit test has no I/O to hang on, so a longer bound only gives CPU-bound tests the time they need.
      {
        resolve,
        test: { ...unitTest, name: 'unit', include: [...unit.shared, ...unit.alone], isolate: false },
      },
      { resolve, test: { ...unitTest, name: 'unit-fresh', include: unit.fresh } },
      { resolve, test: { ...apiTest, name: 'api', include: api.shared, isolate: false } },
      { resolve, test: { ...apiTest, name: 'api-fresh', include: api.fresh } },
      {
        resolve,
        test: {
          ...apiTest,
          name: 'api-alone',
          include: api.alone,
          isolate: false,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
