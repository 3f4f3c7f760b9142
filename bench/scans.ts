// `npm run bench -- --only scans`: carrier scan ingestion (POST /version-test/api/1.1/ops/scans) against the goal's
// goal of ≥ 2,000 scans/s in batches of 500. The run's database gets PACKAGES daily packages of the bench account
// (written with SQL in the app's row format, their manifest's counter row with them); then every package is
// scanned `received`, and then `in_transit`, in batches of 500 with CONCURRENCY batches in flight, by an operations
// token. Each batch's answer is checked: every scan applied, none refused, so a fast answer that did nothing
// cannot pass.
import pg from 'pg';

const PACKAGES = 20_000;
const BATCH = 500;
const CONCURRENCY = 4;
const EVENTS = ['received', 'in_transit'] as const;

export interface ScansResult {
  packages: number;
  rounds: { event: string; scans: number; seconds: number; scansPerSecond: number; applied: number; p50: number; p95: number }[];
  met: boolean;
}

export async function runScans(options: {
  serverUrl: string;
  databaseUrl: string;
  accountId: string;
  opsToken: string;
  log: (m: string) => void;
}): Promise<ScansResult> {
  const { serverUrl, databaseUrl, accountId, opsToken, log } = options;
  const prefix = `SCN${Date.now().toString(36).toUpperCase()}`;
  const tracking = (n: number) => `${prefix}${String(n).padStart(6, '0')}`;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const manifestId = `MAN-SCANBENCH${Date.now().toString(36).toUpperCase()}`.slice(0, 24);
    // A day of its own: an account has one open daily manifest per day, and on the scale database the big account
    // already has today's (and earlier runs' days).
    const day = await client.query<{ day: string }>(
      `SELECT (COALESCE(max(manifest_date), current_date - 1) + 1)::text AS day FROM daily_manifests WHERE account_id = $1::uuid AND environment = 'test'`,
      [accountId],
    );
    const manifestDate = day.rows[0]?.day;
    await client.query(
      `INSERT INTO daily_manifests (id, account_id, environment, manifest_date) VALUES ($1, $2::uuid, 'test', $3::date)`,
      [manifestId, accountId, manifestDate],
    );
    await client.query(
      `INSERT INTO packages (account_id, environment, daily_manifest_id, tracking_number, manifest_date, service_name, final_mile_carrier,
                             to_postal_code, data, request_hash)
       SELECT $1::uuid, 'test', $2, $3 || lpad(n::text, 6, '0'), $5::date, 'AirSkip', 'Carrier', '90210',
              jsonb_build_object('TrackingNumber', $3 || lpad(n::text, 6, '0'), 'PackageWeight', 1.5, 'WeightUnit', 'lb'), 'scan-bench'
       FROM generate_series(0, $4::int - 1) n`,
      [accountId, manifestId, prefix, PACKAGES, manifestDate],
    );
    await client.query(
      `INSERT INTO daily_manifest_counts (manifest_id, status, shard, packages, weight_lb) VALUES ($1, 'manifested', 0, $2::int, $2::int * 1.5)`,
      [manifestId, PACKAGES],
    );
    await client.query('ANALYZE packages');
  } finally {
    await client.end();
  }
  log(
    `scans: ${PACKAGES.toLocaleString('en-US')} packages written; ${EVENTS.length} rounds of ${PACKAGES / BATCH} batches of ${BATCH}, ${CONCURRENCY} in flight`,
  );

  const rounds: ScansResult['rounds'] = [];
  for (const [round, event] of EVENTS.entries()) {
    const batches = Array.from({ length: PACKAGES / BATCH }, (_, b) => b);
    const occurredAt = new Date(Date.now() - (EVENTS.length - round) * 60_000).toISOString();
    const latencies: number[] = [];
    let applied = 0;
    let next = 0;
    const started = performance.now();
    const worker = async () => {
      for (let b = next++; b < batches.length; b = next++) {
        const scans = Array.from({ length: BATCH }, (_, i) => {
          const n = b * BATCH + i;
          return {
            scan_id: `${prefix}-${event}-${n}`,
            tracking_number: tracking(n),
            event,
            location: 'JFK',
            occurred_at: occurredAt,
          };
        });
        const sent = performance.now();
        const response = await fetch(`${serverUrl}/version-test/api/1.1/ops/scans`, {
          method: 'POST',
          headers: { authorization: `Token ${opsToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ scans }),
        });
        const text = await response.text();
        latencies.push(performance.now() - sent);
        if (response.status !== 200) throw new Error(`scan batch ${b} (${event}): ${response.status} ${text.slice(0, 300)}`);
        const answer = JSON.parse(text) as { applied: number; refused: number };
        if (answer.applied !== BATCH || answer.refused !== 0)
          throw new Error(`scan batch ${b} (${event}): ${text.slice(0, 300)}`);
        applied += answer.applied;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN);
    const result = {
      event,
      scans: PACKAGES,
      seconds: Math.round(seconds * 100) / 100,
      scansPerSecond: Math.round(PACKAGES / seconds),
      applied,
      p50: at(0.5),
      p95: at(0.95),
    };
    log(
      `scans: ${event}: ${result.scans} in ${result.seconds} s = ${result.scansPerSecond} scans/s (batch p50 ${result.p50} ms, p95 ${result.p95} ms), ${applied} applied`,
    );
    rounds.push(result);
  }
  return { packages: PACKAGES, rounds, met: rounds.every((r) => r.scansPerSecond >= 2000 && r.applied === r.scans) };
}
