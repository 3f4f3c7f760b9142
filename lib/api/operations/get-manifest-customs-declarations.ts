import 'server-only';
import { paperSize } from '@/lib/documents/negotiate-format';
import { loadManifestHead } from '@/lib/documents/load-documents';
import { defineOperation } from '../operation';
import { PATH_PARAMETERS } from '../openapi/parts';
import { documentDoc, file, FORMAT_NOTE, formatOf, manifestDocument, manifestScope } from '../documents';

const doc = documentDoc(
  ['pdf'],
  [{ name: 'paper', in: 'query', required: false, schema: { type: 'string', enum: ['letter', 'a4'] } }],
);

export const getManifestCustomsDeclarationsOperation = defineOperation({
  id: 'getManifestCustomsDeclarations',
  method: 'GET',
  path: '/manifests/{id}/customs-declarations',
  scope: 'manifests:read',
  tag: 'Documents',
  summary: "Every house's customs declaration (CN 23) of a manifest",
  description: `One PDF: each parcel handed over on the manifest (a container's houses, or a daily manifest's packages), its CN 23 / commercial invoice starting on a page of its own, as \`GET /packages/{TrackingNumber}/customs-declaration\` draws it. A cancelled package is left out, as from the labels; a cancelled manifest's declarations are all there, each saying CANCELLED. ${FORMAT_NOTE}`,
  parameters: [PATH_PARAMETERS.manifestId, ...doc.parameters],
  success: doc.success,
  errors: doc.errors,
  handler: async (context) => {
    const format = formatOf(context, ['pdf']);
    const paper = paperSize(context.query.get('paper'));
    const head = await loadManifestHead(manifestScope(context));
    const bytes = await manifestDocument(
      context,
      head,
      { document: 'customs', format: 'pdf', paper },
      (source) => ({ document: 'customs', source, paper }),
      { houseWaybills: true },
    );
    return file(bytes, format, `customs-${head.manifestId}`);
  },
});
