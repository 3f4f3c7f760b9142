// npm run bench:customs-not-ready [-- --containers 200 --houses 500 --accepted 200 --rounds 9]
//
// GET /packages?customs_not_ready=<regime> across an account, and a 5,000-house container's filtered pages, read
// through the list functions themselves (lib/shipments/read.ts) in this process, on a fresh database:
//   account   --containers × --houses Berlin houses on JFK → FRA, every tenth without the consignee's name (not
//             ready for ICS2 PLACI): the first request (every container computed and stored), a warm page and
//             the pages after it, and a page after one container's header changed (that one recomputed);
//   container one 5,000-house container, every tenth not ready: a page as the filter read it before the masks were
//             stored (the container's readiness recomputed for every page, then an id condition) and as it reads now;
//   accepted  --accepted containers of --houses the same houses accepted through the API's acceptance function
//             (lib/manifests/create-container-manifest.ts, which stores the masks), then the first filtered request.
// The account's and the big container's rows are written by SQL (one statement a container), not by the API: those
// cases are about the reads.
// Database: the embedded PostgreSQL of the API tests (.data/postgres-test, EMBEDDED_PG_TEST_PORT), a database of its own.
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createDatabase, dropDatabase, ensureDatabase } from '../scripts/database.mjs';
import { migrateDeploy } from '../scripts/migrate.mjs';

const { values: args } = parseArgs({
  options: {
    containers: { type: 'string', default: '200' },
    houses: { type: 'string', default: '500' },
    accepted: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '9' },
  },
});
const CONTAINERS = Math.max(1, Number(args.containers));
const HOUSES = Math.min(5_000, Math.max(1, Number(args.houses)));
const ROUNDS = Math.max(3, Number(args.rounds));
const ACCEPTED = Math.max(0, Number(args.accepted));

const log = (message: string) => console.error(`[not-ready bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
async function timed<T>(work: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const result = await work();
  return [performance.now() - started, result];
}

const dbServer = await ensureDatabase({
  dataDir: '.data/postgres-test',
  port: Number(process.env.EMBEDDED_PG_TEST_PORT ?? 5434),
});
const dbName = `carrier_bench_not_ready_${process.pid}_${Date.now()}`;
const databaseUrl: string = await createDatabase(dbServer.url, dbName);
await migrateDeploy(databaseUrl);
process.env.DATABASE_URL = databaseUrl;
process.env.LOG_LEVEL = 'warn';
// Acceptance prices its packages, and a quote id's MAC needs a key.
process.env.WEBHOOK_SECRETS_KEY ||= randomBytes(32).toString('base64');

const { findOrCreateAccount } = await import('@/lib/accounts/create-api-token');
const { pgPool } = await import('@/lib/db');
const { queryRows, sql } = await import('@/lib/sql');
const { listPackages, listManifestPackages } = await import('@/lib/shipments/read');
const { containerReadiness, packageBatch, readinessManifest, READINESS_BATCH } = await import('@/lib/customs/get-readiness');
const { createContainerManifest } = await import('@/lib/manifests/create-container-manifest');
const { ZContainerManifestRequest } = await import('@/lib/schemas/container-manifest');

const header = (id: string) => ({
  ManifestDate: '2026-11-23T08:00:00Z',
  ServiceName: 'AirSkip',
  FromCompany: 'Acme Parcels',
  FromAddress1: '1 Industrial Way',
  FromCity: 'Newark',
  FromPostalCode: '07114',
  FromCountry: 'US',
  ContainerID: id,
  ShipmentDescription: 'Apparel',
  AWB: '00012345675',
  FlightNumber: 'LH401',
  FlightDate: '2026-11-23',
  OriginAirport: 'JFK',
  DestinationAirport: 'FRA',
});
const HOUSE = {
  PackageWeight: 2.5,
  PackageWeightUnit: 'lb',
  ToName: 'Erika Mustermann',
  ToAddress1: 'Unter den Linden 1',
  ToCity: 'Berlin',
  ToPostalCode: '10117',
  ToCountry: 'DE',
  Customs: {
    Currency: 'USD',
    Items: [{ Description: 'Cotton T-shirt', Quantity: 2, Value: '12.50', HSCode: '610910', OriginCountry: 'CN' }],
  },
};

/** One container of `houses` houses, every tenth without a consignee name, created `minutesAgo` before now. */
async function container(accountId: string, n: number, houses: number, minutesAgo: number): Promise<string> {
  const id = `MAN-BENCH-${process.pid}-${n}`;
  await pgPool().query(
    `WITH m AS (
       INSERT INTO container_manifests (id, account_id, environment, container_id, manifest_date, service_name, from_company,
                                        awb, shipment_description, package_count, header, request_hash, created_at)
       VALUES ($1, $2::uuid, 'test', $3, '2026-11-23T08:00:00Z', 'AirSkip', 'Acme Parcels', '00012345675', 'Apparel', $4,
               $5::jsonb, md5($1), now() - make_interval(mins => $6))
       RETURNING id, account_id, environment, created_at)
     INSERT INTO container_packages (manifest_id, account_id, environment, position, tracking_number, detail, service_name,
                                     manifest_date, to_postal_code, created_at)
     SELECT m.id, m.account_id, m.environment, g.n, $3 || '-' || g.n,
            $7::jsonb || jsonb_build_object('TrackingNumber', $3 || '-' || g.n, 'ToName', CASE WHEN g.n % 10 = 3 THEN '' ELSE 'Erika Mustermann' END),
            'AirSkip', '2026-11-23T08:00:00Z', '10117', m.created_at
     FROM m, generate_series(0, $4 - 1) AS g(n)`,
    [
      id,
      accountId,
      `ULD${process.pid}N${n}`,
      houses,
      JSON.stringify(header(`ULD${process.pid}N${n}`)),
      minutesAgo,
      JSON.stringify(HOUSE),
    ],
  );
  return id;
}

try {
  const wide = await findOrCreateAccount({ name: `Not-ready bench ${process.pid}` });
  const scope = { accountId: wide.id, environment: 'test' as const };
  const started = performance.now();
  const ids: string[] = [];
  for (let n = 0; n < CONTAINERS; n++) ids.push(await container(wide.id, n, HOUSES, CONTAINERS - n));
  await pgPool().query('ANALYZE');
  log(`account: ${CONTAINERS} containers × ${HOUSES} houses written in ${(performance.now() - started).toFixed(0)} ms`);

  const query = { limit: 100, customsNotReady: 'eu_ics2_placi' as const };
  const [cold, first] = await timed(() => listPackages({ ...scope, query }));
  log(`account, first request (every container computed and stored): ${cold.toFixed(0)} ms, ${first.data.length} listed`);

  const warm: number[] = [];
  for (let round = 0; round < ROUNDS; round++) warm.push((await timed(() => listPackages({ ...scope, query })))[0]);
  const deep: number[] = [];
  let cursor = first.next_cursor;
  let listed = first.data.length;
  for (let page = 0; page < 20 && cursor; page++) {
    const [ms, next] = await timed(() => listPackages({ ...scope, query: { ...query, cursor: cursor ?? undefined } }));
    deep.push(ms);
    listed += next.data.length;
    cursor = next.next_cursor;
  }
  log(`account, warm first page: median ${median(warm).toFixed(1)} ms of ${ROUNDS}`);
  log(`account, the next ${deep.length} pages: median ${median(deep).toFixed(1)} ms, max ${Math.max(...deep).toFixed(1)} ms`);
  const combined: number[] = [];
  for (let round = 0; round < ROUNDS; round++)
    combined.push((await timed(() => listPackages({ ...scope, query: { ...query, status: 'manifested' } })))[0]);
  log(`account, with status=manifested: median ${median(combined).toFixed(1)} ms`);

  const changed: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const target = ids[round % ids.length] ?? '';
    await pgPool().query(
      `UPDATE container_manifests SET header = header || jsonb_build_object('FlightNumber', 'LH40' || $2::text) WHERE id = $1`,
      [target, round % 10],
    );
    changed.push((await timed(() => listPackages({ ...scope, query })))[0]);
  }
  log(`account, a page after one container's header changed: median ${median(changed).toFixed(1)} ms`);

  const plan = await queryRows(
    pgPool(),
    sql<{ 'QUERY PLAN': string }>`EXPLAIN (ANALYZE, BUFFERS) SELECT x.id FROM container_packages x
      WHERE x.account_id = ${wide.id}::uuid AND x.environment = 'test' AND x.customs_not_ready <> 0
        AND (x.customs_not_ready & 1::smallint) <> 0 ORDER BY x.created_at DESC, x.id DESC LIMIT 101`,
  );
  log(`plan of a branch:\n${plan.map((r) => `  ${r['QUERY PLAN']}`).join('\n')}`);

  // One 5,000-house container, on an account of its own.
  const big = await findOrCreateAccount({ name: `Not-ready bench big ${process.pid}` });
  const bigScope = { accountId: big.id, environment: 'test' as const };
  const bigId = await container(big.id, 9_999, 5_000, 0);
  await pgPool().query('ANALYZE container_packages');
  const page = { limit: 100, customsNotReady: 'eu_ics2_placi' as const };
  // Before: each page read the container's 5,000 houses, applied the rules and filtered the page by the ids.
  const before: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const [ms] = await timed(async () => {
      const row = { kind: 0, id: bigId, container_id: `ULD${process.pid}N9999`, header: header(''), awb: '00012345675' };
      const packages = await queryRows(pgPool(), packageBatch(row, '-1', READINESS_BATCH));
      const masks = containerReadiness(readinessManifest(row), packages, true).masks;
      const notReady = [...masks].filter(([, mask]) => (mask & 1) !== 0).map(([id]) => id);
      await queryRows(
        pgPool(),
        sql`SELECT x.id FROM container_packages x WHERE x.manifest_id = ${bigId} AND x.position > -1
              AND x.id = ANY(${notReady}::bigint[]) ORDER BY x.position LIMIT 101`,
      );
    });
    before.push(ms);
  }
  const [firstPage, opened] = await timed(() => listManifestPackages({ ...bigScope, manifestId: bigId, ...page }));
  const after: number[] = [];
  let at = opened.next_cursor;
  let pages = 1;
  while (at) {
    const [ms, next] = await timed(() =>
      listManifestPackages({ ...bigScope, manifestId: bigId, ...page, cursor: at ?? undefined }),
    );
    after.push(ms);
    at = next.next_cursor;
    pages++;
  }
  log(`container of 5,000, a page before (recomputed each page): median ${median(before).toFixed(1)} ms of ${ROUNDS}`);
  log(
    `container of 5,000, now: first page (computed and stored once) ${firstPage.toFixed(1)} ms; the other ${after.length} pages median ${median(after).toFixed(1)} ms, max ${Math.max(...after).toFixed(1)} ms (${pages} pages of 100)`,
  );

  // Containers accepted as the API accepts them, on an account of their own: their masks are stored by the insert.
  const acceptedAccount = await findOrCreateAccount({ name: `Not-ready bench accepted ${process.pid}` });
  const acceptedScope = { accountId: acceptedAccount.id, environment: 'test' as const };
  const accepting: number[] = [];
  for (let n = 0; n < ACCEPTED; n++) {
    const uld = `ULD${process.pid}A${n}`;
    const request = ZContainerManifestRequest.parse({
      ...header(uld),
      ContainerLength: 48,
      ContainerWidth: 40,
      ContainerHeight: 36,
      ContainerDetails: Array.from({ length: HOUSES }, (_, i) => ({
        ...HOUSE,
        TrackingNumber: `${uld}-${i}`,
        ToName: i % 10 === 3 ? '' : HOUSE.ToName,
      })),
    });
    accepting.push((await timed(() => createContainerManifest({ ...acceptedScope, request })))[0]);
  }
  const stale = await queryRows(
    pgPool(),
    sql<{ n: number }>`SELECT count(*)::int AS n FROM container_manifests
      WHERE account_id = ${acceptedAccount.id}::uuid AND customs_checked_version <> customs_version`,
  );
  const [acceptedFirst, acceptedPage] = ACCEPTED
    ? await timed(() => listPackages({ ...acceptedScope, query }))
    : [NaN, { data: [] }];
  const acceptedWarm: number[] = [];
  for (let round = 0; ACCEPTED && round < ROUNDS; round++)
    acceptedWarm.push((await timed(() => listPackages({ ...acceptedScope, query })))[0]);
  log(
    `accepted: ${ACCEPTED} containers × ${HOUSES} houses through createContainerManifest, median ${median(accepting).toFixed(1)} ms each; stale after: ${stale[0]?.n}`,
  );
  log(
    `accepted, first request: ${acceptedFirst.toFixed(1)} ms (${acceptedPage.data.length} listed); warm: median ${median(acceptedWarm).toFixed(1)} ms`,
  );
  console.log(
    JSON.stringify({
      containers: CONTAINERS,
      houses: HOUSES,
      listed_first_21_pages: listed,
      account_first_request_ms: Math.round(cold),
      account_warm_page_ms: +median(warm).toFixed(1),
      account_next_pages_ms: +median(deep).toFixed(1),
      account_with_status_ms: +median(combined).toFixed(1),
      account_after_one_change_ms: +median(changed).toFixed(1),
      container_page_before_ms: +median(before).toFixed(1),
      container_first_page_now_ms: +firstPage.toFixed(1),
      container_page_now_ms: +median(after).toFixed(1),
      accepted_containers: ACCEPTED,
      accepted_container_ms: +median(accepting).toFixed(1),
      accepted_stale: stale[0]?.n,
      accepted_first_request_ms: +acceptedFirst.toFixed(1),
      accepted_warm_page_ms: +median(acceptedWarm).toFixed(1),
    }),
  );
} finally {
  await pgPool().end();
  await dropDatabase(dbServer.url, dbName);
  await dbServer.stop();
}
