// npm start (production build) / npm run dev: one command runs the whole service.
// Database: DATABASE_URL if set, else an embedded PostgreSQL under .data/ started and stopped
// with the app. Then migrations, the seeded rate cards, and the server:
//   default          scripts/server.ts in this process: the API served by the framework-free
//                    pipeline on node:http, every other path by Next's request handler
//   START_MODE=next  plain `next start` / `next dev` in a child process, the API through Next's
//                    route handlers (the API suite runs against both; see docs/decisions/production-server.md)
// Run with `--import ./scripts/hooks/server-only.mjs` (package.json does), so lib/ modules load outside Next.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { seedRateCards } from '../prisma/seed';
import { encryptSecretsAtStart, ensureWebhookSecretsKey } from '../lib/webhooks/prepare-secrets-at-start';
import { ensureDatabase } from './database.mjs';
import { migrateDeploy } from './migrate.mjs';

const dev = process.argv.includes('--dev');
const port = process.env.PORT ?? '3000';
const mode = process.env.START_MODE ?? 'server';
if (mode !== 'server' && mode !== 'next') {
  console.error(`START_MODE must be "server" (the default) or "next", not "${mode}"`);
  process.exit(2);
}

// Webhook secrets are encrypted at rest: the key first (refuse to start without one in production on
// a DATABASE_URL), then, after the migrations, the data step that encrypts any plain ones.
const refusal = ensureWebhookSecretsKey({
  embedded: !process.env.DATABASE_URL,
  production: (process.env.NODE_ENV ?? (dev ? 'development' : 'production')) === 'production',
  dataDir: fileURLToPath(new URL('../.data', import.meta.url)),
});
if (refusal) {
  console.error(refusal);
  process.exit(1);
}
const database = await ensureDatabase();
await migrateDeploy(database.url);
await seedRateCards(database.url);
await encryptSecretsAtStart(database.url);
process.env.DATABASE_URL = database.url;

let stopping = false;
async function stop(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    await database.stop().catch((error: Error) => console.error(`stopping the database failed: ${error.message}`));
  }
  process.exit(code);
}

if (mode === 'next') {
  const nextBin = createRequire(import.meta.url).resolve('next/dist/bin/next');
  const app = spawn(process.execPath, [nextBin, dev ? 'dev' : 'start', '--port', port], { env: process.env, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (app.exitCode === null) app.kill(signal);
      else void stop(0);
    });
  }
  app.on('exit', (code, signal) => void stop(code ?? (signal ? 0 : 1)));
} else {
  const { startServer } = await import('./server');
  const running = await startServer({ dev, port: Number(port) }).catch((error: unknown) => {
    console.error(error);
    return stop(1);
  });
  // `on`, not `once`: Ctrl+C reaches both npm and this process, and npm forwards it again; a second
  // signal must not fall through to the default action and kill us before the database is stopped.
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      running.close().then(
        () => stop(0),
        () => stop(1),
      );
    });
  }
}
