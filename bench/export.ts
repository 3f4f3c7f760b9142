// The streamed CSV exports at 100,000 rows (goal: ≥ 50,000 rows/s, server RSS growing < 50 MB):
// a database of its own, 100,000 daily packages of one account written with generate_series in the app's row
// format (the API's own JSON, as e2e/api/portal-packages.test.ts writes them), the production server as
// `npm start` runs it (needs `npm run build`), a signed-in session, then each export downloaded twice (the
// first warms the route) while the worker's RSS is sampled from /proc. Prints the numbers and appends them
// to bench/RESULTS.md.
//
//   nice -n 10 npx tsx bench/export.ts        (DATABASE_URL: any database on the PostgreSQL server to use)
import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import os from 'node:os';
import pg from 'pg';
import { createDatabase, dropDatabase } from '../scripts/database.mjs';
import { migrateDeploy } from '../scripts/migrate.mjs';
import { packageSample } from '../e2e/api/support/samples';
import { RATE_PATH } from './support/fixtures';
import { rssMb, startAppProcess } from './support/processes';

const ROWS = Number(process.env.EXPORT_ROWS ?? 100_000);
const serverUrl = process.env.DATABASE_URL ?? 'postgresql://postgres:postgres@127.0.0.1:5432/postgres';
const name = `carrier_export_bench_${process.pid}`;

async function main() {
  const url = await createDatabase(serverUrl, name);
  try {
    await migrateDeploy(url);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const accountId = randomBytes(16)
      .toString('hex')
      .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
    const manifestId = 'MAN-EXPORTBENCH';
    const secret = randomBytes(32).toString('base64url');
    const started = performance.now();
    await client.query(`INSERT INTO accounts (id, name) VALUES ($1::uuid, 'Export bench')`, [accountId]);
    const user = await client.query<{ id: string }>(
      `INSERT INTO users (id, email, password_hash) VALUES (gen_random_uuid(), 'export-bench@example.com', 'not-a-hash') RETURNING id`,
    );
    await client.query(
      `INSERT INTO memberships (id, account_id, user_id, role) VALUES (gen_random_uuid(), $1::uuid, $2::uuid, 'owner')`,
      [accountId, user.rows[0]?.id],
    );
    await client.query(
      `INSERT INTO sessions (id_hash, user_id, account_id, csrf_token, expires_at) VALUES ($1, $2::uuid, $3::uuid, $4, now() + interval '1 day')`,
      [createHash('sha256').update(secret).digest('hex'), user.rows[0]?.id, accountId, randomBytes(32).toString('base64url')],
    );
    await client.query(
      `INSERT INTO daily_manifests (id, account_id, environment, manifest_date) VALUES ($1, $2::uuid, 'test', '2026-11-23')`,
      [manifestId, accountId],
    );
    await client.query(
      `INSERT INTO packages (account_id, environment, daily_manifest_id, tracking_number, manifest_date, service_name, final_mile_carrier,
                             to_postal_code, data, request_hash, created_at)
       SELECT $1::uuid, 'test', $2, 'EXB' || lpad(n::text, 8, '0'), '2026-11-23T08:00:00Z', 'AirSkip', 'Carrier', '90210',
              jsonb_set($3::jsonb, '{TrackingNumber}', to_jsonb('EXB' || lpad(n::text, 8, '0'))), 'bench',
              now() - (n || ' milliseconds')::interval
       FROM generate_series(1, $4::int) n`,
      [accountId, manifestId, JSON.stringify(packageSample('X').package), ROWS],
    );
    await client.query('VACUUM ANALYZE packages');
    await client.end();
    console.log(`loaded ${ROWS} packages in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    if (process.env.EXPORT_LOAD_ONLY) return;

    const server = await startAppProcess({
      name: 'production server',
      env: {
        ...process.env,
        DATABASE_URL: url,
        NODE_ENV: 'production',
        WEBHOOK_SECRETS_KEY: process.env.WEBHOOK_SECRETS_KEY || randomBytes(32).toString('base64'),
        LOG_LEVEL: 'warn',
        WEBHOOK_WORKER: 'off',
      },
      readyPath: RATE_PATH,
    });
    const lines: string[] = [];
    try {
      const headers = { cookie: `carrier_session=${secret}`, 'x-carrier-environment': 'test' };
      for (const [label, path] of [
        ['packages (GET /portal-api/exports/packages, no filter)', '/portal-api/exports/packages'],
        // The "100,000 filtered rows": every one of them matches, read along the filter's own index.
        [
          'packages (GET /portal-api/exports/packages?status=manifested&service=AirSkip)',
          '/portal-api/exports/packages?status=manifested&service=AirSkip',
        ],
        ['manifest (GET /portal-api/manifests/{id}/export, daily)', `/portal-api/manifests/${manifestId}/export`],
      ] as const) {
        for (const round of ['warm-up', 'measured'] as const) {
          const before = rssMb(server.pid);
          let peak = before;
          const t0 = performance.now();
          const response = await fetch(server.url + path, { headers });
          if (response.status !== 200) throw new Error(`${path}: ${response.status} ${(await response.text()).slice(0, 300)}`);
          const reader = response.body!.getReader();
          let newlines = 0;
          let bytes = 0;
          let chunks = 0;
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            bytes += value.length;
            for (let i = value.indexOf(10); i !== -1; i = value.indexOf(10, i + 1)) newlines++;
            if (++chunks % 8 === 0) peak = Math.max(peak, rssMb(server.pid));
          }
          const seconds = (performance.now() - t0) / 1000;
          peak = Math.max(peak, rssMb(server.pid));
          // Rows: lines less the header (the bench rows hold no newline inside a cell).
          const rows = newlines - 1;
          const line = `${label}, ${round}: ${rows.toLocaleString('en-US')} rows (${(bytes / 1048576).toFixed(1)} MB) in ${seconds.toFixed(2)} s = ${Math.round(rows / seconds).toLocaleString('en-US')} rows/s; worker RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MB (+${(peak - before).toFixed(1)} MB)`;
          console.log(line);
          if (round === 'measured') lines.push(line);
        }
      }
    } finally {
      await server.stop();
    }
    const head = `\n## Export (bench/export.ts), ${new Date().toISOString()}\n\n${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), shared with other work; ${ROWS.toLocaleString('en-US')} daily packages in one account, production server (one worker), each export downloaded once to warm up, then measured. Goal ≥ 50,000 rows/s, RSS growth < 50 MB.\n\n`;
    appendFileSync(new URL('./RESULTS.md', import.meta.url), `${head}${lines.map((l) => `- ${l}`).join('\n')}\n`);
  } finally {
    if (process.env.EXPORT_KEEP_DB) console.log(`kept database ${name}`);
    else await dropDatabase(serverUrl, name);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
