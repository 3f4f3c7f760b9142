import 'server-only';
import { loadManifestHead } from '@/lib/documents/load-documents';
import { defineOperation } from '../operation';
import { PATH_PARAMETERS } from '../openapi/parts';
import { documentDoc, file, FORMAT_NOTE, formatOf, manifestDocument, manifestScope } from '../documents';

const doc = documentDoc(['pdf', 'zpl']);

export const getManifestLabelsOperation = defineOperation({
  id: 'getManifestLabels',
  method: 'GET',
  path: '/manifests/{id}/labels',
  scope: 'manifests:read',
  tag: 'Documents',
  summary: 'Every package label of a manifest',
  description: `One 4×6 in label per page (PDF) or per ^XA…^XZ (ZPL II). ${FORMAT_NOTE}`,
  parameters: [PATH_PARAMETERS.manifestId, ...doc.parameters],
  success: doc.success,
  errors: doc.errors,
  handler: async (context) => {
    const format = formatOf(context, ['pdf', 'zpl']) as 'pdf' | 'zpl';
    const head = await loadManifestHead(manifestScope(context));
    const bytes = await manifestDocument(context, head, { document: 'labels', format, paper: '' }, (source) => ({
      document: 'labels',
      source,
      format,
    }));
    return file(bytes, format, `labels-${head.manifestId}`);
  },
});
