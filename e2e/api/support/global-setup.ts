import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { createDatabase, dropDatabase, ensureDatabase } from '../../../scripts/database.mjs';
import { migrateDeploy } from '../../../scripts/migrate.mjs';
import { seedRateCards } from '../../../prisma/seed';
import { childPids, startApp, testServerEnv } from './spawn';

// Each run gets a database of its own on the server (DATABASE_URL, or the embedded default),
// migrated from prisma/migrations, and the app on it, started as `npm start` starts it
// (server/start.ts: the supervisor and one worker, TEST_APP_WORKERS to change):
//   TEST_SERVER=server (default) the production server: API on its Fastify app (lib/http/api-app.ts), the rest by Next
//   TEST_SERVER=next             plain `next start` (START_MODE=next): the API through Next's route handlers
// Both need the production build: made here if there is none (and, for `next`, whose API comes
// from the build, if any source is newer than it), by scripts/ensure-build.mjs; the compiled server
// (dist/, whose API the default mode serves) is rebuilt whenever any of its sources changed.

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    /** The process that serves the requests (the supervisor's worker, or `next start`). */
    serverPid: number;
    /** npm start's own process, the supervisor. */
    supervisorPid: number;
  }
}

function ensureBuild(serverOnly = false): void {
  const result = spawnSync(process.execPath, ['scripts/ensure-build.mjs', ...(serverOnly ? ['--server'] : [])], {
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('the production build failed (scripts/ensure-build.mjs); see its output above');
}

interface TestServer {
  baseUrl: string;
  databaseUrl: string;
  serverPid: number;
  supervisorPid: number;
  stop: () => Promise<void>;
}

// The API suite is two projects (files that share one module graph, and files that need a fresh one, vitest.config.ts)
// and both test the same server on the same database: the first project's setup starts them, the last one's teardown
// stops them.
const shared = globalThis as { apiTestServer?: Promise<TestServer>; apiTestServerUsers?: number };

export default async function setup(project: TestProject) {
  shared.apiTestServer ??= startTestServer();
  shared.apiTestServerUsers = (shared.apiTestServerUsers ?? 0) + 1;
  const server = await shared.apiTestServer;
  project.provide('baseUrl', server.baseUrl);
  project.provide('databaseUrl', server.databaseUrl);
  project.provide('serverPid', server.serverPid);
  project.provide('supervisorPid', server.supervisorPid);
  return async () => {
    shared.apiTestServerUsers = (shared.apiTestServerUsers ?? 1) - 1;
    if (shared.apiTestServerUsers === 0) await server.stop();
  };
}

async function startTestServer(): Promise<TestServer> {
  // The servers run with NODE_ENV=production, which requires the key webhook secrets are encrypted
  // under. Set here, in the runner, so the test files (which read stored rows) and every server they
  // start (reliability suite, delivery tests) inherit the same one.
  process.env.WEBHOOK_SECRETS_KEY ||= randomBytes(32).toString('base64');
  const testPort = process.env.EMBEDDED_PG_TEST_PORT;
  const server = await ensureDatabase({
    dataDir: '.data/postgres-test',
    port: testPort ? Number(testPort) : undefined,
    defaultPort: 5434,
  });
  const name = `carrier_test_${process.pid}_${Date.now()}`;
  const databaseUrl: string = await createDatabase(server.url, name);
  await migrateDeploy(databaseUrl);
  await seedRateCards(databaseUrl);

  const mode = process.env.TEST_SERVER ?? 'server';
  if (mode !== 'server' && mode !== 'next') throw new Error(`TEST_SERVER must be server (the default) or next, not "${mode}"`);
  // npm start runs the compiled server (dist/): rebuilt here whenever a file it is made of changed.
  ensureBuild(!(mode === 'next' || !existsSync('.next/BUILD_ID')));
  const app = await startApp({
    name: `test server (TEST_SERVER=${mode})`,
    // The development outbox on (no SMTP_URL): the suite signs up by following the link mailed to it, read from the
    // outbox table (support/portal.ts signUpAndVerify). Servers a test starts itself keep it off unless they say so.
    env: { ...testServerEnv(databaseUrl, mode), MAIL_OUTBOX: 'on' },
  }).catch(async (error: unknown) => {
    await server.stop();
    throw error;
  });
  return {
    baseUrl: app.baseUrl,
    databaseUrl,
    serverPid: childPids(app.pid)[0] ?? app.pid,
    supervisorPid: app.pid,
    stop: async () => {
      await app.stop('SIGTERM');
      if (process.env.TEST_SERVER_LOG) console.log(app.output());
      if (!process.env.KEEP_TEST_DATABASE) await dropDatabase(server.url, name).catch(() => undefined);
      await server.stop();
    },
  };
}
