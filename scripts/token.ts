// npm run token -- --account "Acme Parcels" --env test [--scopes rates,manifests:write]
// Creates the account (or reuses one of that name) and prints a new API token, alone, on stdout. Without --scopes
// the token has full access; its creator is left empty (no portal user made it).
import { parseArgs } from 'node:util';
import { appDatabase, ensureDatabase, StartError } from './database.mjs';
import { migrateDeploy } from './migrate.mjs';
import { API_SCOPES, isApiScope, type ApiScope } from '@/lib/auth/scopes';

const USAGE =
  `usage: npm run token -- --account "Acme Parcels" --env test|live [--name "CI token"] [--scopes ${API_SCOPES.slice(0, 2).join(',')}]\n` +
  `       (scopes: ${API_SCOPES.join(', ')}; none given: full access)\n` +
  '       npm run token -- --ops [--name "Hub scanners"]  (a carrier operations token, for POST /ops/scans)';
let values: { account?: string; env?: string; name?: string; ops?: boolean; scopes?: string };
try {
  ({ values } = parseArgs({
    options: {
      account: { type: 'string' },
      env: { type: 'string', default: 'test' },
      name: { type: 'string', default: 'CLI token' },
      ops: { type: 'boolean', default: false },
      scopes: { type: 'string' },
    },
  }));
} catch (error) {
  console.error(`${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}
if (!values.ops && (!values.account?.trim() || !['test', 'live'].includes(values.env ?? ''))) {
  console.error(USAGE);
  process.exit(2);
}
// --scopes a,b: exactly those (each known, at least one); an operations token has no scopes to give.
let scopes: ApiScope[] | null = null;
if (values.scopes !== undefined) {
  const names = values.scopes
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.filter((name) => !isApiScope(name));
  if (values.ops || names.length === 0 || unknown.length > 0) {
    const why = values.ops
      ? 'an operations token has no scopes'
      : names.length === 0
        ? 'name at least one scope'
        : `unknown scope ${unknown.map((name) => `"${name}"`).join(', ')}`;
    console.error(`--scopes: ${why}\n${USAGE}`);
    process.exit(2);
  }
  scopes = names.filter(isApiScope);
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
    const created = await createApiToken({
      accountId: account.id,
      environment: values.env as 'test' | 'live',
      name: values.name,
      scopes,
    });
    process.stdout.write(`${created.token}\n`);
  }
  const { db, pgPool } = await import('@/lib/db');
  await db.$disconnect();
  await pgPool()
    .end()
    .catch(() => undefined);
} finally {
  await database.stop();
}
