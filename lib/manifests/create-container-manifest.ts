import 'server-only';
import { canonicalHash } from '@/lib/canonical-hash';
import { db, pgPool, pgTransaction } from '@/lib/db';
import { execute, queryRows, sql } from '@/lib/sql';
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
 * Stores a container manifest and its packages in one transaction. The ContainerID is the
 * idempotency key: an identical resend returns the stored ManifestID, a different body is a 409.
 */
export async function createContainerManifest(options: {
  accountId: string;
  environment: Environment;
  request: TContainerManifestRequest;
}): Promise<CreateContainerManifestResult> {
  const { accountId, environment, request } = options;
  const { header, packages } = request;
  const requestHash = canonicalHash(request);

  const existing = await findExisting(accountId, environment, request, requestHash);
  if (existing) return existing;
  try {
    await assertTrackingNumbersFree(accountId, environment, request);
  } catch (error) {
    // An identical request may have committed between the two checks: its own tracking numbers
    // are then "taken", and the right answer is its ManifestID, not a conflict.
    const raced = await findExisting(accountId, environment, request, requestHash);
    if (raced) return raced;
    throw error;
  }

  const manifestId = newManifestId();
  const defaulted = header.ManifestDate === undefined;
  // Plain SQL (lib/sql.ts) on a pooled connection: the packages go in as one multi-row insert from arrays
  // (unnest), where Prisma's createMany spent seconds per thousand rows building its query.
  try {
    await pgTransaction(async (client) => {
      const manifestDate = header.ManifestDate === undefined ? new Date() : new Date(header.ManifestDate.instant);
      const headerJson = JSON.stringify({ ...header, ManifestDate: header.ManifestDate?.instant });
      await execute(
        client,
        sql`
          INSERT INTO container_manifests (id, account_id, environment, container_id, manifest_date, manifest_date_defaulted,
                                           service_name, from_company, awb, shipment_description, package_count, header, request_hash)
          VALUES (${manifestId}, ${accountId}::uuid, ${environment}::"Environment", ${header.ContainerID}, ${manifestDate}, ${defaulted},
                  ${header.ServiceName}, ${header.FromCompany}, ${header.AWB ?? null}, ${header.ShipmentDescription}, ${packages.length},
                  ${headerJson}::jsonb, ${requestHash})`,
      );
      // The dashboard's rollup, in the same transaction, in one of the day's shards (lib/manifests/counters.ts).
      await execute(
        client,
        sql`
          INSERT INTO activity_days AS a (account_id, environment, day, shard, container_manifests)
          VALUES (${accountId}::uuid, ${environment}::"Environment", (now() AT TIME ZONE 'UTC')::date, ${COUNTER_SHARD}, 1)
          ON CONFLICT (account_id, environment, day, shard) DO UPDATE SET container_manifests = a.container_manifests + 1`,
      );
      if (packages.length > 0) {
        await execute(
          client,
          sql`
            INSERT INTO container_packages (manifest_id, account_id, environment, position, tracking_number, detail)
            SELECT ${manifestId}, ${accountId}::uuid, ${environment}::"Environment", p.position, p.tracking_number, p.detail
            FROM unnest(${packages.map((_, position) => position)}::int[], ${packages.map((detail) => detail.TrackingNumber ?? null)}::text[],
                        ${packages.map((detail) => JSON.stringify(detail))}::jsonb[]) AS p(position, tracking_number, detail)`,
        );
      }
    });
  } catch (error) {
    // A concurrent request won a unique key: answer as if it had arrived first.
    if ((error as { code?: unknown }).code === UNIQUE_VIOLATION) {
      const raced = await findExisting(accountId, environment, request, requestHash);
      if (raced) return raced;
      await assertTrackingNumbersFree(accountId, environment, request);
    }
    throw error;
  }
  return { manifestId, created: true, packageCount: packages.length };
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
