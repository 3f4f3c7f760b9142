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
    projects: [
      { resolve, test: { name: 'unit', include: ['lib/**/*.test.ts', 'components/**/*.test.ts'], environment: 'node' } },
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
