import 'server-only';
import { customsDeclaration, type DocumentCustomsDeclaration } from './customs-declaration';
import { loadDocumentPackage, type LoadScope } from './load-documents';
import { day, obj } from './manifest-source';

/**
 * One package's customs declaration, the package found as its label is (loadDocumentPackage); 404 when it is
 * not this account's in this environment. A cancelled package's declaration is stamped CANCELLED, as its label is.
 */
export async function loadCustomsDeclaration(
  options: LoadScope & { trackingNumber: string },
): Promise<DocumentCustomsDeclaration> {
  const row = await loadDocumentPackage(options);
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
