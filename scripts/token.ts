// npm run token -- --account "Acme Parcels" --env test
// Creates the account (or reuses one of that name) and prints a new API token, alone, on stdout.
import { parseArgs } from 'node:util';
import { appDatabase, ensureDatabase, StartError } from './database.mjs';
import { migrateDeploy } from './migrate.mjs';

const USAGE = 'usage: npm run token -- --account "Acme Parcels" --env test|live [--name "CI token"]\n       npm run token -- --ops [--name "Hub scanners"]  (a carrier operations token, for POST /ops/scans)';
let values: { account?: string; env?: string; name?: string; ops?: boolean };
try {
  ({ values } = parseArgs({
    options: { account: { type: 'string' }, env: { type: 'string', default: 'test' }, name: { type: 'string', default: 'CLI token' }, ops: { type: 'boolean', default: false } },
  }));
} catch (error) {
  console.error(`${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}
if (!values.ops && (!values.account?.trim() || !['test', 'live'].includes(values.env ?? ''))) {
  console.error(USAGE);
  process.exit(2);
}

const database = await ensureDatabase(appDatabase()).catch((error: unknown) => {
  // What to do, in one line (StartError), rather than a stack trace.
  if (!(error instanceof StartError)) throw error;
  console.error(error.message);
  process.exit(1);
});
process.env.DATABASE_URL = database.url;
try {
  await migrateDeploy(database.url);
  if (values.ops) {
    // Not tied to a shipper account: the carrier's own scanners (docs/decisions/lifecycle.md).
    const { createOpsToken } = await import('@/lib/auth/ops-tokens');
    const created = await createOpsToken({ name: values.name ?? 'CLI ops token' });
    process.stdout.write(`${created.token}\n`);
  } else {
    const { findOrCreateAccount, createApiToken } = await import('@/lib/accounts/create-api-token');
    const account = await findOrCreateAccount({ name: (values.account ?? '').trim() });
    const created = await createApiToken({ accountId: account.id, environment: values.env as 'test' | 'live', name: values.name });
    process.stdout.write(`${created.token}\n`);
  }
  const { db, pgPool } = await import('@/lib/db');
  await db.$disconnect();
  await pgPool().end().catch(() => undefined);
} finally {
  await database.stop();
}
