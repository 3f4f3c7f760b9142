import 'server-only';
import type { Environment } from '@/lib/generated/prisma/enums';
import { newId } from '@/lib/ids';
import { PACKAGE_SORTING_EVENT } from '@/lib/schemas/webhooks';
import type { TPackage } from '@/lib/schemas/package-manifest';
import type { TCharge } from '@/lib/schemas/rate';
import { COUNTER_SHARD } from '@/lib/sharded-counters';
import { queryRow, sql, type Queryable, type Sql } from '@/lib/sql';
import { eventsOutboxCtes } from '@/lib/webhooks/enqueue-event';
import { wakeAfterCommit } from '@/lib/webhooks/wake-workers';
import { acceptedPackageMask } from '@/lib/customs/readiness-flags';
import { isDatabaseUnavailable } from '@/lib/db-errors';
import { log } from '@/lib/log';
import { logRepeated } from '@/lib/log-repeats';

// Packages of one manifest that arrive while earlier ones are still being written go to the database together: one
// statement and one commit for all of them, where each used to cost its own. What PostgreSQL spends per statement
// (planning the CTEs, the manifest's lock, three counter upserts, the commit's flush) is then paid once per batch
// (docs/decisions/acceptance-cost.md). A package that arrives alone is written alone, as before.

/** The single statement's answer for one package: stored now, its manifest was open, deliveries were written. */
export interface InsertedRow {
  inserted: boolean;
  open: boolean;
  delivered: boolean;
}

export interface PackageToInsert {
  accountId: string;
  environment: Environment;
  pkg: TPackage;
  charge: TCharge;
  requestHash: string;
}

/** Statements of one manifest in flight before arrivals wait to go together (each holds a pool connection). */
const IN_FLIGHT_PER_MANIFEST = 3;
/** The most packages one statement carries (its arrays' length; a resend of a huge backlog still goes in pieces). */
const MOST_TOGETHER = 64;

interface Waiting {
  item: PackageToInsert;
  resolve(row: InsertedRow | undefined): void;
  reject(error: unknown): void;
}

interface Lane {
  inFlight: number;
  waiting: Waiting[];
}

const lanes = new Map<string, Lane>();

/**
 * Stores a package into an open manifest, together with others of the same manifest that are waiting (see above).
 * Answers as the single statement would for it alone: a statement that fails for the batch (one package's bad
 * value, a lost connection) is tried again one package at a time, so each gets its own answer or error.
 */
export function insertTogether(
  on: Queryable,
  manifestId: string,
  item: PackageToInsert,
  single: (item: PackageToInsert) => Sql<InsertedRow>,
): Promise<InsertedRow | undefined> {
  // By account and environment too: a statement's rows all take the first one's (a manifest has one account anyway).
  const key = `${item.accountId}|${item.environment}|${manifestId}`;
  let lane = lanes.get(key);
  if (!lane) {
    lane = { inFlight: 0, waiting: [] };
    lanes.set(key, lane);
  }
  return new Promise<InsertedRow | undefined>((resolve, reject) => {
    lane.waiting.push({ item, resolve, reject });
    if (lane.inFlight < IN_FLIGHT_PER_MANIFEST) send(on, manifestId, key, lane, single);
  });
}

function send(
  on: Queryable,
  manifestId: string,
  key: string,
  lane: Lane,
  single: (item: PackageToInsert) => Sql<InsertedRow>,
): void {
  const batch = takeBatch(lane.waiting);
  if (batch.length === 0) {
    if (lane.inFlight === 0) lanes.delete(key);
    return;
  }
  lane.inFlight++;
  void write(on, manifestId, batch, single).finally(() => {
    lane.inFlight--;
    send(on, manifestId, key, lane, single);
  });
}

/**
 * The next batch, oldest first: packages whose tracking numbers differ in more than case (two spellings of one
 * number are one package, and only one of them may be inserted: the later waits for the next statement).
 */
function takeBatch(waiting: Waiting[]): Waiting[] {
  const batch: Waiting[] = [];
  const numbers = new Set<string>();
  for (let i = 0; i < waiting.length && batch.length < MOST_TOGETHER;) {
    const number = waiting[i]!.item.pkg.TrackingNumber.toLowerCase();
    if (numbers.has(number)) {
      i++;
      continue;
    }
    numbers.add(number);
    batch.push(waiting.splice(i, 1)[0]!);
  }
  return batch;
}

async function write(
  on: Queryable,
  manifestId: string,
  batch: Waiting[],
  single: (item: PackageToInsert) => Sql<InsertedRow>,
): Promise<void> {
  if (batch.length > 1) {
    try {
      const row = await queryRow(
        on,
        packagesInsertStatement(
          manifestId,
          batch.map((w) => w.item),
        ),
      );
      if (!row) throw new Error('the batch insert answered no row');
      const inserted = new Set(row.inserted);
      for (const w of batch)
        w.resolve({ inserted: inserted.has(w.item.pkg.TrackingNumber), open: row.open, delivered: row.delivered });
      return;
    } catch (error) {
      // The database is away (or the connection went, perhaps after the commit): each package fails as it would have
      // alone, and its client's retry is answered as a resend. Tried again one by one, a package stored meanwhile
      // would be answered as already accepted instead.
      if (isDatabaseUnavailable(error)) {
        for (const w of batch) w.reject(error);
        return;
      }
      // One package's value refused (nothing of the statement was written): each again on its own, for its own answer.
      logRepeated(log, 'warn', 'packages sent together were refused; writing them one at a time', error);
    }
  }
  await Promise.all(
    batch.map(async (w) => {
      try {
        w.resolve(await queryRow(on, single(w.item)));
      } catch (error) {
        w.reject(error);
      }
    }),
  );
}

/**
 * The single package statement (packageInsertStatement) for many packages of one manifest: the packages in the order
 * of their tracking numbers (two batches that share numbers take their locks in the same order, so neither waits on
 * the other in a cycle), a ledger line and a package-sorting event per package stored now, one update per counter.
 * All of one account and environment, as the manifest is.
 */
export function packagesInsertStatement(
  manifestId: string,
  items: readonly PackageToInsert[],
): Sql<{ inserted: string[]; open: boolean; delivered: boolean }> {
  const sorted = items
    .map((item) => ({ item, key: item.pkg.TrackingNumber.toLowerCase() }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ item }) => item);
  const { accountId, environment } = sorted[0]!;
  const stored = sorted.map(({ pkg }) => ({ ...pkg, ManifestDate: pkg.ManifestDate.instant }));
  const events = sorted.map(({ pkg }) => ({
    id: newId('evt'),
    accountId,
    environment,
    eventType: PACKAGE_SORTING_EVENT,
    payload: { manifest_id: manifestId, package_count: 1, tracking_numbers: [pkg.TrackingNumber] },
  }));
  return sql<{ inserted: string[]; open: boolean; delivered: boolean }>`
      WITH open AS (
        SELECT id FROM daily_manifests WHERE id = ${manifestId} AND status = 'manifested' FOR KEY SHARE
      ), input AS (
        SELECT * FROM unnest(
          ${sorted.map((i) => i.pkg.TrackingNumber)}::text[], ${sorted.map((i) => new Date(i.pkg.ManifestDate.instant).toISOString())}::timestamptz[],
          ${sorted.map((i) => i.pkg.ServiceName)}::text[], ${sorted.map((i) => i.pkg.FinalMileCarrier)}::text[],
          ${sorted.map((i) => i.pkg.ToPostalCode)}::text[], ${stored.map((s) => JSON.stringify(s))}::jsonb[],
          ${sorted.map((i) => i.requestHash)}::text[], ${sorted.map((i) => JSON.stringify(i.charge))}::jsonb[],
          ${stored.map((s) => acceptedPackageMask(s))}::smallint[],
          ${sorted.map((i) => (i.charge.status === 'priced' ? i.charge.amount : null))}::numeric[],
          ${sorted.map((i) => i.charge.service)}::text[], ${sorted.map((i) => i.charge.currency)}::text[]
        ) WITH ORDINALITY AS i(tracking_number, manifest_date, service_name, final_mile_carrier, to_postal_code, data,
                                request_hash, charge, customs_not_ready, amount, charge_service, currency, ordinal)
      ), pkg AS (
        INSERT INTO packages (account_id, environment, daily_manifest_id, tracking_number, manifest_date, service_name,
                              final_mile_carrier, to_postal_code, data, request_hash, charge, customs_not_ready)
        SELECT ${accountId}::uuid, ${environment}::"Environment", open.id, i.tracking_number, i.manifest_date, i.service_name,
               i.final_mile_carrier, i.to_postal_code, i.data, i.request_hash, i.charge, i.customs_not_ready
        FROM open, input i ORDER BY i.ordinal
        ON CONFLICT (account_id, environment, lower(tracking_number)) DO NOTHING
        RETURNING id, tracking_number, service_name, carrier_barcode,
                  package_weight_lb(data->>'PackageWeight', data->>'WeightUnit') AS weight_lb
      ), stored AS (
        SELECT pkg.*, i.ordinal, i.amount, i.charge_service, i.currency FROM pkg JOIN input i ON i.tracking_number = pkg.tracking_number
      ), charged AS (
        INSERT INTO billing_entries (account_id, environment, kind, package_id, manifest_id, tracking_number, carrier_barcode,
                                     service, amount, currency, occurred_at)
        SELECT ${accountId}::uuid, ${environment}::"Environment", 'charge', s.id, ${manifestId}, s.tracking_number,
               s.carrier_barcode, s.charge_service, s.amount, s.currency, now()
        FROM stored s WHERE s.amount IS NOT NULL ORDER BY s.ordinal
      ), ${eventsOutboxCtes(events, { onlyIf: sql`v.ordinal IN (SELECT ordinal FROM stored)` })}, counted AS (
        INSERT INTO daily_manifest_counts AS c (manifest_id, status, shard, packages, weight_lb)
        SELECT ${manifestId}, 'manifested', ${COUNTER_SHARD}, count(*), coalesce(sum(weight_lb), 0) FROM pkg HAVING count(*) > 0
        ON CONFLICT (manifest_id, status, shard)
        DO UPDATE SET packages = c.packages + excluded.packages, weight_lb = c.weight_lb + excluded.weight_lb
      ), serviced AS (
        UPDATE daily_manifests d
        SET services = coalesce(d.services, '{}') ||
                       ARRAY(SELECT DISTINCT service_name FROM pkg WHERE NOT (service_name = ANY(coalesce(d.services, '{}'))))
        WHERE d.id = ${manifestId} AND EXISTS (SELECT 1 FROM pkg WHERE NOT (service_name = ANY(coalesce(d.services, '{}'))))
      ), activity AS (
        INSERT INTO activity_days AS a (account_id, environment, day, shard, packages)
        SELECT ${accountId}::uuid, ${environment}::"Environment", (now() AT TIME ZONE 'UTC')::date, ${COUNTER_SHARD}, count(*)
        FROM pkg HAVING count(*) > 0
        ON CONFLICT (account_id, environment, day, shard) DO UPDATE SET packages = a.packages + excluded.packages
      )
      SELECT ARRAY(SELECT tracking_number FROM pkg) AS inserted, EXISTS (SELECT 1 FROM open) AS open,
             EXISTS (SELECT 1 FROM webhook_deliveries) AS delivered, ${wakeAfterCommit}`.prepared('packages_insert_together');
}
