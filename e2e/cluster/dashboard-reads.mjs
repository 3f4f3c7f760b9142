// The portal dashboard's reads, run in an app host's namespace from the sources (under tsx), for when the
// cluster's .next build is older than lib/db.ts's replica pool: the same getDashboard() the portal route
// calls, on the same DATABASE_URL and DATABASE_REPLICA_URL, without a session. Prints how many transactions
// the replicas ran for each phase: cold, just after the account's write, after the read-your-writes window.
// Usage (by e2e/cluster/run.mjs): node --import tsx --import ./scripts/hooks/server-only.mjs e2e/cluster/dashboard-reads.mjs <accountId> <replica host:port>...
import pg from 'pg';
import { getDashboard } from '../../lib/portal/dashboard.ts';
import { noteAccountWrite } from '../../lib/db.ts';
import { READ_YOUR_WRITES_MS } from '../../lib/read-your-writes.ts';

const [accountId, ...replicas] = process.argv.slice(2);

async function replicaCommits() {
  let total = 0;
  for (const replica of replicas) {
    const url = new URL(process.env.DATABASE_URL);
    url.host = replica;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    const { rows } = await client.query(`SELECT xact_commit::int AS n FROM pg_stat_database WHERE datname = 'carrier'`);
    total += rows[0].n;
    await client.end();
  }
  return total;
}

async function phase() {
  const before = await replicaCommits();
  for (let i = 0; i < 10; i++) await getDashboard({ accountId, environment: 'test' });
  // A backend's statistics reach pg_stat_database when it goes idle for 10 s or exits (the pool's idle timeout, 10 s).
  await new Promise((resolve) => setTimeout(resolve, 11_500));
  return (await replicaCommits()) - before;
}

const cold = await phase();
noteAccountWrite(accountId);
const afterWrite = await phase();
await new Promise((resolve) => setTimeout(resolve, READ_YOUR_WRITES_MS));
const afterWindow = await phase();
console.log(JSON.stringify({ cold, afterWrite, afterWindow }));
process.exit(0);
