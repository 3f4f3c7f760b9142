import 'server-only';
import { pgPool } from '@/lib/db';
import { AppError } from '@/lib/errors/app-error';
import type { Environment } from '@/lib/generated/prisma/enums';
import { isCarrierBarcode, normalizeCarrierBarcode } from '@/lib/schemas/carrier-barcode';
import { execute, queryRow, sql } from '@/lib/sql';
import type { CheckedImage, ImageType } from './images';

// Proof of delivery (docs/decisions/proof-of-delivery.md): kept per applied delivered scan in proofs_of_delivery, out
// of packages and lifecycle_events; read only in the package's own account and environment (another's is a 404).

interface Scope {
  accountId: string;
  environment: Environment;
}

export interface ProofInput {
  recipientName?: string;
  signature?: CheckedImage;
  photo?: CheckedImage;
}

/**
 * Keeps a delivered scan's proof, found through the event the scan wrote (ops_scans → lifecycle_events), so it is the
 * scanned package's, in its account. Once per scan: a resent scan_id (answered `duplicate`) keeps the first proof, and
 * fills one the first attempt did not keep.
 */
export async function keepScanProof(environment: Environment, scanId: string, proof: ProofInput): Promise<void> {
  await execute(
    pgPool(),
    sql`
      INSERT INTO proofs_of_delivery (environment, scan_id, account_id, carrier_barcode, occurred_at, location, recipient_name,
                                      signature, signature_type, photo, photo_type)
      SELECT s.environment, s.scan_id, e.account_id, e.carrier_barcode, e.occurred_at, e.location, ${proof.recipientName ?? null},
             ${proof.signature ? Buffer.from(proof.signature.bytes) : null}::bytea, ${proof.signature?.type ?? null},
             ${proof.photo ? Buffer.from(proof.photo.bytes) : null}::bytea, ${proof.photo?.type ?? null}
      FROM ops_scans s JOIN lifecycle_events e ON e.id = s.event_id
      WHERE s.environment = ${environment}::"Environment" AND s.scan_id = ${scanId}
        AND e.subject_type = 'package' AND e.status = 'delivered' AND e.carrier_barcode IS NOT NULL
      ON CONFLICT (environment, scan_id) DO NOTHING`,
  );
}

/** The test simulator's proof for a package it delivered (sample images), once per package. */
export async function keepSimulatedProof(scope: Scope & { carrierBarcode: string; occurredAt: Date }, proof: ProofInput) {
  await execute(
    pgPool(),
    sql`
      INSERT INTO proofs_of_delivery (environment, scan_id, account_id, carrier_barcode, occurred_at, location, recipient_name,
                                      signature, signature_type, photo, photo_type)
      VALUES (${scope.environment}::"Environment", ${`simulated:${scope.carrierBarcode}`}, ${scope.accountId}::uuid, ${scope.carrierBarcode},
              ${scope.occurredAt}, NULL, ${proof.recipientName ?? null}, ${proof.signature ? Buffer.from(proof.signature.bytes) : null}::bytea,
              ${proof.signature?.type ?? null}, ${proof.photo ? Buffer.from(proof.photo.bytes) : null}::bytea, ${proof.photo?.type ?? null})
      ON CONFLICT (environment, scan_id) DO NOTHING`,
  );
}

export interface Proof {
  trackingNumber: string | null;
  carrierBarcode: string;
  status: string;
  scanId: string;
  deliveredAt: Date;
  location: string | null;
  recipientName: string | null;
  signatureType: ImageType | null;
  photoType: ImageType | null;
  signatureBytes: number;
  photoBytes: number;
}

const NOT_FOUND_MESSAGE = 'No package with this tracking number or carrier barcode in this account and environment.';

/** The package's latest proof (metadata), or null when it has none; 404 when the package is not in this scope. */
export async function findProof(scope: Scope & { identifier: string }): Promise<Proof | null> {
  const pkg = await findPackage(scope);
  const row = await queryRow(
    pgPool(),
    sql<{
      scan_id: string;
      occurred_at: Date;
      location: string | null;
      recipient_name: string | null;
      signature_type: ImageType | null;
      photo_type: ImageType | null;
      signature_bytes: number | null;
      photo_bytes: number | null;
    }>`
      SELECT scan_id, occurred_at, location, recipient_name, signature_type, photo_type,
             octet_length(signature) AS signature_bytes, octet_length(photo) AS photo_bytes
      FROM proofs_of_delivery
      WHERE account_id = ${scope.accountId}::uuid AND environment = ${scope.environment}::"Environment" AND carrier_barcode = ${pkg.carrier_barcode}
      ORDER BY occurred_at DESC, created_at DESC LIMIT 1`,
  );
  if (!row) return null;
  return {
    trackingNumber: pkg.tracking_number,
    carrierBarcode: pkg.carrier_barcode,
    status: pkg.status,
    scanId: row.scan_id,
    deliveredAt: row.occurred_at,
    location: row.location,
    recipientName: row.recipient_name,
    signatureType: row.signature_type,
    photoType: row.photo_type,
    signatureBytes: Number(row.signature_bytes ?? 0),
    photoBytes: Number(row.photo_bytes ?? 0),
  };
}

/** findProof, or 404 naming that the package has no proof of delivery. */
export async function requireProof(scope: Scope & { identifier: string }): Promise<Proof> {
  const proof = await findProof(scope);
  if (!proof) throw new AppError('not_found', 'This package has no proof of delivery (no delivered scan carried one).');
  return proof;
}

/** One image of the package's latest proof: its bytes and the type they were checked to be. */
export async function proofImage(
  scope: Scope & { identifier: string; image: 'signature' | 'photo' },
): Promise<{ bytes: Uint8Array; type: ImageType; proof: Proof }> {
  const proof = await requireProof(scope);
  const row = await queryRow(
    pgPool(),
    scope.image === 'signature'
      ? sql<{
          bytes: Buffer | null;
          type: ImageType | null;
        }>`SELECT signature AS bytes, signature_type AS type FROM proofs_of_delivery
          WHERE environment = ${scope.environment}::"Environment" AND scan_id = ${proof.scanId} AND account_id = ${scope.accountId}::uuid`
      : sql<{ bytes: Buffer | null; type: ImageType | null }>`SELECT photo AS bytes, photo_type AS type FROM proofs_of_delivery
          WHERE environment = ${scope.environment}::"Environment" AND scan_id = ${proof.scanId} AND account_id = ${scope.accountId}::uuid`,
  );
  if (!row?.bytes || !row.type) throw new AppError('not_found', `This package's proof of delivery has no ${scope.image}.`);
  return { bytes: new Uint8Array(row.bytes), type: row.type, proof };
}

async function findPackage(scope: Scope & { identifier: string }) {
  const inScope = sql`x.account_id = ${scope.accountId}::uuid AND x.environment = ${scope.environment}::"Environment"`;
  const match = isCarrierBarcode(scope.identifier)
    ? sql`x.carrier_barcode = ${normalizeCarrierBarcode(scope.identifier)}`
    : sql`lower(x.tracking_number) = lower(${scope.identifier})`;
  const exact = sql`x.tracking_number IS NOT DISTINCT FROM ${scope.identifier}`;
  const row = await queryRow(
    pgPool(),
    sql<{ tracking_number: string | null; carrier_barcode: string; status: string }>`
      (SELECT 0 AS kind, x.tracking_number, x.carrier_barcode, x.status, ${exact} AS exact FROM container_packages x WHERE ${inScope} AND ${match})
      UNION ALL
      (SELECT 1, x.tracking_number, x.carrier_barcode, x.status, ${exact} FROM packages x WHERE ${inScope} AND ${match})
      ORDER BY exact DESC, kind LIMIT 1`,
  );
  if (!row) throw new AppError('not_found', NOT_FOUND_MESSAGE);
  return row;
}
