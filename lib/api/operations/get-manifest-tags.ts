import 'server-only';
import { loadManifestHead } from '@/lib/documents/load-documents';
import { defineOperation } from '../operation';
import { PATH_PARAMETERS } from '../openapi/parts';
import { documentDoc, file, FORMAT_NOTE, formatOf, manifestDocument, manifestScope } from '../documents';

const doc = documentDoc(['pdf', 'zpl']);

export const getManifestTagsOperation = defineOperation({
  id: 'getManifestTags',
  method: 'GET',
  path: '/manifests/{id}/tags',
  scope: 'manifests:read',
  tag: 'Documents',
  summary: 'Container tag (4×6 in)',
  description: `ContainerID and AWB as Code 128, terminal, pieces, weight. ${FORMAT_NOTE}`,
  parameters: [PATH_PARAMETERS.manifestId, ...doc.parameters],
  success: doc.success,
  errors: doc.errors,
  handler: async (context) => {
    const format = formatOf(context, ['pdf', 'zpl']) as 'pdf' | 'zpl';
    const head = await loadManifestHead(manifestScope(context));
    const bytes = await manifestDocument(context, head, { document: 'tag', format, paper: '' }, (source) => ({
      document: 'tag',
      source,
      format,
    }));
    return file(bytes, format, `tag-${head.containerId ?? head.manifestId}`);
  },
});
