import 'server-only';
import { canonicalHash } from '@/lib/canonical-hash';
import { pgPool, pgTransaction } from '@/lib/db';
import type { Environment } from '@/lib/generated/prisma/enums';
import { AppError } from '@/lib/errors/app-error';
import { newManifestId } from '@/lib/ids';
import type { TPackage } from '@/lib/schemas/package-manifest';
import { PACKAGE_SORTING_EVENT, type TPackageSortingPayload } from '@/lib/schemas/webhooks';
import { COUNTER_SHARD } from '@/lib/sharded-counters';
import { queryRow, sql, type Queryable, type Sql } from '@/lib/sql';
import { eventOutboxCtes } from '@/lib/webhooks/enqueue-event';
import { pricePackage, type PackageToPrice } from '@/lib/billing/pricing';
import { acceptedPackageMask } from '@/lib/customs/readiness-flags';
import { quoteKeys } from '@/lib/billing/quote-keys';
import { activeRateCards } from '@/lib/rating/active-rate-cards';
import type { TCharge } from '@/lib/schemas/rate';
import type { TWarning } from '@/lib/schemas/unknown-fields';
import { wakeAfterCommit, wakeDeliveryWorkers } from '@/lib/webhooks/wake-workers';
import { insertTogether } from './insert-together';

export interface CreatePackageManifestResult {
  manifestId: string;
  created: boolean;
  /** What it was priced at (a resend's: the stored charge, as it is now). */
  charge?: TCharge;
  /** Why its QuoteID was not used, when it named one that did not hold. */
  warnings: TWarning[];
}

/** insertPackage's answer: also whether it wrote deliveries, whose workers are woken once it is committed. */
type Inserted = { manifestId: string; created: boolean; delivered?: boolean; charge?: TCharge | null };

/** After the commit: the statement turned the in-transaction wake-up off (lib/webhooks/wake-workers.ts). */
function committed(result: Inserted, priced: Pricing): CreatePackageManifestResult {
  if (result.delivered) wakeDeliveryWorkers();
  if (!result.created) return { manifestId: result.manifestId, created: false, charge: result.charge ?? undefined, warnings: [] };
  return { manifestId: result.manifestId, created: true, charge: priced.charge, warnings: priced.warnings };
}

interface Pricing {
  charge: TCharge;
  warnings: TWarning[];
}

/** What pricing reads of a package (also the package benchmark's baseline, which prices the same way). */
export function packageToPrice(pkg: TPackage): PackageToPrice {
  return {
    service: pkg.ServiceName,
    manifestDate: new Date(pkg.ManifestDate.instant),
    weight: pkg.PackageWeight,
    weightUnit: pkg.WeightUnit,
    length: pkg.PackageSizeLength,
    width: pkg.PackageSizeWidth,
    height: pkg.PackageSizeHeight,
    fromPostal: pkg.FromPostalCode,
    toPostal: pkg.ToPostalCode,
    quoteId: pkg.QuoteID,
  };
}

/**
 * The package's charge, worked out before the insert that stores it (docs/decisions/money.md): the cards are in memory
 * (rate-card-cache.ts) and a quote id is checked by its MAC, so pricing adds no round trip.
 */
async function pricing(accountId: string, environment: Environment, pkg: TPackage): Promise<Pricing> {
  const { charge, quoteProblem } = pricePackage(
    { cards: await activeRateCards.get(), keys: quoteKeys(), accountId, environment, now: new Date() },
    packageToPrice(pkg),
  );
  return { charge, warnings: quoteProblem ? [{ path: 'package.QuoteID', message: quoteProblem }] : [] };
}

/**
 * Adds one package to the account's manifest for its ManifestDate and, in the same transaction,
 * writes the package-sorting notification (the outbox) with one delivery per subscribed endpoint.
 * An accepted package therefore always has its notification, even if the process dies right after.
 * The TrackingNumber is the idempotency key: an identical resend changes and notifies nothing.
 */
export async function createPackageManifest(options: {
  accountId: string;
  environment: Environment;
  pkg: TPackage;
}): Promise<CreatePackageManifestResult> {
  const { accountId, environment, pkg } = options;
  const requestHash = canonicalHash(pkg);
  const day = pkg.ManifestDate.day;
  // The hot path is plain SQL (lib/sql.ts) on the pg pool (Prisma's interactive transaction costs more than these
  // statements do). Usually the day's manifest exists and its id is remembered
  // (daily manifests are never deleted): then the package, its event and its deliveries are one
  // statement, atomic by itself, and the request one round trip. The day's first package makes the
  // manifest in a transaction with it, so that a refused package leaves no empty manifest behind.
  const key = `${accountId}|${environment}|${day}`;
  const priced = await pricing(accountId, environment, pkg);
  // A remembered id may name a manifest that was closed since (by another instance, or the cut-off job): the insert
  // itself refuses a manifest that is not open (insertPackage), and then the day's open manifest is looked up or
  // made. A close racing the lookup can refuse once more; a few rounds settle it (a close is rare).
  for (let attempt = 0; ; attempt++) {
    const result = await addToOpenManifest(key, { ...options, charge: priced.charge }, requestHash);
    if (result !== CLOSED) return committed(result, priced);
    manifestIds.delete(key);
    if (attempt >= 4) throw new Error(`the daily manifest for ${day} kept closing under the insert`);
  }
}

/**
 * One package inside the caller's transaction (a return, with its link: lib/returns): the day's open manifest is found
 * or made on the same client, so the package, its manifest and what the caller writes beside it commit together.
 * The caller wakes the delivery workers after its commit (wakeDeliveryWorkers).
 */
export async function createPackageIn(
  client: Queryable,
  options: { accountId: string; environment: Environment; pkg: TPackage },
): Promise<CreatePackageManifestResult & { delivered: boolean }> {
  const priced = await pricing(options.accountId, options.environment, options.pkg);
  const manifestId = await dailyManifestFor(client, options.accountId, options.environment, options.pkg.ManifestDate.day);
  const result = await insertPackage(client, manifestId, { ...options, charge: priced.charge }, canonicalHash(options.pkg));
  // A close between the lookup and the insert: rare; the caller's request fails as a conflict and may be retried.
  if (result === CLOSED)
    throw new AppError('conflict', "The day's manifest closed meanwhile; retry the request.", { retryAfterSeconds: 1 });
  return { ...committed({ ...result, delivered: false }, priced), delivered: result.delivered ?? false };
}

export type InsertOptions = { accountId: string; environment: Environment; pkg: TPackage; charge: TCharge };

async function addToOpenManifest(key: string, options: InsertOptions, requestHash: string): Promise<Inserted | typeof CLOSED> {
  const { accountId, environment, pkg } = options;
  const day = pkg.ManifestDate.day;
  const remembered = manifestIds.get(key);
  if (remembered) {
    try {
      return await insertPackage(pgPool(), remembered, options, requestHash, true);
    } catch (error) {
      // The manifest is gone after all (its account was deleted, say): forget it and look again.
      if ((error as { code?: string }).code !== FOREIGN_KEY_VIOLATION) throw error;
      manifestIds.delete(key);
    }
  }
  const existing = await queryRow(pgPool(), findDailyManifest(accountId, environment, day).prepared('package_daily_manifest'));
  if (existing) {
    remember(key, existing.id);
    return insertPackage(pgPool(), existing.id, options, requestHash, true);
  }
  let manifestId = '';
  const result = await pgTransaction(async (client) => {
    manifestId = await dailyManifestFor(client, accountId, environment, day);
    return insertPackage(client, manifestId, options, requestHash);
  });
  // Only once committed: a refused package's transaction takes its new manifest with it.
  if (result !== CLOSED) remember(key, manifestId);
  return result;
}

/** insertPackage's answer when the manifest it was given is no longer open (closed or cancelled): nothing was written. */
const CLOSED = Symbol('closed');

const FOREIGN_KEY_VIOLATION = '23503';

/**
 * Open daily manifest ids by account, environment and day. Per process; a manifest closed meanwhile (by any
 * instance) is noticed by the insert, which refuses it, and forgotten here.
 */
const manifestIds = new Map<string, string>();

function remember(key: string, manifestId: string): void {
  if (manifestIds.size >= 50_000) manifestIds.clear();
  manifestIds.set(key, manifestId);
}

function findDailyManifest(accountId: string, environment: Environment, day: string) {
  return sql<{ id: string }>`
    SELECT id FROM daily_manifests
    WHERE account_id = ${accountId}::uuid AND environment = ${environment}::"Environment" AND manifest_date = ${day}::date
      AND status = 'manifested'`;
}

/**
 * The statement that stores one package (insertPackage). Exported for the package benchmark's baseline
 * (bench/baselines/server.ts), which sends exactly this statement with bare `pg`, so that the two cannot drift apart.
 */
export function packageInsertStatement(
  manifestId: string,
  options: InsertOptions,
  requestHash: string,
): Sql<{ inserted: boolean; open: boolean; delivered: boolean }> {
  const { accountId, environment, pkg, charge } = options;
  const chargeJson = JSON.stringify(charge);
  const amount = charge.status === 'priced' ? charge.amount : null;
  const payload: TPackageSortingPayload = { manifest_id: manifestId, package_count: 1, tracking_numbers: [pkg.TrackingNumber] };
  const stored = { ...pkg, ManifestDate: pkg.ManifestDate.instant };
  const data = JSON.stringify(stored);
  // Its customs readiness, stored with it (0 when ready): the first filtered list after acceptance has nothing to compute.
  const notReady = acceptedPackageMask(stored);
  const event = { accountId, environment, eventType: PACKAGE_SORTING_EVENT, payload };
  return sql<{ inserted: boolean; open: boolean; delivered: boolean }>`
      WITH open AS (
        SELECT id FROM daily_manifests WHERE id = ${manifestId} AND status = 'manifested' FOR KEY SHARE
      ), pkg AS (
        INSERT INTO packages (account_id, environment, daily_manifest_id, tracking_number, manifest_date, service_name,
                              final_mile_carrier, to_postal_code, data, request_hash, charge, customs_not_ready)
        SELECT ${accountId}::uuid, ${environment}::"Environment", open.id, ${pkg.TrackingNumber}, ${new Date(pkg.ManifestDate.instant)},
                ${pkg.ServiceName}, ${pkg.FinalMileCarrier}, ${pkg.ToPostalCode}, ${data}::jsonb, ${requestHash}, ${chargeJson}::jsonb,
                ${notReady}::smallint
        FROM open
        ON CONFLICT (account_id, environment, lower(tracking_number)) DO NOTHING
        RETURNING id, carrier_barcode, package_weight_lb(data->>'PackageWeight', data->>'WeightUnit') AS weight_lb
      ), charged AS (
        -- Its line in the billing ledger, when priced (lib/billing; read by invoicing). No detail: the package's charge
        -- holds the card version, zone, billable weight and quote (docs/decisions/money.md, "Cost").
        INSERT INTO billing_entries (account_id, environment, kind, package_id, manifest_id, tracking_number, carrier_barcode,
                                     service, amount, currency, occurred_at)
        SELECT ${accountId}::uuid, ${environment}::"Environment", 'charge', pkg.id, ${manifestId}, ${pkg.TrackingNumber},
               pkg.carrier_barcode, ${charge.service}, ${amount}::numeric, ${charge.currency}, now()
        FROM pkg WHERE ${amount}::numeric IS NOT NULL
      ), ${eventOutboxCtes(event, { onlyIf: sql`EXISTS (SELECT 1 FROM pkg)` })}, counted AS (
        INSERT INTO daily_manifest_counts AS c (manifest_id, status, shard, packages, weight_lb)
        SELECT ${manifestId}, 'manifested', ${COUNTER_SHARD}, 1, coalesce(weight_lb, 0) FROM pkg
        ON CONFLICT (manifest_id, status, shard) DO UPDATE SET packages = c.packages + 1, weight_lb = c.weight_lb + excluded.weight_lb
      ), serviced AS (
        UPDATE daily_manifests SET services = array_append(coalesce(services, '{}'), ${pkg.ServiceName}::text)
        WHERE id = ${manifestId} AND NOT (${pkg.ServiceName}::text = ANY(coalesce(services, '{}'))) AND EXISTS (SELECT 1 FROM pkg)
      ), activity AS (
        INSERT INTO activity_days AS a (account_id, environment, day, shard, packages)
        SELECT ${accountId}::uuid, ${environment}::"Environment", (now() AT TIME ZONE 'UTC')::date, ${COUNTER_SHARD}, 1 FROM pkg
        ON CONFLICT (account_id, environment, day, shard) DO UPDATE SET packages = a.packages + 1
      )
      SELECT EXISTS (SELECT 1 FROM pkg) AS inserted, EXISTS (SELECT 1 FROM open) AS open,
             EXISTS (SELECT 1 FROM webhook_deliveries) AS delivered, ${wakeAfterCommit}`.prepared('package_insert');
}

/**
 * The package and, only if it is new, its package-sorting event and one delivery per enabled endpoint
 * subscribed to it (lib/webhooks/enqueue-event.ts, the one writer of the outbox), its manifest's counts and
 * services (what the lists and GET /manifests/{id} read) and the day's activity count (the dashboard's): one statement.
 *
 * Only into an OPEN manifest: `open` takes the manifest row FOR KEY SHARE (what the package's foreign key takes
 * anyway; concurrent inserts do not block each other) only if its status is manifested. A close locks the row
 * FOR UPDATE (lib/close-out), which conflicts: a close waits for the inserts in flight, and an insert behind a
 * close re-reads the row when the close commits, finds it closed, and writes nothing (CLOSED).
 *
 * No row here is written by every package of a manifest or a day: the counts go to one of COUNTER_SHARDS rows
 * (`counted`, `activity`), chosen by the connection's backend pid, and the manifest's row is written only when a
 * service it has not seen yet arrives (`serviced`; otherwise its WHERE is false and the row is neither written
 * nor locked). A row written here stays locked until the commit is flushed, so one row for all of a day's
 * packages made them commit one at a time (docs/decisions/reads-at-scale.md, "counters without a hot row").
 */
async function insertPackage(
  on: Queryable,
  manifestId: string,
  options: InsertOptions,
  requestHash: string,
  together = false,
): Promise<Inserted | typeof CLOSED> {
  const { accountId, environment, pkg } = options;
  const row = together
    ? await insertTogether(on, manifestId, { ...options, requestHash }, (item) =>
        packageInsertStatement(manifestId, item, item.requestHash),
      )
    : await queryRow(on, packageInsertStatement(manifestId, options, requestHash));
  if (row?.inserted) return { manifestId, created: true, delivered: row.delivered };
  // Not open: a resend of an accepted package is still answered as one (its manifest, closed or not).
  if (!row?.open) return (await findResend(on, accountId, environment, pkg, requestHash)) ?? CLOSED;
  return resolveResend(on, accountId, environment, pkg, requestHash);
}

/** The account's manifest for that day, made with its first package (inside that package's transaction). */
async function dailyManifestFor(client: Queryable, accountId: string, environment: Environment, day: string): Promise<string> {
  const created = await queryRow(
    client,
    sql<{ id: string }>`
      INSERT INTO daily_manifests (id, account_id, environment, manifest_date)
      VALUES (${newManifestId()}, ${accountId}::uuid, ${environment}::"Environment", ${day}::date)
      ON CONFLICT (account_id, environment, manifest_date) WHERE status = 'manifested' DO NOTHING
      RETURNING id`,
  );
  if (created) return created.id;
  // A separate statement: it sees a row that a concurrent transaction committed meanwhile. If that one was closed
  // in between, the insert refuses it and the caller starts over.
  const existing = await queryRow(client, findDailyManifest(accountId, environment, day));
  return existing?.id ?? '';
}

async function resolveResend(on: Queryable, accountId: string, environment: Environment, pkg: TPackage, requestHash: string) {
  const found = await findResend(on, accountId, environment, pkg, requestHash);
  if (!found) throw new Error(`package ${pkg.TrackingNumber} conflicted but is not stored`);
  return found;
}

/**
 * The stored package of this tracking number, in any case, as a resend's answer (a conflict if its body differs), or
 * undefined. A resend that spells the number in another case is the same package: its body is compared as if it
 * spelled it as stored (the stored hash is of the body as first sent).
 */
async function findResend(on: Queryable, accountId: string, environment: Environment, pkg: TPackage, requestHash: string) {
  const existing = await queryRow(
    on,
    sql<{ daily_manifest_id: string; tracking_number: string; request_hash: string; charge: TCharge | null }>`
      SELECT daily_manifest_id, tracking_number, request_hash, charge FROM packages
      WHERE account_id = ${accountId}::uuid AND environment = ${environment}::"Environment"
        AND lower(tracking_number) = lower(${pkg.TrackingNumber})`,
  );
  if (!existing) return undefined;
  const sameBody =
    existing.tracking_number === pkg.TrackingNumber
      ? existing.request_hash === requestHash
      : existing.request_hash === canonicalHash({ ...pkg, TrackingNumber: existing.tracking_number });
  if (!sameBody) {
    // Thrown inside the transaction, so a daily manifest created for this request rolls back too.
    throw new AppError(
      'conflict',
      `Package ${pkg.TrackingNumber} was already accepted${existing.tracking_number === pkg.TrackingNumber ? '' : ` as ${existing.tracking_number}`} (manifest ${existing.daily_manifest_id}) with a different body; nothing was changed.`,
      {
        details: [{ path: 'package.TrackingNumber', message: 'already accepted with different data' }],
        extra: { ManifestID: existing.daily_manifest_id },
      },
    );
  }
  return { manifestId: existing.daily_manifest_id, created: false, charge: existing.charge };
}
