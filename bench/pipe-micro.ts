// In-process: handleApiRequest for the rate body, N calls, best of rounds. No sockets.
import { createDatabase, dropDatabase } from '../scripts/database.mjs';
import { migrateDeploy } from '../scripts/migrate.mjs';
import { seedRateCards } from '../prisma/seed';
import { RATE_BODY, RATE_PATH } from './support/fixtures';

const base = 'postgresql://postgres:postgres@127.0.0.1:5432/postgres';
const dbName = `micro_${process.pid}`;
const url: string = await createDatabase(base, dbName);
await migrateDeploy(url);
await seedRateCards(url);
process.env.DATABASE_URL = url;
process.env.LOG_LEVEL = 'warn';
process.env.API_RATE_LIMIT_PER_SECOND = '1000000000';
process.env.API_RATE_LIMIT_BURST = '1000000000';
const { createApiToken, findOrCreateAccount } = await import('@/lib/accounts/create-api-token');
const account = await findOrCreateAccount({ name: `Micro ${Date.now()}` });
const { token } = await createApiToken({ accountId: account.id, environment: 'test', name: 'm' });
const { handleApiRequest } = await import('@/lib/http/pipeline');
const headers = new Map<string, string>([['authorization', `Bearer ${token}`], ['content-type', 'application/json']]);
const req = () => ({
  method: 'POST', path: RATE_PATH, query: new URLSearchParams(), remoteAddress: '127.0.0.1',
  headers: { get: (n: string) => headers.get(n) ?? null },
  readBody: async () => RATE_BODY,
});
const r0 = await handleApiRequest(req());
if (r0.status !== 200) { console.log(r0); process.exit(1); }
const N = Number(process.argv[2] ?? 20000);
for (let i = 0; i < N; i++) await handleApiRequest(req());
const results: number[] = [];
for (let round = 0; round < 7; round++) {
  const t = process.hrtime.bigint();
  for (let i = 0; i < N; i++) await handleApiRequest(req());
  results.push(Number(process.hrtime.bigint() - t) / 1e3 / N);
}
results.sort((a, b) => a - b);
console.log(`${process.cwd()}: µs/request min ${results[0].toFixed(2)} median ${results[3].toFixed(2)}`);
const { db } = await import('@/lib/db');
await db.$disconnect?.();
await dropDatabase(base, dbName).catch(() => {});
process.exit(0);
