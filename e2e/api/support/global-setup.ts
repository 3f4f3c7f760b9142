import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import type { TestProject } from 'vitest/node';
import { createDatabase, dropDatabase, ensureDatabase } from '../../../scripts/database.mjs';
import { migrateDeploy } from '../../../scripts/migrate.mjs';
import { seedRateCards } from '../../../prisma/seed';

// Each run gets a database of its own on the server (DATABASE_URL, or the embedded default),
// migrated from prisma/migrations, and a real HTTP server on it:
//   TEST_SERVER=node (default) the bare node:http server over the framework-free pipeline
//   TEST_SERVER=next           `next start` on the production build (run `npm run build` first)

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
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
    // Tests that exercise per-address limits name their own address in X-Forwarded-For.
    TRUST_PROXY: 'true',
    API_AUTH_FAILURES_PER_MINUTE: '20',
  } as NodeJS.ProcessEnv;
  let command: string[];
  if (mode === 'next') {
    if (!existsSync('.next/BUILD_ID')) throw new Error('TEST_SERVER=next needs a production build: run `npm run build` first.');
    command = ['node', '--import', 'tsx', 'scripts/start.ts'];
  } else {
    command = ['node', '--conditions=react-server', '--import', 'tsx', 'scripts/api-server.ts'];
  }
  let output = '';
  const child = spawn(command[0], command.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForServer(`${baseUrl}/version-test/api/1.1/wf/rate`, child, () => output);

  project.provide('baseUrl', baseUrl);
  project.provide('databaseUrl', databaseUrl);

  return async () => {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    if (process.env.TEST_SERVER_LOG) console.log(output);
    if (!process.env.KEEP_TEST_DATABASE) await dropDatabase(server.url, name).catch(() => undefined);
    await server.stop();
  };
}
