// node --import tsx --import ./scripts/hooks/server-only.mjs bench/one-record.ts [--runs 5]: GET /manifests/{id}/one-record of a 5,000-package container with a customs
// declaration on every package (goal: the whole answer in under 2 s), on the production server as the API tests start
// it (dist/, a fresh database on the embedded PostgreSQL or DATABASE_URL's server). Baselines from the same run, on
// the same rows: JSON.stringify of the 5,000 packages as stored (the least any JSON answer of them costs), and the
// export built in this process from those rows (what the render thread does, without the database and HTTP).
// Prints the numbers and writes them as JSON into bench/results/ (one-record-, then the date).
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createDatabase, dropDatabase, ensureDatabase } from '../scripts/database.mjs';
import { migrateDeploy } from '../scripts/migrate.mjs';
import { childPids, startApp } from '../e2e/api/support/spawn';
import { cpuSeconds, rssMb } from './support/processes';
import { containerDetail, containerSample } from '../e2e/api/support/samples';
import { oneRecordExport } from '../lib/documents/one-record';

const { values: args } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, packages: { type: 'string', default: '5000' } },
});
const RUNS = Number(args.runs);
const PACKAGES = Number(args.packages);
const GOAL_MS = 2_000;

const CUSTOMS = {
  ContentsType: 'merchandise',
  Incoterm: 'DDP',
  Currency: 'EUR',
  ExporterEORI: 'GB123456789000',
  IOSS: 'IM2760000742',
  Items: [
    {
      Description: 'Cotton T-shirt',
      Quantity: 2,
      Value: '12.50',
      Weight: 0.4,
      WeightUnit: 'kg',
      HSCode: '610910',
      OriginCountry: 'CN',
    },
    {
      Description: 'Leather wallet',
      Quantity: 1,
      Value: '30.00',
      Weight: 0.2,
      WeightUnit: 'kg',
      HSCode: '420232',
      OriginCountry: 'IT',
    },
  ],
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const ms = (value: number) => `${value.toFixed(0)} ms`;

async function main() {
  const server = await ensureDatabase({ dataDir: '.data/postgres-test', defaultPort: 5434 });
  const name = `carrier_one_record_bench_${process.pid}`;
  const url: string = await createDatabase(server.url, name);
  process.env.DATABASE_URL = url;
  process.env.WEBHOOK_SECRETS_KEY ||= randomBytes(32).toString('base64');
  let app: Awaited<ReturnType<typeof startApp>> | undefined;
  try {
    await migrateDeploy(url);
    app = await startApp({
      name: 'one-record bench server',
      env: { DATABASE_URL: url, LOG_LEVEL: 'warn', WEBHOOK_WORKER: 'off', APP_WORKERS: '1' },
      output: 'stderr',
    });
    // The token is made in this process, through the app's own code (Prisma on the same database).
    const { createApiToken, findOrCreateAccount } = await import('../lib/accounts/create-api-token');
    const account = await findOrCreateAccount({ name: `One Record bench ${randomBytes(4).toString('hex')}` });
    const { token } = await createApiToken({ accountId: account.id, environment: 'test' });
    const auth = { authorization: `Token ${token}` };

    const body = {
      ...containerSample('AKE12345XH'),
      ULD: 'AKE12345XH',
      SealNumber: 'SEAL-1',
      FlightNumber: 'LH401',
      FlightDate: '2026-11-24',
      OriginAirport: 'JFK',
      DestinationAirport: 'FRA',
      Security: { Status: 'SPX', ScreeningMethod: 'XRY', IssuedBy: 'US/RA/0001' },
      ContainerDetails: Array.from({ length: PACKAGES }, (_, i) => ({
        ...containerDetail(`ORB${String(i).padStart(8, '0')}`),
        ToCountry: 'DE',
        Customs: CUSTOMS,
      })),
    };
    const created = await fetch(`${app.baseUrl}/version-test/api/1.1/wf/manifest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify(body),
    });
    const answer = (await created.json()) as { ManifestID?: string };
    if (created.status !== 200 || !answer.ManifestID)
      throw new Error(`container not accepted: ${created.status} ${JSON.stringify(answer).slice(0, 300)}`);
    const exportUrl = `${app.baseUrl}/version-test/api/1.1/manifests/${answer.ManifestID}/one-record`;

    // The server's CPU time (its serving thread, the render thread, every other thread of the process): on a machine
    // shared with other work, wall time says how long the answer took; CPU time what it cost, whatever the load.
    const serverPid = childPids(app.pid)[0] ?? app.pid;
    const download = async () => {
      const cpuBefore = cpuSeconds(serverPid);
      const started = performance.now();
      const response = await fetch(exportUrl, { headers: { ...auth, accept: 'application/ld+json' } });
      const firstByte = performance.now() - started;
      const bytes = new Uint8Array(await response.arrayBuffer());
      const total = performance.now() - started;
      const cpu = (cpuSeconds(serverPid) - cpuBefore) * 1000;
      if (response.status !== 200)
        throw new Error(`export answered ${response.status}: ${new TextDecoder().decode(bytes).slice(0, 300)}`);
      return { firstByte, total, cpu, bytes };
    };
    const rssBefore = rssMb(serverPid);
    const cold = await download();
    const graph = (JSON.parse(new TextDecoder().decode(cold.bytes)) as { '@graph': { '@type': string }[] })['@graph'];
    const pieces = graph.filter((node) => node['@type'] === 'cargo:Piece').length;
    if (pieces !== PACKAGES) throw new Error(`the export holds ${pieces} pieces, not ${PACKAGES}`);
    const warm = [];
    const rssAfter: number[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      warm.push(await download());
      rssAfter.push(rssMb(serverPid));
    }

    // Baselines on the same rows, as the export reads them.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const rows = await client.query<{ detail: unknown; status: string; carrier_barcode: string; house_waybill: unknown }>(
      `SELECT detail, status, carrier_barcode, house_waybill
       FROM container_packages WHERE manifest_id = $1 ORDER BY position`,
      [answer.ManifestID],
    );
    const head = await client.query<{ header: Record<string, unknown> }>(`SELECT header FROM container_manifests WHERE id = $1`, [
      answer.ManifestID,
    ]);
    await client.end();
    const list = rows.rows.map((r) => [r.detail, r.status, r.carrier_barcode, r.house_waybill]);
    const stringify: number[] = [];
    const build: number[] = [];
    const cpuOf = (start: NodeJS.CpuUsage) => {
      const used = process.cpuUsage(start);
      return (used.user + used.system) / 1000;
    };
    let stringified = 0;
    for (let i = 0; i < RUNS; i += 1) {
      let started = process.cpuUsage();
      stringified = JSON.stringify(list).length;
      stringify.push(cpuOf(started));
      started = process.cpuUsage();
      oneRecordExport(
        {
          kind: 'container',
          manifestId: answer.ManifestID,
          state: 'open',
          manifestDate: '2026-11-23',
          header: head.rows[0]?.header,
          awb: '00012345675',
          containerId: 'AKE12345XH',
          shipmentDescription: 'Apparel',
          packages: new TextEncoder().encode(JSON.stringify(list)),
          generatedAt: new Date(),
        },
        { base: exportUrl, codeLists: `${app.baseUrl}/one-record/code-lists/` },
      );
      build.push(cpuOf(started));
    }

    const result = {
      at: new Date().toISOString(),
      machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, load ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
      packages: PACKAGES,
      bytes: cold.bytes.length,
      coldMs: cold.total,
      warmMs: warm.map((w) => w.total),
      warmFirstByteMs: warm.map((w) => w.firstByte),
      warmServerCpuMs: warm.map((w) => w.cpu),
      serverRssMb: { before: rssBefore, afterEach: rssAfter },
      baselineStringifyMs: stringify,
      baselineStringifyBytes: stringified,
      inProcessBuildMs: build,
      goalMs: GOAL_MS,
    };
    const p50 = median(result.warmMs);
    console.log(
      `ONE Record export of a ${PACKAGES}-package container with customs (${(result.bytes / 1e6).toFixed(1)} MB JSON-LD)`,
    );
    console.log(`| what | median | runs |`);
    console.log(`| --- | --- | --- |`);
    console.log(`| GET /one-record, whole answer (cold: ${ms(cold.total)}) | ${ms(p50)} | ${result.warmMs.map(ms).join(', ')} |`);
    console.log(
      `| GET /one-record, first byte | ${ms(median(result.warmFirstByteMs))} | ${result.warmFirstByteMs.map(ms).join(', ')} |`,
    );
    console.log(
      `| GET /one-record, server CPU (all its threads) | ${ms(median(result.warmServerCpuMs))} | ${result.warmServerCpuMs.map(ms).join(', ')} |`,
    );
    console.log(
      `| baseline, CPU: JSON.stringify of the same rows (${(stringified / 1e6).toFixed(1)} MB) | ${ms(median(stringify))} | ${stringify.map(ms).join(', ')} |`,
    );
    console.log(
      `| CPU: the export built in this process from the same rows | ${ms(median(build))} | ${build.map(ms).join(', ')} |`,
    );
    console.log(
      `server RSS: ${rssBefore.toFixed(0)} MB before, after each export ${rssAfter.map((r) => r.toFixed(0)).join(', ')} MB`,
    );
    console.log(`goal < ${GOAL_MS} ms: ${p50 < GOAL_MS ? 'met' : 'MISSED'} (${result.machine})`);
    mkdirSync('bench/results', { recursive: true });
    const file = `bench/results/one-record-${result.at.slice(0, 19).replaceAll(':', '-')}.json`;
    writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`wrote ${file}`);
    if (p50 >= GOAL_MS) process.exitCode = 1;
  } finally {
    await app?.stop('SIGTERM');
    await dropDatabase(server.url, name).catch(() => undefined);
    await server.stop();
    const { db } = await import('../lib/db');
    await db.$disconnect().catch(() => undefined);
  }
}

await main();
