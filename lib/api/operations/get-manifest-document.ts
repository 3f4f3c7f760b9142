import 'server-only';
import { paperSize } from '@/lib/documents/negotiate-format';
import { loadManifestHead, loadManifestPickups } from '@/lib/documents/load-documents';
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
  description: `ManifestID and AWB (its 11 digits, as the API returns it) as Code 128, one line per package, totals, tender block with the driver's: the manifest's pickups (scheduled or completed, for it or for some of its packages: window, address, package count); page n of N on every page. A cancelled manifest's says CANCELLED and has no barcode. ${FORMAT_NOTE}`,
  parameters: [PATH_PARAMETERS.manifestId, ...doc.parameters],
  success: doc.success,
  errors: doc.errors,
  handler: async (context) => {
    const format = formatOf(context, ['pdf']);
    const paper = paperSize(context.query.get('paper'));
    const scope = manifestScope(context);
    const found = await loadManifestHead(scope);
    const pickups = await loadManifestPickups(found, scope);
    const head = pickups.length > 0 ? { ...found, pickups } : found;
    // A closed manifest's kept document is the one of its pickups as they are now: a pickup scheduled, completed or
    // cancelled since is another document.
    const kept = pickups.map((p) => `${p.id}:${p.status}`).join(',');
    const key = { document: 'handover' as const, format: 'pdf' as const, paper: kept ? `${paper}|${kept}` : paper };
    const bytes = await manifestDocument(context, head, key, (source) => ({
      document: 'handover',
      source,
      paper,
    }));
    return file(bytes, format, `handover-${head.manifestId}`);
  },
});
