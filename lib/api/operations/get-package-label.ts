import 'server-only';
import { loadDocumentLabel } from '@/lib/documents/load-documents';
import { defineOperation } from '../operation';
import { PATH_PARAMETERS } from '../openapi/parts';
import { accountScope, pathParam } from '../context';
import { documentDoc, file, FORMAT_NOTE, formatOf, rendered } from '../documents';

const doc = documentDoc(['pdf', 'zpl', 'png']);

export const getPackageLabelOperation = defineOperation({
  id: 'getPackageLabel',
  method: 'GET',
  path: '/packages/{TrackingNumber}/label',
  scope: 'manifests:read',
  tag: 'Documents',
  summary: 'Package label (4×6 in)',
  description: `The carrier barcode as Code 128 (the sort barcode), the tracking number beside it, sort code, service, destination postal code, recipient, ManifestID. PNG at 203 dpi. A cancelled package's label says CANCELLED and has no barcode. ${FORMAT_NOTE}`,
  parameters: [PATH_PARAMETERS.trackingNumber, ...doc.parameters],
  success: doc.success,
  errors: doc.errors,
  handler: async (context) => {
    const format = formatOf(context, ['pdf', 'zpl', 'png']);
    const label = await loadDocumentLabel({ ...accountScope(context), trackingNumber: pathParam(context, 'TrackingNumber') });
    const bytes = await rendered(context, () => Promise.resolve({ document: 'label', label, format }));
    return file(bytes, format, `label-${label.pkg.trackingNumber ?? label.manifestId}`);
  },
});
