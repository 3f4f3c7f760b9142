// npm start (production build) / npm run dev: one command runs the whole service.
// Database: DATABASE_URL if set, else an embedded PostgreSQL under .data/ started and stopped
// with the app. Then migrations, the seeded rate cards, and Next.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { seedRateCards } from '../prisma/seed';
import { ensureDatabase } from './database.mjs';
import { migrateDeploy } from './migrate.mjs';

const dev = process.argv.includes('--dev');
const port = process.env.PORT ?? '3000';

const database = await ensureDatabase();
await migrateDeploy(database.url);
await seedRateCards(database.url);

const nextBin = createRequire(import.meta.url).resolve('next/dist/bin/next');
const app = spawn(process.execPath, [nextBin, dev ? 'dev' : 'start', '--port', port], {
  env: { ...process.env, DATABASE_URL: database.url },
  stdio: 'inherit',
});

let stopping = false;
async function stop(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    await database.stop().catch((error: Error) => console.error(`stopping the database failed: ${error.message}`));
  }
  process.exit(code);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (app.exitCode === null) app.kill(signal);
    else void stop(0);
  });
}
app.on('exit', (code, signal) => void stop(code ?? (signal ? 0 : 1)));
