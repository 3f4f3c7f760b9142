// The scale benchmark's data: N packages across A accounts, BIG of them in account 0, written with SQL
// generate_series in the app's own row format (the JSON `data` and `detail` columns as the API stores
// them, daily manifests with their counters, container manifests with their packages, and for the big
// account a webhook endpoint with the last 30 days of events, deliveries and attempts). Kept between
// runs in database `carrier_scale_<N>` of the bench's PostgreSQL, recognised by its marker row;
// `--scale-reload` loads it again. Carrier barcodes and house waybills are the columns' defaults (the migrations' keyed
// permutations, as the API's inserts draw them), so they are present and unique; container packages carry the
// service, manifest date and destination postal code columns the API writes beside `detail` (the public lookup by
// tracking number and postal code reads that column).
//
// Time: rows are written day by day, oldest first, every account's rows of a day together (so an
// account's rows are spread over the heap as real arrivals would be, not packed), with the secondary
// indexes dropped during the load and rebuilt after it from the migrations' own definitions.
import pg from 'pg';
import { createDatabase, databaseUrl } from '../scripts/database.mjs';
import { migrateDeploy } from '../scripts/migrate.mjs';
import { seedRateCards } from '../prisma/seed';

export interface ScaleSize {
  packages: number;
  accounts: number;
  big: number;
}

export interface ScaleData {
  url: string;
  size: ScaleSize;
  loadedNow: boolean;
  loadSeconds: number;
  /** Ids the reads are measured on. */
  bigAccountId: string;
  peakManifestId: string;
  peakPackages: number;
  someContainerId: string;
  someDailyId: string;
  someTrackingNumber: string;
  someContainerTracking: string;
  /** A live package of another account (public tracking shows live packages only): a daily one and a container's. */
  live: PublicLookup;
  liveContainer: PublicLookup;
  /** The carrier barcode of the big account's test package `someTrackingNumber` (the public test page's lookup). */
  someTestBarcode: string;
  /** Tracking numbers of the big account spread over its two years, daily and container: the portal search's. */
  searchTrackingNumbers: string[];
  endpointId: string;
  counts: Record<string, number>;
}

/** What a recipient holds: the label's carrier barcode, or its tracking number with the destination postal code. */
export interface PublicLookup {
  carrierBarcode: string;
  trackingNumber: string;
  postalCode: string;
}

/** Days of history: the big account has two years, the others one. */
const BIG_DAYS = 730;
const OTHER_DAYS = 365;
/** One day of the big account holds this many daily packages more: the export's 100,000 rows. */
const PEAK_PACKAGES = 100_000;
const PEAK_DAY = 3; // days before today
/** The big account's container per day, and the other accounts' container every 73 days. */
const BIG_CONTAINER_SIZE = 137;
const OTHER_CONTAINERS = 5;
const WEBHOOK_DAYS = 30;
export const SCALE_MARKER = 'scale_bench_marker';

const accountUuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

export function scaleDatabaseName(size: ScaleSize): string {
  return `carrier_scale_${size.packages}_${size.accounts}_${size.big}`;
}

export async function ensureScaleData(options: {
  serverUrl: string;
  size: ScaleSize;
  reload: boolean;
  log: (m: string) => void;
}): Promise<ScaleData> {
  const { serverUrl, size, log } = options;
  const name = scaleDatabaseName(size);
  const url = databaseUrl(serverUrl, name);
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  let exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
  let loaded = false;
  if (exists && !options.reload) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const marker = await client.query<{ present: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS present`, [SCALE_MARKER]);
    if (marker.rows[0]?.present) {
      const row = await client.query<{ packages: string }>(`SELECT packages FROM ${SCALE_MARKER}`);
      loaded = Number(row.rows[0]?.packages) === size.packages;
    }
    await client.end();
  }
  if (exists && !loaded) {
    log(`dropping ${name} (${options.reload ? '--scale-reload' : 'no marker: an interrupted load'})`);
    await admin.query(`DROP DATABASE ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    exists = false;
  }
  await admin.end();
  let loadSeconds = 0;
  if (!loaded) {
    await createDatabase(serverUrl, name);
    await migrateDeploy(url);
    await seedRateCards(url);
    const started = Date.now();
    await load(url, size, log);
    loadSeconds = Math.round((Date.now() - started) / 1000);
  } else {
    // New migrations since the load (another branch's columns) apply to the loaded data too.
    await migrateDeploy(url);
  }
  const data = await describe(url, size);
  return { ...data, loadedNow: !loaded, loadSeconds: loadSeconds || data.loadSeconds };
}

async function describe(url: string, size: ScaleSize): Promise<Omit<ScaleData, 'loadedNow'>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const big = accountUuid(0);
    const one = async (sql: string, values: unknown[] = []) => {
      const { rows } = await client.query<Record<string, string>>(sql, values);
      const row = rows[0];
      if (!row) throw new Error(`scale data: nothing for ${sql}`);
      return row;
    };
    const marker = await one(`SELECT load_seconds FROM ${SCALE_MARKER}`);
    // The peak day's manifest as loaded (PEAK_DAY days before the load; the day before too, for a load that crossed
    // midnight), not the largest manifest now: the acceptance runs add tens of thousands of packages a run to their
    // own day's manifest, which after a few runs outgrew the peak and became the "100,000-row" export.
    const peak = await one(
      `SELECT d.id, sum(c.packages) AS package_count FROM daily_manifests d JOIN daily_manifest_counts c ON c.manifest_id = d.id
       WHERE d.account_id = $1::uuid AND d.environment = 'test'
         AND d.manifest_date BETWEEN (SELECT (loaded_at AT TIME ZONE 'UTC')::date - $2::int - 1 FROM ${SCALE_MARKER})
                                 AND (SELECT (loaded_at AT TIME ZONE 'UTC')::date - $2::int FROM ${SCALE_MARKER})
       GROUP BY d.id ORDER BY 2 DESC LIMIT 1`,
      [big, PEAK_DAY],
    );
    const daily = await one(
      `SELECT id FROM daily_manifests WHERE account_id = $1::uuid AND environment = 'test' ORDER BY manifest_date LIMIT 1 OFFSET 100`,
      [big],
    );
    const container = await one(
      `SELECT id FROM container_manifests WHERE account_id = $1::uuid AND environment = 'test' ORDER BY created_at LIMIT 1 OFFSET 100`,
      [big],
    );
    const tracking = await one(`SELECT tracking_number, carrier_barcode FROM packages WHERE daily_manifest_id = $1 LIMIT 1`, [
      daily.id,
    ]);
    // Account 2 is live (odd accounts and account 0 are test) and has containers in its last year.
    const lookup = (row: Record<string, string>): PublicLookup => ({
      carrierBarcode: String(row.carrier_barcode),
      trackingNumber: String(row.tracking_number),
      postalCode: String(row.to_postal_code),
    });
    const live = lookup(
      await one(
        `SELECT tracking_number, carrier_barcode, to_postal_code FROM packages WHERE account_id = $1::uuid AND environment = 'live'
         ORDER BY created_at, id LIMIT 1 OFFSET 1000`,
        [accountUuid(2)],
      ),
    );
    const liveContainer = lookup(
      await one(
        `SELECT tracking_number, carrier_barcode, to_postal_code FROM container_packages WHERE account_id = $1::uuid AND environment = 'live'
         ORDER BY created_at, id LIMIT 1 OFFSET 100`,
        [accountUuid(2)],
      ),
    );
    // Twenty of the big account's numbers: sixteen daily packages, one from each of sixteen manifests spread over the
    // two years (the middle of each manifest), and four container packages.
    const searchTrackingNumbers: string[] = [];
    for (let i = 0; i < 16; i++) {
      const row = await one(
        `WITH p AS (
           SELECT tracking_number, row_number() OVER (ORDER BY id) AS n, count(*) OVER () AS total FROM packages
           WHERE daily_manifest_id = (SELECT id FROM daily_manifests WHERE account_id = $1::uuid AND environment = 'test'
                                      ORDER BY manifest_date OFFSET $2 LIMIT 1))
         SELECT tracking_number FROM p WHERE n = total / 2 + 1`,
        [big, Math.floor(((i + 0.5) * BIG_DAYS) / 16)],
      );
      searchTrackingNumbers.push(String(row.tracking_number));
    }
    for (let i = 0; i < 4; i++) {
      const row = await one(
        `SELECT tracking_number FROM container_packages WHERE manifest_id = (
           SELECT id FROM container_manifests WHERE account_id = $1::uuid AND environment = 'test' ORDER BY created_at OFFSET $2 LIMIT 1)
         ORDER BY position OFFSET 60 LIMIT 1`,
        [big, Math.floor(((i + 0.5) * BIG_DAYS) / 4)],
      );
      searchTrackingNumbers.push(String(row.tracking_number));
    }
    const containerTracking = await one(`SELECT tracking_number FROM container_packages WHERE manifest_id = $1 LIMIT 1`, [
      container.id,
    ]);
    const counts: Record<string, number> = {};
    for (const table of [
      'accounts',
      'packages',
      'container_packages',
      'daily_manifests',
      'container_manifests',
      'webhook_events',
      'webhook_messages',
      'webhook_attempts',
    ]) {
      // Planner estimates after ANALYZE: exact counts of 10 M rows take seconds.
      counts[table] = Number((await one(`SELECT reltuples::bigint AS n FROM pg_class WHERE relname = $1`, [table])).n);
    }
    counts.big_account_packages =
      Number((await one(`SELECT count(*) AS n FROM packages WHERE account_id = $1::uuid`, [big])).n) +
      Number((await one(`SELECT count(*) AS n FROM container_packages WHERE account_id = $1::uuid`, [big])).n);
    return {
      url,
      size,
      loadSeconds: Number(marker.load_seconds),
      bigAccountId: big,
      peakManifestId: String(peak.id),
      peakPackages: Number(peak.package_count),
      someContainerId: String(container.id),
      someDailyId: String(daily.id),
      someTrackingNumber: String(tracking.tracking_number),
      someContainerTracking: String(containerTracking.tracking_number),
      live,
      liveContainer,
      someTestBarcode: String(tracking.carrier_barcode),
      searchTrackingNumbers,
      endpointId: 'we_scale',
      counts,
    };
  } finally {
    await client.end();
  }
}

async function load(url: string, size: ScaleSize, log: (m: string) => void): Promise<void> {
  const started = Date.now();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // The bench's own cluster: room for a bulk load (WAL between checkpoints, sort memory for the indexes).
    await client.query(`ALTER SYSTEM SET max_wal_size = '8GB'`);
    await client.query(`SELECT pg_reload_conf()`);
    await client.query(`SET synchronous_commit = off`);
    await client.query(`SET maintenance_work_mem = '512MB'`);
    await client.query(`SET work_mem = '64MB'`);

    // Secondary indexes off during the load; rebuilt from their own definitions afterwards.
    const tables = [
      'packages',
      'container_packages',
      'daily_manifests',
      'container_manifests',
      'webhook_events',
      'webhook_messages',
      'webhook_attempts',
      'activity_days',
    ];
    const { rows: indexes } = await client.query<{ name: string; def: string }>(
      `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS def
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
       WHERE t.relname = ANY($1) AND NOT x.indisprimary AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.oid)`,
      [tables],
    );
    for (const index of indexes) await client.query(`DROP INDEX ${pg.escapeIdentifier(index.name)}`);
    // Foreign keys are checked row by row: off during the load (the rows are consistent by construction),
    // restored after it with a full validation.
    const { rows: fks } = await client.query<{ table: string; name: string; def: string }>(
      `SELECT t.relname AS table, c.conname AS name, pg_get_constraintdef(c.oid) AS def
       FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid WHERE c.contype = 'f' AND t.relname = ANY($1)`,
      [tables],
    );
    for (const fk of fks)
      await client.query(`ALTER TABLE ${pg.escapeIdentifier(fk.table)} DROP CONSTRAINT ${pg.escapeIdentifier(fk.name)}`);
    // Autovacuum would read the tables while they are written; one VACUUM at the end instead.
    for (const table of tables) await client.query(`ALTER TABLE ${pg.escapeIdentifier(table)} SET (autovacuum_enabled = false)`);

    const others = size.accounts - 1;
    const perOther = others > 0 ? Math.floor((size.packages - size.big) / others) : 0;
    const otherContainerSize = Math.max(1, Math.floor((perOther * 0.1) / OTHER_CONTAINERS));
    const otherDaily = perOther - OTHER_CONTAINERS * otherContainerSize;
    const bigContainers = BIG_DAYS * BIG_CONTAINER_SIZE;
    const bigDaily = size.big - bigContainers - PEAK_PACKAGES;
    if (bigDaily < BIG_DAYS || otherDaily < 0) throw new Error(`scale: sizes too small (${JSON.stringify(size)})`);
    log(
      `loading ${size.packages.toLocaleString('en-US')} packages: account 0 ${size.big.toLocaleString('en-US')} (${bigDaily} daily over ${BIG_DAYS} days + ${PEAK_PACKAGES} on one day + ${BIG_DAYS} containers of ${BIG_CONTAINER_SIZE}), ` +
        `${others} accounts of ${perOther} (${otherDaily} daily over ${OTHER_DAYS} days + ${OTHER_CONTAINERS} containers of ${otherContainerSize})`,
    );

    await client.query(
      `INSERT INTO accounts (id, name, created_at)
       SELECT ('00000000-0000-4000-8000-' || lpad(to_hex(a), 12, '0'))::uuid, 'Scale account ' || a, now() - interval '800 days'
       FROM generate_series(0, $1::int - 1) a`,
      [size.accounts],
    );
    await client.query(
      `INSERT INTO webhook_endpoints (id, account_id, environment, url, events, secret, updated_at)
       VALUES ('we_scale', $1::uuid, 'test', 'https://hooks.example.com/carrier', ARRAY['package.sorting'], 'whsec_' || repeat('A', 32), now())`,
      [accountUuid(0)],
    );

    // Environment per account: account 0 is test (the bench's token); the others alternate.
    const env = `(CASE WHEN a = 0 OR a % 2 = 1 THEN 'test' ELSE 'live' END)::"Environment"`;
    const uuid = `('00000000-0000-4000-8000-' || lpad(to_hex(a), 12, '0'))::uuid`;
    const manifestId = `'MAN-' || upper(substr(md5(a || '/' || d), 1, 16))`;
    const service = (i: string) => `(ARRAY['AirSkip','Carrier Express','Carrier Ground'])[1 + (${i}) % 3]`;
    const packageData = (tn: string, day: string, svc: string, i: string) => `jsonb_build_object(
        'TrackingNumber', ${tn}, 'FinalMileCarrier', 'Carrier', 'ManifestDate', to_char(${day}, 'YYYY-MM-DD"T00:00:00.000Z"'),
        'ServiceName', ${svc}, 'FromCompany', 'Maple Goods', 'FromAddress1', '100 King St W', 'FromCity', 'Toronto',
        'FromState', 'ON', 'FromPostalCode', 'M5X 1A9', 'FromCountry', 'CA', 'ToName', 'Recipient ' || ${i},
        'ToAddress1', (${i}) % 9000 + 1 || ' Main St', 'ToCity', 'Beverly Hills', 'ToState', 'CA',
        'ToPostalCode', lpad(((${i})::bigint * 7919 % 99999)::text, 5, '0'), 'ShipmentDescription', 'Books',
        'PackageSizeLength', '10', 'PackageSizeWidth', '8', 'PackageSizeHeight', '4',
        'PackageWeight', round((${i}) % 500 / 10.0 + 0.1, 1)::text, 'WeightUnit', 'kg')`;

    for (let back = BIG_DAYS - 1; back >= 0; back--) {
      const dayStarted = Date.now();
      // Per account and day: k daily packages (the big account's peak day more), at even spacing over the day.
      const { rows: before } = await client.query<{ id: string }>(`SELECT coalesce(max(id), 0) AS id FROM packages`);
      const lastId = before[0]?.id ?? '0';
      const params = [back, bigDaily, BIG_DAYS, back === PEAK_DAY ? PEAK_PACKAGES : 0, others, otherDaily, OTHER_DAYS];
      const perDay = `(CASE WHEN a = 0 THEN $2::int / $3::int + (CASE WHEN $1::int < $2::int % $3::int THEN 1 ELSE 0 END) + $4::int
                      WHEN $1::int >= $7::int THEN 0
                      ELSE $6::int / $7::int + (CASE WHEN $1::int < $6::int % $7::int THEN 1 ELSE 0 END) END)`;
      await client.query(
        `WITH accts AS (
           SELECT a, ${perDay} AS k, ((now() AT TIME ZONE 'UTC')::date - $1::int) AS d FROM generate_series(0, $5::int) a
         ), m AS (
           INSERT INTO daily_manifests (id, account_id, environment, manifest_date, created_at, status_updated_at, services)
           SELECT ${manifestId}, ${uuid}, ${env}, d, d::timestamp AT TIME ZONE 'UTC', d::timestamp AT TIME ZONE 'UTC',
                  CASE WHEN k >= 3 THEN ARRAY['AirSkip','Carrier Express','Carrier Ground'] ELSE (ARRAY['AirSkip','Carrier Express','Carrier Ground'])[1:k] END
           FROM accts WHERE k > 0
         )
         INSERT INTO packages (account_id, environment, daily_manifest_id, tracking_number, manifest_date, service_name,
                               final_mile_carrier, to_postal_code, data, request_hash, created_at, status_updated_at)
         SELECT ${uuid}, ${env}, ${manifestId}, tn, d::timestamp AT TIME ZONE 'UTC', ${service('i')}, 'Carrier',
                lpad((i::bigint * 7919 % 99999)::text, 5, '0'), ${packageData('tn', 'd', service('i'), 'i')},
                md5(tn) || md5(tn || 'x'),
                (d::timestamp AT TIME ZONE 'UTC') + (i::bigint * 86400000 / k) * interval '1 millisecond',
                (d::timestamp AT TIME ZONE 'UTC') + (i::bigint * 86400000 / k) * interval '1 millisecond'
         FROM accts CROSS JOIN LATERAL generate_series(0, k - 1) i
         CROSS JOIN LATERAL (SELECT '1Z' || lpad(to_hex(a), 4, '0') || to_char(d, 'YYYYMMDD') || lpad(i::text, 6, '0') AS tn) t
         WHERE k > 0
         ORDER BY i, a`,
        params,
      );
      // Containers: the big account one a day; the others every 73 days.
      await client.query(
        `WITH c AS (
           SELECT a, ((now() AT TIME ZONE 'UTC')::date - $1::int) AS d,
                  CASE WHEN a = 0 THEN $2::int ELSE $3::int END AS k
           FROM generate_series(0, $4::int) a
           WHERE a = 0 OR ($1::int < $5::int AND ($1::int + a) % ($5::int / $6::int) = 0)
         ), ids AS (
           SELECT a, d, k, 'MAN-' || upper(substr(md5('c' || a || '/' || d), 1, 16)) AS id, 'ULD-' || lpad(to_hex(a), 4, '0') || to_char(d, 'YYYYMMDD') AS container,
                  (d::timestamp AT TIME ZONE 'UTC') + interval '10 hours' AS at
           FROM c
         ), m AS (
           INSERT INTO container_manifests (id, account_id, environment, container_id, manifest_date, manifest_date_defaulted, service_name,
                                            from_company, awb, shipment_description, package_count, header, request_hash, created_at, status_updated_at)
           SELECT id, ${uuid}, ${env}, container, at, false, 'AirSkip', 'Acme Parcels', '00012345675', 'Apparel', k,
                  jsonb_build_object('ManifestDate', to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'ServiceName', 'AirSkip',
                    'FromCompany', 'Acme Parcels', 'ContainerID', container, 'ContainerWeight', '120.5', 'ContainerLength', '48',
                    'ContainerWidth', '40', 'ContainerHeight', '36', 'ShipmentDescription', 'Apparel', 'AWB', '00012345675'),
                  md5(id) || md5(id || 'x'), at, at
           FROM ids
         )
         INSERT INTO container_packages (manifest_id, account_id, environment, position, tracking_number, created_at, status_updated_at,
                                         service_name, manifest_date, to_postal_code, detail)
         SELECT id, ${uuid}, ${env}, p, container || '-' || lpad(p::text, 5, '0'), at, at, 'AirSkip', at, '94105',
                jsonb_build_object('TrackingNumber', container || '-' || lpad(p::text, 5, '0'), 'PackageWeight', '2.5',
                  'PackageWeightUnit', 'lb', 'PackageSizeLength', '12', 'PackageSizeWidth', '9', 'PackageSizeHeight', '4',
                  'ToName', 'Recipient ' || p, 'ToAddress1', p || ' Market St', 'ToCity', 'San Francisco', 'ToState', 'CA',
                  'ToPostalCode', '94105', 'ToCountry', 'US')
         FROM ids CROSS JOIN LATERAL generate_series(0, k - 1) p`,
        [back, BIG_CONTAINER_SIZE, otherContainerSize, others, OTHER_DAYS, OTHER_CONTAINERS],
      );
      // The big account's last 30 days: what the API wrote for each package (event, delivery) and what
      // the worker wrote (an attempt; one in twenty failed, then retried successfully).
      if (back < WEBHOOK_DAYS) {
        await client.query(
          `WITH p AS (
             -- This day's rows (the secondary indexes are off: the primary key's range).
             SELECT id, tracking_number, daily_manifest_id, created_at FROM packages
             WHERE id > $2::bigint AND account_id = $1::uuid AND environment = 'test'
           ), e AS (
             INSERT INTO webhook_events (id, account_id, environment, event_type, payload, is_test, created_at)
             SELECT 'evt_s' || lpad(to_hex(id), 23, '0'), $1::uuid, 'test', 'package.sorting',
                    jsonb_build_object('manifest_id', daily_manifest_id, 'package_count', 1, 'tracking_numbers', jsonb_build_array(tracking_number)),
                    false, created_at
             FROM p
           ), msg AS (
             INSERT INTO webhook_messages (id, event_id, endpoint_id, status, attempt_count, next_attempt_at, created_at, updated_at)
             SELECT 'msg_s' || lpad(to_hex(id), 23, '0') || '1', 'evt_s' || lpad(to_hex(id), 23, '0'), 'we_scale', 'succeeded',
                    CASE WHEN id % 20 = 0 THEN 2 ELSE 1 END, created_at, created_at, created_at + interval '1 second'
             FROM p
           )
           INSERT INTO webhook_attempts (message_id, endpoint_id, attempt_number, attempted_at, status_code, duration_ms, response_body, error, success)
           SELECT 'msg_s' || lpad(to_hex(id), 23, '0') || '1', 'we_scale', n, created_at + n * interval '1 second',
                  CASE WHEN id % 20 = 0 AND n = 1 THEN 503 ELSE 200 END, 40 + id % 60,
                  CASE WHEN id % 20 = 0 AND n = 1 THEN 'Service Unavailable' ELSE '' END, NULL, NOT (id % 20 = 0 AND n = 1)
           FROM p CROSS JOIN LATERAL generate_series(1, CASE WHEN id % 20 = 0 THEN 2 ELSE 1 END) n`,
          [accountUuid(0), lastId],
        );
      }
      if (back % 50 === 0)
        log(
          `  day -${back} written (${Date.now() - dayStarted} ms for that day; ${Math.round((Date.now() - started) / 1000)} s so far)`,
        );
    }

    log(
      `rows written in ${Math.round((Date.now() - started) / 1000)} s; rebuilding ${indexes.length} indexes and ${fks.length} foreign keys`,
    );
    for (const index of indexes) {
      const t = Date.now();
      await client.query(index.def);
      log(`  ${index.name}: ${Math.round((Date.now() - t) / 1000)} s`);
    }
    for (const fk of fks)
      await client.query(`ALTER TABLE ${pg.escapeIdentifier(fk.table)} ADD CONSTRAINT ${pg.escapeIdentifier(fk.name)} ${fk.def}`);
    for (const table of tables) await client.query(`ALTER TABLE ${pg.escapeIdentifier(table)} RESET (autovacuum_enabled)`);
    // The dashboard's rollup, as the writes would have kept it (the migration's backfill ran on empty tables).
    await client.query(`
      INSERT INTO activity_days (account_id, environment, day, packages, container_manifests)
      SELECT account_id, environment, day, sum(packages)::int, sum(container_manifests)::int
      FROM (
        SELECT account_id, environment, (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS packages, 0 AS container_manifests FROM packages GROUP BY 1, 2, 3
        UNION ALL
        SELECT account_id, environment, (created_at AT TIME ZONE 'UTC')::date, 0, count(*) FROM container_manifests GROUP BY 1, 2, 3
      ) counted
      GROUP BY 1, 2, 3`);
    // And the webhook attempts' (lib/webhooks/record-attempt.ts), into the same rows.
    await client.query(`
      INSERT INTO activity_days AS d (account_id, environment, day, webhook_attempts, webhook_successes)
      SELECT e.account_id, e.environment, (a.attempted_at AT TIME ZONE 'UTC')::date, count(*)::int, count(*) FILTER (WHERE a.success)::int
      FROM webhook_attempts a JOIN webhook_endpoints e ON e.id = a.endpoint_id GROUP BY 1, 2, 3
      ON CONFLICT (account_id, environment, day, shard) DO UPDATE
      SET webhook_attempts = d.webhook_attempts + excluded.webhook_attempts, webhook_successes = d.webhook_successes + excluded.webhook_successes`);
    // The daily manifests' counters, likewise (lib/sharded-counters.ts; one shard per manifest and status).
    await client.query(`
      INSERT INTO daily_manifest_counts (manifest_id, status, shard, packages, weight_lb)
      SELECT daily_manifest_id, status, 0, count(*)::int, coalesce(sum(package_weight_lb(data->>'PackageWeight', data->>'WeightUnit')), 0)
      FROM packages GROUP BY daily_manifest_id, status`);
    log('VACUUM (ANALYZE): visibility map for index-only scans, statistics for the planner');
    for (const table of tables) await client.query(`VACUUM (ANALYZE) ${pg.escapeIdentifier(table)}`);
    await client.query(`VACUUM (ANALYZE) accounts`);
    await client.query(
      `CREATE TABLE ${SCALE_MARKER} (packages bigint NOT NULL, accounts int NOT NULL, big bigint NOT NULL, load_seconds int NOT NULL, loaded_at timestamptz NOT NULL DEFAULT now())`,
    );
    await client.query(`INSERT INTO ${SCALE_MARKER} (packages, accounts, big, load_seconds) VALUES ($1, $2, $3, $4)`, [
      size.packages,
      size.accounts,
      size.big,
      Math.round((Date.now() - started) / 1000),
    ]);
    log(`loaded in ${Math.round((Date.now() - started) / 1000)} s`);
  } finally {
    await client.end();
  }
}
