import 'server-only';
import { loadManifestHead, packagesQuery } from '@/lib/documents/load-documents';
import { AppError } from '@/lib/errors/app-error';
import { appLink } from '@/lib/mail/settings';
import { defineOperation, type OperationContext } from '../operation';
import { errorAnswer, PATH_PARAMETERS } from '../openapi/parts';
import { manifestScope, rendered } from '../documents';

const MEDIA_TYPE = 'application/ld+json';

/** JSON-LD is JSON: an Accept that takes either (or anything) gets it; one that takes neither is a 406. */
function acceptable(accept: string | null | undefined): boolean {
  if (!accept || accept.trim() === '') return true;
  return accept.split(',').some((part) => {
    const [media = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) return false;
    return ['application/ld+json', 'application/json', 'application/*', '*/*'].includes(media.trim());
  });
}

/** The export's own IRI (every node is a fragment of it): the API's address of this manifest's export. */
function documentIri(context: OperationContext, manifestId: string): string {
  const base = context.environment === 'test' ? '/version-test/api/1.1' : '/api/1.1';
  return appLink(`${base}/manifests/${encodeURIComponent(manifestId)}/one-record`);
}

export const getManifestOneRecordOperation = defineOperation({
  id: 'getManifestOneRecord',
  method: 'GET',
  path: '/manifests/{id}/one-record',
  scope: 'manifests:read',
  tag: 'Customs',
  summary: 'ONE Record export of a container (JSON-LD)',
  description:
    "The container as IATA ONE Record data (ontology 3.3.0, `https://onerecord.iata.org/ns/cargo#`), one JSON-LD `@graph`: the container's AWB as the MASTER `Waybill` with a HOUSE `Waybill` per parcel, each house's `Shipment` and `Piece` (goods description, gross weight, dimensions, declared items as `Item` → `Product` with `hsCode`, value and origin), the `ULD` (`uldTypeCode`, `uldSerialNumber`, `ownerCode`) composing every piece, the flight (`TransportMovement`), the consignment `SecurityDeclaration`, and `Party` nodes for shipper (SHP) and consignee (CNE). Node ids are fragments of this export's address. Cancelled parcels are left out; a cancelled container, and a daily manifest (no ULD, no master waybill), are a 409. `Accept`: `application/ld+json` or `application/json` (406 otherwise).",
  parameters: [PATH_PARAMETERS.manifestId],
  success: {
    kind: 'file',
    description: 'The JSON-LD document.',
    contentTypes: [MEDIA_TYPE],
    headers: { 'Content-Disposition': { schema: { type: 'string' }, description: 'inline; filename="…"' } },
  },
  errors: {
    '404': errorAnswer('No such manifest in this account and environment.'),
    '406': errorAnswer('`not_acceptable`: the `Accept` header takes neither `application/ld+json` nor `application/json`.'),
    '409': errorAnswer('`conflict`: a daily manifest (not a container), or a cancelled container.'),
    '503': errorAnswer('`service_unavailable`: every render thread is busy and the queue is full; `Retry-After` says when.'),
  },
  handler: async (context) => {
    if (!acceptable(context.accept))
      throw new AppError('not_acceptable', `The ONE Record export is available as ${MEDIA_TYPE} (or application/json).`, {
        details: [{ path: 'Accept', message: `must accept ${MEDIA_TYPE} or application/json` }],
      });
    const head = await loadManifestHead(manifestScope(context));
    if (head.kind !== 'container')
      throw new AppError(
        'conflict',
        `${head.manifestId} is a daily manifest: the ONE Record export is a container's (its ULD and master waybill).`,
      );
    if (head.state === 'cancelled')
      throw new AppError('conflict', `${head.manifestId} is cancelled: a cancelled container is not exchanged.`, {
        extra: { status: 'cancelled' },
      });
    const options = { base: documentIri(context, head.manifestId), codeLists: appLink('/one-record/code-lists/') };
    // On a render thread like the documents: 5,000 parcels are megabytes of JSON to build, off the serving thread.
    const bytes = await rendered(context, () =>
      Promise.resolve({
        document: 'one-record' as const,
        source: { ...head, packages: packagesQuery(head, { houseWaybills: true }) },
        options,
      }),
    );
    return { file: { bytes, contentType: MEDIA_TYPE, fileName: `one-record-${head.manifestId}.jsonld` } };
  },
});
