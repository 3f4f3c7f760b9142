import 'server-only';
import { pgPool } from '@/lib/db';
import { queryRow, sql } from '@/lib/sql';
import { AppError } from '@/lib/errors/app-error';
import { isCarrierBarcode, normalizeCarrierBarcode } from '@/lib/schemas/carrier-barcode';
import { customsDeclaration, type DocumentCustomsDeclaration } from './customs-declaration';
import type { LoadScope } from './load-documents';
import { day, obj } from './manifest-source';

/**
 * One package's customs declaration, the package found as its label is (load-documents.ts loadDocumentLabel: by
 * carrier barcode, or by tracking number as stored, then in any case; the container's package first); 404 when it is
 * not this account's in this environment. A cancelled package's declaration is stamped CANCELLED, as its label is.
 */
export async function loadCustomsDeclaration(
  options: LoadScope & { trackingNumber: string },
): Promise<DocumentCustomsDeclaration> {
  const { accountId, environment, trackingNumber: identifier } = options;
  const match = isCarrierBarcode(identifier)
    ? sql`p.carrier_barcode = ${normalizeCarrierBarcode(identifier)}`
    : sql`lower(p.tracking_number) = lower(${identifier})`;
  const inScope = sql`p.account_id = ${accountId}::uuid AND p.environment = ${environment}::"Environment" AND ${match}`;
  const exact = sql`p.tracking_number IS NOT DISTINCT FROM ${identifier}`;
  const row = await queryRow(
    pgPool(),
    sql<{
      kind: number;
      data: unknown;
      header: unknown;
      manifest_id: string;
      manifest_date: Date;
      status: string;
      carrier_barcode: string;
      awb: string | null;
      container_id: string | null;
      house_waybill: string | null;
      exact: boolean;
    }>`
      (SELECT 0 AS kind, p.detail AS data, m.header, m.id AS manifest_id, m.manifest_date, p.status, p.carrier_barcode,
              m.awb, m.container_id, p.house_waybill, ${exact} AS exact
       FROM container_packages p JOIN container_manifests m ON m.id = p.manifest_id WHERE ${inScope})
      UNION ALL
      (SELECT 1, p.data, NULL, p.daily_manifest_id, p.manifest_date, p.status, p.carrier_barcode, NULL, NULL,
              p.house_waybill, ${exact}
       FROM packages p WHERE ${inScope})
      ORDER BY exact DESC, kind LIMIT 1`,
  );
  if (!row)
    throw new AppError('not_found', 'No package with this tracking number or carrier barcode in this account and environment.');
  return customsDeclaration({
    data: obj(row.data),
    header: obj(row.header),
    kind: row.kind === 0 ? 'container' : 'daily',
    carrierBarcode: row.carrier_barcode,
    houseWaybill: row.house_waybill,
    manifestId: row.manifest_id,
    manifestDate: day(row.manifest_date),
    state: row.status === 'cancelled' ? 'cancelled' : undefined,
    awb: row.awb ?? undefined,
    containerId: row.container_id ?? undefined,
    generatedAt: new Date(),
  });
}
