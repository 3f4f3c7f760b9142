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

export const getManifestDocumentOperation = defineOperation({
  id: 'getManifestDocument',
  method: 'GET',
  path: '/manifests/{id}/document',
  scope: 'manifests:read',
  tag: 'Documents',
  summary: 'Handover manifest',
  description: `ManifestID and AWB (its 11 digits, as the API returns it) as Code 128, one line per package, totals, tender block; page n of N on every page. A cancelled manifest's says CANCELLED and has no barcode. ${FORMAT_NOTE}`,
  parameters: [PATH_PARAMETERS.manifestId, ...doc.parameters],
  success: doc.success,
  errors: doc.errors,
  handler: async (context) => {
    const format = formatOf(context, ['pdf']);
    const paper = paperSize(context.query.get('paper'));
    const head = await loadManifestHead(manifestScope(context));
    const bytes = await manifestDocument(context, head, { document: 'handover', format: 'pdf', paper }, (source) => ({
      document: 'handover',
      source,
      paper,
    }));
    return file(bytes, format, `handover-${head.manifestId}`);
  },
});
