import 'server-only';
import { CanonicalText, canonicalHash, canonicalJson } from '@/lib/canonical-hash';
import { db, pgPool } from '@/lib/db';
import { queryRow, queryRows, sql } from '@/lib/sql';
import type { Environment } from '@/lib/generated/prisma/enums';
import { AppError, type ErrorDetail } from '@/lib/errors/app-error';
import { newManifestId } from '@/lib/ids';
import { COUNTER_SHARD } from '@/lib/sharded-counters';
import type { TContainerManifestRequest } from '@/lib/schemas/container-manifest';
import { pricePackage } from '@/lib/billing/pricing';
import { acceptedContainerMasks } from '@/lib/customs/readiness-flags';
import { quoteKeys } from '@/lib/billing/quote-keys';
import { activeRateCards } from '@/lib/rating/active-rate-cards';
import { fixed, plus, toFixedText, ZERO } from '@/lib/rating/fixed';
import { CURRENCY, type TCharge } from '@/lib/schemas/rate';
import type { TWarning } from '@/lib/schemas/unknown-fields';

/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = '23505';

export interface CreateContainerManifestResult {
  manifestId: string;
  /** False when this was a retry of a manifest already stored with an identical body. */
  created: boolean;
  packageCount: number;
  /** The priced packages' total, and how many were priced and not. */
  charges: ChargeTotals;
  /** Why a QuoteID was not used, for the packages that named one that did not hold. */
  warnings: TWarning[];
}

export interface ChargeTotals {
  total: string;
  currency: string;
  priced: number;
  unpriced: number;
}

/** What each package costs (lib/billing/pricing.ts), before the statement that stores them; no query. */
async function priceContainer(
  accountId: string,
  environment: Environment,
  request: TContainerManifestRequest,
  manifestDate: Date,
) {
  const { header, packages } = request;
  const context = { cards: await activeRateCards.get(), keys: quoteKeys(), accountId, environment, now: new Date() };
  const warnings: TWarning[] = [];
  // A header QuoteID that does not hold says so once per reason, not once per package.
  const headerProblems = new Map<string, number[]>();
  const charges: TCharge[] = packages.map((p, index) => {
    const { charge, quoteProblem } = pricePackage(context, {
      service: header.ServiceName,
      manifestDate,
      weight: p.PackageWeight,
      weightUnit: p.PackageWeightUnit,
      length: p.PackageSizeLength,
      width: p.PackageSizeWidth,
      height: p.PackageSizeHeight,
      fromPostal: header.FromPostalCode,
      toPostal: p.ToPostalCode,
      originAirport: header.OriginAirport,
      destinationAirport: header.DestinationAirport,
      quoteId: p.QuoteID ?? header.QuoteID,
    });
    if (quoteProblem && p.QuoteID) warnings.push({ path: `ContainerDetails[${index}].QuoteID`, message: quoteProblem });
    else if (quoteProblem) headerProblems.set(quoteProblem, [...(headerProblems.get(quoteProblem) ?? []), index]);
    return charge;
  });
  for (const [message, indexes] of headerProblems) {
    const named = indexes
      .slice(0, 5)
      .map((i) => `ContainerDetails[${i}]`)
      .join(', ');
    const more = indexes.length > 5 ? ` and ${indexes.length - 5} more` : '';
    warnings.push({ path: 'QuoteID', message: `${message} (${indexes.length} package(s): ${named}${more})` });
  }
  return { charges, warnings, totals: totalsOf(charges) };
}

export function totalsOf(charges: readonly Pick<TCharge, 'status' | 'amount'>[]): ChargeTotals {
  let total = ZERO;
  let priced = 0;
  for (const c of charges) {
    if (c.status !== 'priced' || c.amount === null) continue;
    total = plus(total, fixed(c.amount));
    priced++;
  }
  return { total: toFixedText(total, 2), currency: CURRENCY, priced, unpriced: charges.length - priced };
}

/**
 * Stores a container manifest and its packages, atomically. The ContainerID is the idempotency key: an identical
 * resend returns the stored ManifestID, a different body is a 409. Tracking numbers are unique per account and
 * environment in any case (the unique index on lower(tracking_number)): one already in another container is a 409.
 */
export async function createContainerManifest(options: {
  accountId: string;
  environment: Environment;
  request: TContainerManifestRequest;
}): Promise<CreateContainerManifestResult> {
  const { accountId, environment, request } = options;
  // The packages' canonical JSON is also what is stored (jsonb keeps no key order): serialised once for both.
  const packagesJson = canonicalJson(request.packages);
  const requestHash = canonicalHash({ ...request, packages: new CanonicalText(packagesJson) });
  const manifestDate = request.header.ManifestDate === undefined ? new Date() : new Date(request.header.ManifestDate.instant);
  const priced = await priceContainer(accountId, environment, request, manifestDate);
  const chargesJson = JSON.stringify(priced.charges);
  // The row that took the ContainerID can vanish between the insert that met it and the look-up (its account was
  // deleted): one more round settles it.
  for (let attempt = 0; ; attempt++) {
    let manifestId: string;
    try {
      manifestId = await insertContainer(accountId, environment, request, requestHash, packagesJson, chargesJson, manifestDate);
    } catch (error) {
      // A tracking number another container holds (or took meanwhile): the whole statement wrote nothing.
      if ((error as { code?: unknown }).code === UNIQUE_VIOLATION) {
        const raced = await findExisting(accountId, environment, request, requestHash);
        if (raced) return raced;
        await assertTrackingNumbersFree(accountId, environment, request);
      }
      throw error;
    }
    if (manifestId) {
      const { warnings, totals } = priced;
      return { manifestId, created: true, packageCount: request.packages.length, charges: totals, warnings };
    }
    // The ContainerID is taken: this is a retry of it, or a conflict.
    const existing = await findExisting(accountId, environment, request, requestHash);
    if (existing) return existing;
    if (attempt >= 1) throw new Error(`container ${request.header.ContainerID} is taken but not stored`);
  }
}

/**
 * The container, its packages and the day's activity count, in ONE statement (atomic by itself: no transaction
 * round trips), on the happy path the request's only round trip. Nothing is looked up first: the header's unique
 * ContainerID and the packages' unique tracking numbers are the checks, and a resend or conflict is resolved after
 * (createContainerManifest). The packages travel as one JSON array, expanded by PostgreSQL, rather than as three
 * arrays of a thousand elements each that pg would escape one by one; their list columns (service, date, postal
 * code) are given, so the table's trigger does not look the manifest up again for every row.
 * Each house's customs readiness is computed here and stored with it, and the container is inserted current
 * (customs_checked_version = customs_version): the first filtered list after acceptance has nothing to recompute.
 * Resolves to the new ManifestID, or '' when the ContainerID was already taken (nothing was written).
 */
async function insertContainer(
  accountId: string,
  environment: Environment,
  request: TContainerManifestRequest,
  requestHash: string,
  packagesJson: string,
  chargesJson: string,
  manifestDate: Date,
): Promise<string> {
  const { header, packages } = request;
  const manifestId = newManifestId();
  const headerJson = JSON.stringify({ ...header, ManifestDate: header.ManifestDate?.instant });
  // The header as stored (JSON), so the rules read what a later refresh would; the details are plain JSON already.
  const masks = acceptedContainerMasks(
    {
      id: manifestId,
      containerId: header.ContainerID,
      header: JSON.parse(headerJson) as Record<string, unknown>,
      awb: header.AWB ?? null,
    },
    packages,
  );
  // One array literal, not an array pg would escape element by element. 0 for a ready house, stored as NULL: an array
  // without NULLs is indexed directly, one with them is walked from its start for every row.
  const masksLiteral = `{${masks.map((mask) => mask ?? 0).join(',')}}`;
  const row = await queryRow(
    pgPool(),
    sql<{ created: boolean }>`
      WITH manifest AS (
        INSERT INTO container_manifests (id, account_id, environment, container_id, manifest_date, manifest_date_defaulted,
                                         service_name, from_company, awb, shipment_description, package_count, header, request_hash,
                                         customs_version, customs_checked_version)
        VALUES (${manifestId}, ${accountId}::uuid, ${environment}::"Environment", ${header.ContainerID}, ${manifestDate},
                ${header.ManifestDate === undefined}, ${header.ServiceName}, ${header.FromCompany}, ${header.AWB ?? null},
                ${header.ShipmentDescription}, ${packages.length}, ${headerJson}::jsonb, ${requestHash}, 1, 1)
        ON CONFLICT (account_id, environment, container_id) DO NOTHING
        RETURNING id, account_id, environment, service_name, manifest_date
      ), charges AS MATERIALIZED (
        SELECT c.charge, c.n FROM jsonb_array_elements(${chargesJson}::jsonb) WITH ORDINALITY AS c(charge, n)
      ), stored AS (
        INSERT INTO container_packages (manifest_id, account_id, environment, position, tracking_number, detail,
                                        service_name, manifest_date, to_postal_code, charge, customs_not_ready)
        SELECT m.id, m.account_id, m.environment, (p.n - 1)::int, p.detail->>'TrackingNumber', p.detail,
               m.service_name, m.manifest_date, NULLIF(p.detail->>'ToPostalCode', ''), c.charge,
               NULLIF((${masksLiteral}::smallint[])[p.n::int], 0)
        FROM manifest m, jsonb_array_elements(${packagesJson}::jsonb) WITH ORDINALITY AS p(detail, n)
        JOIN charges c ON c.n = p.n
        RETURNING id, manifest_id, account_id, environment, tracking_number, carrier_barcode, charge
      ), charged AS (
        -- Each priced package's line in the billing ledger (lib/billing; read by invoicing). No detail: the package's
        -- charge holds the card version, zone, billable weight and quote (docs/decisions/money.md, "Cost").
        INSERT INTO billing_entries (account_id, environment, kind, container_package_id, manifest_id, tracking_number,
                                     carrier_barcode, service, amount, currency, occurred_at)
        SELECT s.account_id, s.environment, 'charge', s.id, s.manifest_id, s.tracking_number, s.carrier_barcode,
               s.charge->>'service', (s.charge->>'amount')::numeric, s.charge->>'currency', now()
        FROM stored s WHERE s.charge->>'status' = 'priced'
      ), activity AS (
        -- The dashboard's rollup, in one of the day's shards (lib/sharded-counters.ts).
        INSERT INTO activity_days AS a (account_id, environment, day, shard, container_manifests)
        SELECT m.account_id, m.environment, (now() AT TIME ZONE 'UTC')::date, ${COUNTER_SHARD}, 1 FROM manifest m
        ON CONFLICT (account_id, environment, day, shard) DO UPDATE SET container_manifests = a.container_manifests + 1
      )
      SELECT EXISTS (SELECT 1 FROM manifest) AS created`.prepared('container_insert'),
  );
  return row?.created ? manifestId : '';
}

async function findExisting(
  accountId: string,
  environment: Environment,
  request: TContainerManifestRequest,
  requestHash: string,
) {
  const containerId = request.header.ContainerID;
  const row = await db.containerManifest.findUnique({
    where: { accountId_environment_containerId: { accountId, environment, containerId } },
    select: { id: true, requestHash: true, packageCount: true },
  });
  if (!row) return undefined;
  if (row.requestHash !== requestHash && !(await sameButForCase(row.id, row.requestHash, request))) {
    throw new AppError(
      'conflict',
      `ContainerID ${containerId} was already manifested as ${row.id} with a different body; nothing was changed. Send a new ContainerID, or the identical body to retry safely.`,
      { details: [{ path: 'ContainerID', message: `already used by ${row.id}` }], extra: { ManifestID: row.id } },
    );
  }
  const stored = await queryRows(
    pgPool(),
    sql<{ status: TCharge['status']; amount: string | null }>`
      SELECT coalesce(charge->>'status', 'unpriced') AS status, charge->>'amount' AS amount
      FROM container_packages WHERE manifest_id = ${row.id}`,
  );
  return { manifestId: row.id, created: false, packageCount: row.packageCount, charges: totalsOf(stored), warnings: [] };
}

/**
 * Whether a resend whose hash differs from the stored one is the stored request all the same, its tracking numbers
 * spelled in another case (they are one package in any case). Only on that path: the stored numbers are read and the
 * request hashed again as if it spelled them as stored.
 */
async function sameButForCase(manifestId: string, storedHash: string, request: TContainerManifestRequest): Promise<boolean> {
  if (!request.packages.some((p) => p.TrackingNumber)) return false;
  const stored = await queryRows(
    pgPool(),
    sql<{ tracking_number: string | null }>`
      SELECT tracking_number FROM container_packages WHERE manifest_id = ${manifestId} ORDER BY position`,
  );
  if (stored.length !== request.packages.length) return false;
  let differs = false;
  const packages = request.packages.map((p, index) => {
    const storedNumber = stored[index]?.tracking_number ?? null;
    if (p.TrackingNumber === undefined || storedNumber === null || p.TrackingNumber === storedNumber) return p;
    if (p.TrackingNumber.toLowerCase() !== storedNumber.toLowerCase()) return p;
    differs = true;
    return { ...p, TrackingNumber: storedNumber };
  });
  return differs && canonicalHash({ ...request, packages }) === storedHash;
}

async function assertTrackingNumbersFree(accountId: string, environment: Environment, request: TContainerManifestRequest) {
  const numbers = request.packages.map((p) => p.TrackingNumber?.toLowerCase()).filter((n): n is string => Boolean(n));
  if (numbers.length === 0) return;
  // In any case: 1z999 is the package 1Z999 (the unique index is on lower(tracking_number)).
  const taken = await queryRows(
    pgPool(),
    sql<{ tracking_number: string; manifest_id: string }>`
      SELECT tracking_number, manifest_id FROM container_packages
      WHERE account_id = ${accountId}::uuid AND environment = ${environment}::"Environment"
        AND lower(tracking_number) = ANY(${numbers}::text[])`,
  );
  if (taken.length === 0) return;
  const owner = new Map(taken.map((t) => [t.tracking_number.toLowerCase(), t]));
  const details: ErrorDetail[] = [];
  request.packages.forEach((p, index) => {
    const found = p.TrackingNumber ? owner.get(p.TrackingNumber.toLowerCase()) : undefined;
    if (found)
      details.push({
        path: `ContainerDetails[${index}].TrackingNumber`,
        message: `${p.TrackingNumber} is already in manifest ${found.manifest_id}${found.tracking_number === p.TrackingNumber ? '' : ` (as ${found.tracking_number})`}`,
      });
  });
  throw new AppError(
    'conflict',
    `${details.length} tracking number(s) are already manifested in another container; nothing was stored.`,
    { details },
  );
}
