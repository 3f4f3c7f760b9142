import 'server-only';
import { CanonicalText, canonicalHash, canonicalJson } from '@/lib/canonical-hash';
import { db, pgPool } from '@/lib/db';
import { queryRow, queryRows, sql } from '@/lib/sql';
import type { Environment } from '@/lib/generated/prisma/enums';
import { AppError, type ErrorDetail } from '@/lib/errors/app-error';
import { newManifestId } from '@/lib/ids';
import { COUNTER_SHARD } from '@/lib/manifests/counters';
import type { TContainerManifestRequest } from '@/lib/schemas/container-manifest';

/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = '23505';

export interface CreateContainerManifestResult {
  manifestId: string;
  /** False when this was a retry of a manifest already stored with an identical body. */
  created: boolean;
  packageCount: number;
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
  // The row that took the ContainerID can vanish between the insert that met it and the look-up (its account was
  // deleted): one more round settles it.
  for (let attempt = 0; ; attempt++) {
    let manifestId: string;
    try {
      manifestId = await insertContainer(accountId, environment, request, requestHash, packagesJson);
    } catch (error) {
      // A tracking number another container holds (or took meanwhile): the whole statement wrote nothing.
      if ((error as { code?: unknown }).code === UNIQUE_VIOLATION) {
        const raced = await findExisting(accountId, environment, request, requestHash);
        if (raced) return raced;
        await assertTrackingNumbersFree(accountId, environment, request);
      }
      throw error;
    }
    if (manifestId) return { manifestId, created: true, packageCount: request.packages.length };
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
 * Resolves to the new ManifestID, or '' when the ContainerID was already taken (nothing was written).
 */
async function insertContainer(
  accountId: string,
  environment: Environment,
  request: TContainerManifestRequest,
  requestHash: string,
  packagesJson: string,
): Promise<string> {
  const { header, packages } = request;
  const manifestId = newManifestId();
  const manifestDate = header.ManifestDate === undefined ? new Date() : new Date(header.ManifestDate.instant);
  const headerJson = JSON.stringify({ ...header, ManifestDate: header.ManifestDate?.instant });
  const row = await queryRow(
    pgPool(),
    sql<{ created: boolean }>`
      WITH manifest AS (
        INSERT INTO container_manifests (id, account_id, environment, container_id, manifest_date, manifest_date_defaulted,
                                         service_name, from_company, awb, shipment_description, package_count, header, request_hash)
        VALUES (${manifestId}, ${accountId}::uuid, ${environment}::"Environment", ${header.ContainerID}, ${manifestDate},
                ${header.ManifestDate === undefined}, ${header.ServiceName}, ${header.FromCompany}, ${header.AWB ?? null},
                ${header.ShipmentDescription}, ${packages.length}, ${headerJson}::jsonb, ${requestHash})
        ON CONFLICT (account_id, environment, container_id) DO NOTHING
        RETURNING id, account_id, environment, service_name, manifest_date
      ), stored AS (
        INSERT INTO container_packages (manifest_id, account_id, environment, position, tracking_number, detail,
                                        service_name, manifest_date, to_postal_code)
        SELECT m.id, m.account_id, m.environment, (p.n - 1)::int, p.detail->>'TrackingNumber', p.detail,
               m.service_name, m.manifest_date, NULLIF(p.detail->>'ToPostalCode', '')
        FROM manifest m, jsonb_array_elements(${packagesJson}::jsonb) WITH ORDINALITY AS p(detail, n)
      ), activity AS (
        -- The dashboard's rollup, in one of the day's shards (lib/manifests/counters.ts).
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
  return { manifestId: row.id, created: false, packageCount: row.packageCount };
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
