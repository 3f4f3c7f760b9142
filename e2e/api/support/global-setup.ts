import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { createDatabase, dropDatabase, ensureDatabase } from '../../../scripts/database.mjs';
import { migrateDeploy } from '../../../scripts/migrate.mjs';
import { seedRateCards } from '../../../prisma/seed';
import { freePort } from '../../../scripts/free-port.mjs';

// Each run gets a database of its own on the server (DATABASE_URL, or the embedded default),
// migrated from prisma/migrations, and a real HTTP server on it:
//   TEST_SERVER=node (default) the bare node:http server over the framework-free pipeline (API only)
//   TEST_SERVER=server         the production server (`npm start`): API on that pipeline, the rest by Next
//   TEST_SERVER=next           plain `next start` (START_MODE=next): the API through Next's route handlers
// The last two need the production build: run `npm run build` first.

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    serverPid: number;
  }
}

async function waitForServer(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`test server exited with ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(url, { method: 'OPTIONS' });
      if (response.status === 204) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`test server did not start within 90 s:\n${output()}`);
}

export default async function setup(project: TestProject) {
  const server = await ensureDatabase({ dataDir: '.data/postgres-test', port: Number(process.env.EMBEDDED_PG_TEST_PORT ?? 5434) });
  const name = `carrier_test_${process.pid}_${Date.now()}`;
  const databaseUrl: string = await createDatabase(server.url, name);
  await migrateDeploy(databaseUrl);
  await seedRateCards(databaseUrl);

  const mode = process.env.TEST_SERVER ?? 'node';
  const port = await freePort();
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
    NODE_ENV: 'production',
    API_RATE_LIMIT_PER_SECOND: '5',
    API_RATE_LIMIT_BURST: '300',
    // Tests that exercise per-address limits act as our proxy: they connect from 127.0.0.1, trusted
    // here as a proxy, and name the client's address as the rightmost X-Forwarded-For entry.
    TRUSTED_PROXIES: '127.0.0.1/32',
    API_AUTH_FAILURES_PER_MINUTE: '60',
    API_BODY_TIMEOUT_MS: '2000',
    // No delivery from this server: the tests that deliver start their own workers on a database
    // of their own (e2e/api/webhooks-delivery.test.ts); this one keeps the strict SSRF guard.
    WEBHOOK_WORKER: 'off',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false',
  } as NodeJS.ProcessEnv;
  const hooks = ['--import', 'tsx', '--import', './scripts/hooks/server-only.mjs'];
  let command: string[];
  if (mode === 'next' || mode === 'server') {
    if (!existsSync('.next/BUILD_ID')) throw new Error(`TEST_SERVER=${mode} needs a production build: run \`npm run build\` first.`);
    env.START_MODE = mode;
    // The heap limit that `npm start` sets (package.json), so the suite runs under production's memory bound.
    command = ['node', ...(mode === 'server' ? ['--max-old-space-size=256'] : []), ...hooks, 'scripts/start.ts'];
  } else if (mode === 'node') {
    command = ['node', ...hooks, 'scripts/api-server.ts'];
  } else {
    throw new Error(`TEST_SERVER must be node, server or next, not "${mode}"`);
  }
  let output = '';
  const child = spawn(command[0], command.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForServer(`${baseUrl}/version-test/api/1.1/wf/rate`, child, () => output);

  project.provide('baseUrl', baseUrl);
  project.provide('databaseUrl', databaseUrl);
  project.provide('serverPid', child.pid!);

  return async () => {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    if (process.env.TEST_SERVER_LOG) console.log(output);
    if (!process.env.KEEP_TEST_DATABASE) await dropDatabase(server.url, name).catch(() => undefined);
    await server.stop();
  };
}
