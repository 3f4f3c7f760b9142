import 'server-only';
import { canonicalHash } from '@/lib/canonical-hash';
import type pg from 'pg';
import { pgPool, pgTransaction, type Prisma } from '@/lib/db';
import type { Environment } from '@/lib/generated/prisma/enums';
import { AppError } from '@/lib/errors/app-error';
import { newId, newManifestId } from '@/lib/ids';
import type { TPackage } from '@/lib/schemas/package-manifest';
import { PACKAGE_SORTING_EVENT } from '@/lib/schemas/webhooks';

export interface PackageSortingPayload {
  manifest_id: string;
  package_count: number;
  tracking_numbers: string[];
}

export interface CreatePackageManifestResult {
  manifestId: string;
  created: boolean;
}

type Tx = Prisma.TransactionClient;

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
  // The hot path is plain SQL on the pg pool (Prisma's interactive transaction costs more than these
  // statements do; bench/RESULTS.md). Usually the day's manifest exists and its id is remembered
  // (daily manifests are never deleted): then the package, its event and its deliveries are one
  // statement, atomic by itself, and the request one round trip. The day's first package makes the
  // manifest in a transaction with it, so that a refused package leaves no empty manifest behind.
  const key = `${accountId}|${environment}|${day}`;
  const remembered = manifestIds.get(key);
  if (remembered) {
    try {
      return await insertPackage(pgPool(), remembered, options, requestHash);
    } catch (error) {
      // The manifest is gone after all (its account was deleted, say): forget it and look again.
      if ((error as { code?: string }).code !== FOREIGN_KEY_VIOLATION) throw error;
      manifestIds.delete(key);
    }
  }
  const existing = await pgPool().query<{ id: string }>({ name: 'package_daily_manifest', text: FIND_DAILY_MANIFEST, values: [accountId, environment, day] });
  if (existing.rows[0]) {
    remember(key, existing.rows[0].id);
    return insertPackage(pgPool(), existing.rows[0].id, options, requestHash);
  }
  let manifestId = '';
  const result = await pgTransaction(async (client) => {
    manifestId = await dailyManifestFor(client, accountId, environment, day);
    return insertPackage(client, manifestId, options, requestHash);
  });
  // Only once committed: a refused package's transaction takes its new manifest with it.
  remember(key, manifestId);
  return result;
}

const FOREIGN_KEY_VIOLATION = '23503';

/** Daily manifest ids by account, environment and day. Per process; ids never change. */
const manifestIds = new Map<string, string>();

function remember(key: string, manifestId: string): void {
  if (manifestIds.size >= 50_000) manifestIds.clear();
  manifestIds.set(key, manifestId);
}

const FIND_DAILY_MANIFEST = `
  SELECT id FROM daily_manifests
  WHERE account_id = $1::uuid AND environment = $2::"Environment" AND manifest_date = $3::date`;

/**
 * The package and, only if it is new, its package-sorting event, one delivery per enabled endpoint
 * subscribed to it and its manifest's package count and services (what the portal's lists read) and the day's
 * activity count (the dashboard's): one statement. A delivery's id is its event's random part and the endpoint's
 * ordinal, so that ids need no round trip (the format of newId: prefix, then [0-9a-z]).
 */
const INSERT_PACKAGE = `
  WITH pkg AS (
    INSERT INTO packages (account_id, environment, daily_manifest_id, tracking_number, manifest_date, service_name,
                          final_mile_carrier, to_postal_code, data, request_hash)
    VALUES ($1::uuid, $2::"Environment", $3, $4, $5, $6, $7, $8, $9::jsonb, $10)
    ON CONFLICT (account_id, environment, tracking_number) DO NOTHING
    RETURNING id
  ), event AS (
    INSERT INTO webhook_events (id, account_id, environment, event_type, payload, is_test)
    SELECT $11, $1::uuid, $2::"Environment", $12, $13::jsonb, false FROM pkg
    RETURNING id
  ), messages AS (
    INSERT INTO webhook_messages (id, event_id, endpoint_id)
    SELECT 'msg_' || substr(event.id, 5) || row_number() OVER (ORDER BY e.id), event.id, e.id
    FROM event CROSS JOIN webhook_endpoints e
    WHERE e.account_id = $1::uuid AND e.environment = $2::"Environment" AND e.enabled AND $12 = ANY(e.events)
  ), counted AS (
    UPDATE daily_manifests
    SET package_count = package_count + 1,
        services = CASE WHEN $6::text = ANY(services) THEN services ELSE array_append(coalesce(services, '{}'), $6::text) END
    WHERE id = $3 AND EXISTS (SELECT 1 FROM pkg)
  ), activity AS (
    INSERT INTO activity_days (account_id, environment, day, packages)
    SELECT $1::uuid, $2::"Environment", (now() AT TIME ZONE 'UTC')::date, 1 FROM pkg
    ON CONFLICT (account_id, environment, day) DO UPDATE SET packages = activity_days.packages + 1
  )
  SELECT EXISTS (SELECT 1 FROM pkg) AS inserted`;

async function insertPackage(
  db: pg.Pool | pg.PoolClient,
  manifestId: string,
  options: { accountId: string; environment: Environment; pkg: TPackage },
  requestHash: string,
): Promise<CreatePackageManifestResult> {
  const { accountId, environment, pkg } = options;
  const payload: PackageSortingPayload = { manifest_id: manifestId, package_count: 1, tracking_numbers: [pkg.TrackingNumber] };
  const result = await db.query<{ inserted: boolean }>({
    name: 'package_insert',
    text: INSERT_PACKAGE,
    values: [
      accountId, environment, manifestId, pkg.TrackingNumber, new Date(pkg.ManifestDate.instant), pkg.ServiceName,
      pkg.FinalMileCarrier, pkg.ToPostalCode, JSON.stringify({ ...pkg, ManifestDate: pkg.ManifestDate.instant }), requestHash,
      newId('evt'), PACKAGE_SORTING_EVENT, JSON.stringify(payload),
    ],
  });
  if (result.rows[0]?.inserted) return { manifestId, created: true };
  return resolveResend(db, accountId, environment, pkg.TrackingNumber, requestHash);
}

/** The account's manifest for that day, made with its first package (inside that package's transaction). */
async function dailyManifestFor(client: pg.PoolClient, accountId: string, environment: Environment, day: string): Promise<string> {
  const created = await client.query<{ id: string }>(
    `INSERT INTO daily_manifests (id, account_id, environment, manifest_date)
     VALUES ($1, $2::uuid, $3::"Environment", $4::date)
     ON CONFLICT (account_id, environment, manifest_date) DO NOTHING
     RETURNING id`,
    [newManifestId(), accountId, environment, day],
  );
  if (created.rows[0]) return created.rows[0].id;
  // A separate statement: it sees a row that a concurrent transaction committed meanwhile.
  const existing = await client.query<{ id: string }>(FIND_DAILY_MANIFEST, [accountId, environment, day]);
  if (!existing.rows[0]) throw new Error(`daily manifest for ${day} vanished`);
  return existing.rows[0].id;
}

async function resolveResend(db: pg.Pool | pg.PoolClient, accountId: string, environment: Environment, trackingNumber: string, requestHash: string) {
  const rows = await db.query<{ daily_manifest_id: string; request_hash: string }>(
    `SELECT daily_manifest_id, request_hash FROM packages
     WHERE account_id = $1::uuid AND environment = $2::"Environment" AND tracking_number = $3`,
    [accountId, environment, trackingNumber],
  );
  const existing = rows.rows[0];
  if (!existing) throw new Error(`package ${trackingNumber} conflicted but is not stored`);
  if (existing.request_hash !== requestHash) {
    // Thrown inside the transaction, so a daily manifest created for this request rolls back too.
    throw new AppError(
      'conflict',
      `Package ${trackingNumber} was already accepted (manifest ${existing.daily_manifest_id}) with a different body; nothing was changed.`,
      { details: [{ path: 'package.TrackingNumber', message: 'already accepted with different data' }], extra: { ManifestID: existing.daily_manifest_id } },
    );
  }
  return { manifestId: existing.daily_manifest_id, created: false };
}

/** Writes an event and one pending delivery per enabled endpoint subscribed to it. */
export async function enqueueEvent(
  tx: Tx,
  event: { accountId: string; environment: Environment; eventType: string; payload: object; isTest?: boolean; endpointId?: string },
): Promise<string> {
  const eventId = newId('evt');
  await tx.$executeRaw`
    INSERT INTO webhook_events (id, account_id, environment, event_type, payload, is_test)
    VALUES (${eventId}, ${event.accountId}::uuid, ${event.environment}::"Environment", ${event.eventType},
            ${JSON.stringify(event.payload)}::jsonb, ${event.isTest ?? false})`;
  const endpoints = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM webhook_endpoints
    WHERE account_id = ${event.accountId}::uuid AND environment = ${event.environment}::"Environment"
      AND enabled AND ${event.eventType} = ANY(events)
      AND (${event.endpointId ?? null}::text IS NULL OR id = ${event.endpointId ?? null})`;
  for (const endpoint of endpoints) {
    await tx.$executeRaw`
      INSERT INTO webhook_messages (id, event_id, endpoint_id) VALUES (${newId('msg')}, ${eventId}, ${endpoint.id})`;
  }
  return eventId;
}
