import 'server-only';
import { canonicalHash } from '@/lib/canonical-hash';
import { db, Prisma } from '@/lib/db';
import type { Environment } from '@/lib/generated/prisma/enums';
import { ApiError, type ErrorDetail } from '@/lib/http/errors';
import { newManifestId } from '@/lib/ids';
import type { TContainerManifestRequest } from '@/lib/schemas/container-manifest';

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

  const existing = await findExisting(accountId, environment, header.ContainerID, requestHash);
  if (existing) return existing;
  await assertTrackingNumbersFree(accountId, environment, request);

  const manifestId = newManifestId();
  const defaulted = header.ManifestDate === undefined;
  try {
    await db.$transaction(async (tx) => {
      await tx.containerManifest.create({
        data: {
          id: manifestId,
          accountId,
          environment,
          containerId: header.ContainerID,
          manifestDate: defaulted ? new Date() : new Date(header.ManifestDate!.instant),
          manifestDateDefaulted: defaulted,
          serviceName: header.ServiceName,
          fromCompany: header.FromCompany,
          awb: header.AWB ?? null,
          shipmentDescription: header.ShipmentDescription,
          packageCount: packages.length,
          header: toJson({ ...header, ManifestDate: header.ManifestDate?.instant }),
          requestHash,
        },
      });
      if (packages.length > 0) {
        await tx.containerPackage.createMany({
          data: packages.map((detail, position) => ({
            manifestId,
            accountId,
            environment,
            position,
            trackingNumber: detail.TrackingNumber ?? null,
            detail: toJson(detail),
          })),
        });
      }
    });
  } catch (error) {
    // A concurrent request won a unique key: answer as if it had arrived first.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      const raced = await findExisting(accountId, environment, header.ContainerID, requestHash);
      if (raced) return raced;
      await assertTrackingNumbersFree(accountId, environment, request);
    }
    throw error;
  }
  return { manifestId, created: true, packageCount: packages.length };
}

async function findExisting(accountId: string, environment: Environment, containerId: string, requestHash: string) {
  const row = await db.containerManifest.findUnique({
    where: { accountId_environment_containerId: { accountId, environment, containerId } },
    select: { id: true, requestHash: true, packageCount: true },
  });
  if (!row) return undefined;
  if (row.requestHash !== requestHash) {
    throw new ApiError(
      'conflict',
      `ContainerID ${containerId} was already manifested as ${row.id} with a different body; nothing was changed. Send a new ContainerID, or the identical body to retry safely.`,
      { details: [{ path: 'ContainerID', message: `already used by ${row.id}` }], extra: { ManifestID: row.id } },
    );
  }
  return { manifestId: row.id, created: false, packageCount: row.packageCount };
}

async function assertTrackingNumbersFree(accountId: string, environment: Environment, request: TContainerManifestRequest) {
  const numbers = request.packages.map((p) => p.TrackingNumber).filter((n): n is string => Boolean(n));
  if (numbers.length === 0) return;
  const taken = await db.containerPackage.findMany({
    where: { accountId, environment, trackingNumber: { in: numbers } },
    select: { trackingNumber: true, manifestId: true },
  });
  if (taken.length === 0) return;
  const owner = new Map(taken.map((t) => [t.trackingNumber!, t.manifestId]));
  const details: ErrorDetail[] = [];
  request.packages.forEach((p, index) => {
    const manifestId = p.TrackingNumber ? owner.get(p.TrackingNumber) : undefined;
    if (manifestId) details.push({ path: `ContainerDetails[${index}].TrackingNumber`, message: `${p.TrackingNumber} is already in manifest ${manifestId}` });
  });
  throw new ApiError('conflict', `${details.length} tracking number(s) are already manifested in another container; nothing was stored.`, { details });
}

function toJson(value: object): Prisma.InputJsonObject {
  return JSON.parse(JSON.stringify(value)) as Prisma.InputJsonObject;
}
