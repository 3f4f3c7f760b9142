// The database's own ceiling for package acceptance: node-postgres sending one-row INSERTs into `packages` (each its
// own transaction, as pgbench's custom scripts would), as fast as PostgreSQL commits them, from `connections`
// connections for `seconds`. No HTTP, no outbox, no counters: the same table, indexes, trigger and carrier-barcode
// default as an accepted package, so the package benchmark's ratio to it says how much each package costs beyond
// storing its row. Used by bench/run.ts beside the package benchmark (same run, same database).
import { createHash } from 'node:crypto';
import pg from 'pg';
import { PACKAGE_TEMPLATE, uniqueIds } from '../support/fixtures';
import { cpuSeconds, postgresCpu, postgresCpuSince } from '../support/processes';

export interface InsertCeiling {
  inserts: number;
  perSecond: number;
  seconds: number;
  /** CPU per insert in µs: PostgreSQL's (every postgres process of the machine) and this process's (the client). */
  cpuUs: { postgres: number; client: number };
}

const INSERT = `
  INSERT INTO packages (account_id, environment, daily_manifest_id, tracking_number, manifest_date, service_name,
                        final_mile_carrier, to_postal_code, data, request_hash)
  VALUES ($1::uuid, 'test', $2, $3, $4, $5, $6, $7, $8::jsonb, $9)`;

/**
 * One-row insert transactions into `packages` for `seconds` (after `warmupSeconds` not counted), into a daily
 * manifest of their own (made here, for a day no benchmark uses) of `accountId`'s test environment.
 */
export async function measureInsertCeiling(options: {
  databaseUrl: string;
  accountId: string;
  connections: number;
  seconds: number;
  warmupSeconds?: number;
}): Promise<InsertCeiling> {
  const { databaseUrl, accountId, connections, seconds } = options;
  const pool = new pg.Pool({ connectionString: databaseUrl, max: connections });
  try {
    await pool.query(
      `INSERT INTO daily_manifests (id, account_id, environment, manifest_date) VALUES ($1, $2::uuid, 'test', '2099-12-31')
       ON CONFLICT (account_id, environment, manifest_date) WHERE status = 'manifested' DO NOTHING`,
      [`MAN-CEILING${Date.now().toString(36).toUpperCase()}`, accountId],
    );
    const { rows } = await pool.query<{ id: string }>(
      `SELECT id FROM daily_manifests WHERE account_id = $1::uuid AND environment = 'test' AND manifest_date = '2099-12-31' AND status = 'manifested'`,
      [accountId],
    );
    const manifestId = rows[0].id;
    const template = (JSON.parse(PACKAGE_TEMPLATE) as { package: Record<string, string | number> }).package;
    const next = uniqueIds('IC');
    const insertOne = async (client: pg.PoolClient) => {
      const trackingNumber = next();
      const data = JSON.stringify({ ...template, TrackingNumber: trackingNumber });
      await client.query({
        name: 'ceiling_insert',
        text: INSERT,
        values: [
          accountId,
          manifestId,
          trackingNumber,
          new Date(String(template.ManifestDate)),
          template.ServiceName,
          template.FinalMileCarrier,
          template.ToPostalCode,
          data,
          createHash('sha256').update(data).digest('hex'),
        ],
      });
    };
    const drive = async (forMs: number) => {
      const until = Date.now() + forMs;
      let count = 0;
      await Promise.all(
        Array.from({ length: connections }, async () => {
          const client = await pool.connect();
          try {
            while (Date.now() < until) {
              await insertOne(client);
              count++;
            }
          } finally {
            client.release();
          }
        }),
      );
      return count;
    };
    await drive((options.warmupSeconds ?? 3) * 1000);
    const postgresBefore = postgresCpu();
    const clientBefore = cpuSeconds(process.pid);
    const started = performance.now();
    const inserts = await drive(seconds * 1000);
    const elapsed = (performance.now() - started) / 1000;
    const perInsert = (cpu: number) => Math.round((cpu / Math.max(inserts, 1)) * 1e6);
    return {
      inserts,
      perSecond: inserts / elapsed,
      seconds: elapsed,
      cpuUs: { postgres: perInsert(postgresCpuSince(postgresBefore)), client: perInsert(cpuSeconds(process.pid) - clientBefore) },
    };
  } finally {
    await pool.end();
  }
}

/**
 * The package benchmark's second row (bench/run.ts): its packages a second against this ceiling, measured right after
 * it on the same database. Goal: at least 40 %, a package costing at most 2.5 bare inserts.
 */
export async function insertCeilingRow<M extends { rps: number }>(options: {
  databaseUrl: string;
  accountId: string;
  connections: number;
  seconds: number;
  /** The package benchmark's measurement of the production server. */
  packages: M;
}) {
  const ceiling = await measureInsertCeiling(options);
  const share = options.packages.rps / ceiling.perSecond;
  return {
    name: 'Package manifest against the database’s ceiling',
    load: `${options.connections} connections, ${options.seconds} s`,
    subject: options.packages,
    baselineName:
      `bare node-postgres one-row INSERT transactions into \`packages\` (no HTTP, outbox or counters): ` +
      `${Math.round(ceiling.perSecond).toLocaleString('en-US')}/s, PostgreSQL ${ceiling.cpuUs.postgres} µs CPU per insert`,
    // Judged by `npm run bench -- --check` (bench/check.ts) like the other rows.
    guard: { key: 'package-ceiling', value: share, target: 0.4, better: 'higher' as const, unit: 'percent' as const },
    goal: '≥ 40 % of the inserts a second',
    met: share >= 0.4,
    verdict: `${(share * 100).toFixed(0)} % of the inserts a second`,
    notes: [],
  };
}
