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

export default defineConfig({
  test: {
    // VITEST_RESULTS: also write the run's results as JSON there (CI prints the slowest files from it).
    reporters: process.env.VITEST_RESULTS ? ['default', ['json', { outputFile: process.env.VITEST_RESULTS }]] : ['default'],
    projects: [
      // 20 s: the property suites (thousands of runs each) take 1-3 s alone and timed out at 5 s on a CI machine at
      // load 20; a unit test has no I/O to hang on, so a longer bound only gives CPU-bound tests the time they need.
      {
        resolve,
        test: {
          name: 'unit',
          include: ['lib/**/*.test.ts', 'components/**/*.test.ts'],
          environment: 'node',
          testTimeout: 20_000,
        },
      },
      {
        resolve,
        test: {
          name: 'api',
          include: ['e2e/api/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['e2e/api/support/global-setup.ts'],
          setupFiles: ['e2e/api/support/worker-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
