// npm run bench:customs [-- --rounds 15 --no-write]
//
// Customs readiness of a 5,000-package container (GET /manifests/{id}/customs, lib/customs), against its baseline
// from the same run on the same rows: reading them the way readiness reads them (the same two statements, through
// the same pool, rows parsed by pg) without the rules. Two containers, accepted through the API of the production
// server (`npm start`'s command), the rules' best and worst realistic cases:
//   complete  JFK → FRA, every house fully declared: ICS2 PLACI and ENS apply, nothing is missing;
//   gaps      YYZ → JFK, no house has a phone, an e-mail or its items' origin: ACAS and Enhanced ACAS apply, and
//             Enhanced ACAS lists 15,000 problems (3 a house).
// Measured in this process (the rules' own cost beside the read's, medians of --rounds after 3 warm-up rounds) and
// over HTTP from the production server (what a client waits for, JSON included). The goal: under 300 ms for the
// whole answer of a 5,000-package container. Appends the run to bench/RESULTS.md unless --no-write.
//
// Also the acceptance of a 5,000-package container with full customs (POST /wf/manifest over HTTP) against the same
// container without `Customs` (the baseline), alternated for --accept-rounds rounds each: the goal is < 1.5 s p50.
//
// Database: a fresh database on DATABASE_URL's server, or on the embedded PostgreSQL (.data/postgres-bench).
import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { createDatabase, dropDatabase, ensureDatabase } from '../scripts/database.mjs';
import { migrateDeploy } from '../scripts/migrate.mjs';
import { loadConditions, startAppProcess, type ServerProcess } from './support/processes';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '15' },
    packages: { type: 'string', default: '5000' },
    'accept-rounds': { type: 'string', default: '5' },
    'no-write': { type: 'boolean', default: false },
  },
});
const ROUNDS = Math.max(3, Number(args.rounds));
const PACKAGES = Math.min(5_000, Math.max(1, Number(args.packages)));
const WARM_UP = 3;
const GOAL_MS = 300;
const ACCEPT_ROUNDS = Math.max(1, Number(args['accept-rounds']));
const ACCEPT_GOAL_MS = 1_500;

const log = (message: string) => console.error(`[customs bench ${new Date().toISOString().slice(11, 19)}] ${message}`);

{
  const { buildServer, serverBuildStale } = await import('../scripts/build-server.mjs');
  if (serverBuildStale()) await buildServer();
}

const dbServer = await ensureDatabase({
  dataDir: '.data/postgres-bench',
  port: Number(process.env.EMBEDDED_PG_BENCH_PORT ?? 5435),
});
const dbName = `carrier_bench_customs_${process.pid}_${Date.now()}`;
const databaseUrl: string = await createDatabase(dbServer.url, dbName);
await migrateDeploy(databaseUrl);
process.env.DATABASE_URL = databaseUrl;
process.env.LOG_LEVEL = 'warn';

const { createApiToken, findOrCreateAccount } = await import('@/lib/accounts/create-api-token');
const { pgPool } = await import('@/lib/db');
const { queryRow, queryRows, sql } = await import('@/lib/sql');
const { getCustomsReadiness, packageBatch, READINESS_BATCH } = await import('@/lib/customs/get-readiness');

const account = await findOrCreateAccount({ name: `Customs bench ${new Date().toISOString()}` });
const { token } = await createApiToken({ accountId: account.id, environment: 'test', name: 'customs bench' });
const scope = { accountId: account.id, environment: 'test' as const };

let server: ServerProcess | undefined;
try {
  server = await startAppProcess({
    name: 'production server',
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      NODE_ENV: 'production',
      WEBHOOK_SECRETS_KEY: process.env.WEBHOOK_SECRETS_KEY || randomBytes(32).toString('base64'),
      LOG_LEVEL: 'warn',
      API_RATE_LIMIT_PER_SECOND: '1000000000',
      API_RATE_LIMIT_BURST: '1000000000',
      WEBHOOK_WORKER: 'off',
    },
    readyPath: '/version-test/api/1.1/webhooks',
  });
  const api = (path: string, init?: RequestInit) =>
    fetch(`${server?.url}/version-test/api/1.1${path}`, {
      ...init,
      headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
    });

  const ITEM = { Description: 'Cotton T-shirt', Quantity: 2, Value: '12.50', HSCode: '610910', OriginCountry: 'CN' };
  const header = (id: string, flight: Record<string, string>) => ({
    ManifestDate: '2026-11-23T08:00:00Z',
    ServiceName: 'AirSkip',
    FromCompany: 'Acme Parcels',
    FromAddress1: '1 Industrial Way',
    FromCity: 'Newark',
    FromPostalCode: '07114',
    FromCountry: 'US',
    ContainerID: id,
    ContainerLength: 48,
    ContainerWidth: 40,
    ContainerHeight: 36,
    ShipmentDescription: 'Apparel',
    AWB: '00012345675',
    FlightDate: '2026-11-23',
    ...flight,
  });
  const house = (n: number, gaps: boolean) => ({
    TrackingNumber: `CRB${gaps ? 'G' : 'C'}${process.pid}${String(n).padStart(5, '0')}`,
    PackageWeight: 2.5,
    PackageWeightUnit: 'lb',
    ToName: 'Erika Mustermann',
    ToAddress1: 'Unter den Linden 1',
    ToCity: gaps ? 'Beverly Hills' : 'Berlin',
    ToPostalCode: gaps ? '90210' : '10117',
    ToCountry: gaps ? 'US' : 'DE',
    ...(gaps ? {} : { ToPhone: '+49 30 1234567', ToEmail: 'erika@example.de' }),
    Customs: { Currency: 'USD', Items: [gaps ? { ...ITEM, OriginCountry: '' } : ITEM] },
  });
  const containers: Record<'complete' | 'gaps', string> = { complete: '', gaps: '' };
  for (const kind of ['complete', 'gaps'] as const) {
    const flight: Record<string, string> =
      kind === 'complete'
        ? { FlightNumber: 'LH401', OriginAirport: 'JFK', DestinationAirport: 'FRA' }
        : { FlightNumber: 'AC760', OriginAirport: 'YYZ', DestinationAirport: 'JFK', FromCountry: 'CA' };
    const started = performance.now();
    const answer = await api('/wf/manifest', {
      method: 'POST',
      body: JSON.stringify({
        ...header(`ULD-${kind}-${process.pid}`, flight),
        ContainerDetails: Array.from({ length: PACKAGES }, (_, n) => house(n, kind === 'gaps')),
      }),
    });
    const body = (await answer.json()) as { ManifestID?: string };
    if (answer.status !== 200 || !body.ManifestID) throw new Error(`the ${kind} container was refused: ${JSON.stringify(body)}`);
    containers[kind] = body.ManifestID;
    log(`${kind}: ${PACKAGES} packages accepted in ${(performance.now() - started).toFixed(0)} ms (${body.ManifestID})`);
  }

  // Full customs against none, alternated so that the machine's drift falls on each alike; fresh tracking numbers each time.
  const accepted: Record<'customs' | 'none', number[]> = { customs: [], none: [] };
  for (let round = 0; round < ACCEPT_ROUNDS + 1; round++) {
    for (const kind of ['customs', 'none'] as const) {
      const tag = `${kind === 'customs' ? 'A' : 'N'}${round}`;
      const details = Array.from({ length: PACKAGES }, (_, n) => {
        const { Customs, ...bare } = house(n, false);
        return { ...(kind === 'customs' ? { ...bare, Customs } : bare), TrackingNumber: `${bare.TrackingNumber}${tag}` };
      });
      const body = JSON.stringify({
        ...header(`ULD-${tag}-${process.pid}`, { FlightNumber: 'LH401', OriginAirport: 'JFK', DestinationAirport: 'FRA' }),
        ContainerDetails: details,
      });
      const started = performance.now();
      const answer = await api('/wf/manifest', { method: 'POST', body });
      const text = await answer.text();
      if (answer.status !== 200) throw new Error(`acceptance (${kind}) refused: ${text.slice(0, 300)}`);
      if (round > 0) accepted[kind].push(performance.now() - started);
    }
  }

  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? (sorted[mid] ?? NaN) : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
  };
  const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1] ?? NaN;
  async function time(fn: () => Promise<unknown>): Promise<number[]> {
    const out: number[] = [];
    for (let i = 0; i < WARM_UP + ROUNDS; i++) {
      const started = performance.now();
      await fn();
      if (i >= WARM_UP) out.push(performance.now() - started);
    }
    return out;
  }

  /** The baseline: the rows readiness reads, read the same way (the manifest, then its packages in one batch), no rules. */
  const readRows = async (manifestId: string, serialise: boolean) => {
    const manifest = await queryRow(
      pgPool(),
      sql<{ kind: number; id: string }>`SELECT 0 AS kind, id FROM container_manifests
        WHERE account_id = ${scope.accountId}::uuid AND environment = 'test' AND id = ${manifestId}`,
    );
    if (!manifest) throw new Error('no manifest');
    const rows = await queryRows(pgPool(), packageBatch(manifest, '-1', READINESS_BATCH));
    if (rows.length !== PACKAGES) throw new Error(`read ${rows.length} rows`);
    return serialise ? JSON.stringify(rows).length : rows.length;
  };

  interface Row {
    kind: string;
    rows: number[];
    rowsJson: number[];
    rules: number[];
    rulesJson: number[];
    http: number[];
    bytes: number;
    problems: number;
    listed: number;
  }
  const results: Row[] = [];
  for (const kind of ['complete', 'gaps'] as const) {
    const id = containers[kind];
    const probe = await getCustomsReadiness({ ...scope, manifestId: id });
    const problems = probe.regimes.reduce((sum, r) => sum + r.problem_count, 0);
    const listed = probe.regimes.reduce((sum, r) => sum + r.problems.length, 0);
    if (kind === 'complete' && !probe.ready) throw new Error('the complete container is not ready: the fixture is wrong');
    // Interleaved per round, so that the machine's drift falls on each alike.
    const rows = await time(() => readRows(id, false));
    const rowsJson = await time(() => readRows(id, true));
    const rules = await time(() => getCustomsReadiness({ ...scope, manifestId: id }));
    const rulesJson = await time(async () => JSON.stringify(await getCustomsReadiness({ ...scope, manifestId: id })).length);
    let bytes = 0;
    const http = await time(async () => {
      const answer = await api(`/manifests/${id}/customs`);
      const text = await answer.text();
      if (answer.status !== 200) throw new Error(`GET /manifests/${id}/customs: ${answer.status} ${text.slice(0, 200)}`);
      bytes = text.length;
    });
    results.push({ kind, rows, rowsJson, rules, rulesJson, http, bytes, problems, listed });
  }

  const f = (ms: number) => ms.toFixed(1);
  const lines = results.map(
    (r) =>
      `| ${r.kind} | ${f(median(r.rows))} | ${f(median(r.rules))} (+${f(median(r.rules) - median(r.rows))}) | ${f(median(r.rowsJson))} | ${f(median(r.rulesJson))} | ${f(median(r.http))} / ${f(p95(r.http))} | ${r.bytes < 1e6 ? `${(r.bytes / 1e3).toFixed(1)} KB` : `${(r.bytes / 1e6).toFixed(2)} MB`} | ${r.problems} (${r.listed} listed) | ${median(r.http) < GOAL_MS ? 'met' : 'missed'} |`,
  );
  const conditions = loadConditions();
  const report = [
    '',
    `## ${new Date().toISOString().slice(0, 16).replace('T', ' ')} Customs readiness, ${PACKAGES.toLocaleString('en-US')}-package containers (bench/customs-readiness.ts)`,
    '',
    `${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), ${conditions}; medians of ${ROUNDS} rounds after ${WARM_UP} warm-up rounds, ms. ` +
      'Baseline: the same rows read the same way without the rules (in this process, through the same pool). ' +
      `Goal: the answer over HTTP under ${GOAL_MS} ms.`,
    '',
    '| Container | Rows read (baseline) | Readiness (rules over it) | Rows read + JSON | Readiness + JSON | HTTP p50 / p95 | Answer | Problems | Goal |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...lines,
    '',
    `Acceptance of a ${PACKAGES.toLocaleString('en-US')}-package container over HTTP (POST /wf/manifest), medians of ${ACCEPT_ROUNDS} alternated rounds after one warm-up, ms. Goal: full customs under ${ACCEPT_GOAL_MS} ms p50.`,
    '',
    '| Container | p50 | max | Against no customs | Goal |',
    '| --- | --- | --- | --- | --- |',
    `| no Customs (baseline) | ${f(median(accepted.none))} | ${f(Math.max(...accepted.none))} | 1.00 × | |`,
    `| full Customs, every house | ${f(median(accepted.customs))} | ${f(Math.max(...accepted.customs))} | ${(median(accepted.customs) / median(accepted.none)).toFixed(2)} × | ${median(accepted.customs) < ACCEPT_GOAL_MS ? 'met' : 'missed'} |`,
    '',
  ].join('\n');
  console.log(report);
  if (!args['no-write']) appendFileSync('bench/RESULTS.md', report);
} finally {
  await server?.stop();
  await pgPool()
    .end()
    .catch(() => undefined);
  await dropDatabase(dbServer.url, dbName).catch(() => undefined);
  await dbServer.stop();
}
