import 'server-only';
import { loadCustomsDeclaration } from '@/lib/documents/load-customs-declaration';
import { paperSize } from '@/lib/documents/negotiate-format';
import { defineOperation } from '../operation';
import { PATH_PARAMETERS } from '../openapi/parts';
import { accountScope, pathParam } from '../context';
import { documentDoc, file, FORMAT_NOTE, formatOf, rendered } from '../documents';

const doc = documentDoc(
  ['pdf'],
  [{ name: 'paper', in: 'query', required: false, schema: { type: 'string', enum: ['letter', 'a4'] } }],
);

export const getPackageCustomsDeclarationOperation = defineOperation({
  id: 'getPackageCustomsDeclaration',
  method: 'GET',
  path: '/packages/{TrackingNumber}/customs-declaration',
  scope: 'manifests:read',
  tag: 'Documents',
  summary: 'Customs declaration (CN 23 / commercial invoice)',
  description: `The parcel's customs declaration from its \`Customs\`: sender and exporter (EORI), addressee and importer (EORI, tax ID, IOSS), one line per item (description, quantity, net weight in kg, value, HS code, origin), totals in exact decimals, category of item, incoterm, currency, house and master waybill, the carrier barcode as Code 128, and the sender's certification and signature block. A package sent without \`Customs\` gets the form with its contents left blank to fill in. A cancelled package's says CANCELLED and has no barcode. ${FORMAT_NOTE}`,
  parameters: [PATH_PARAMETERS.trackingNumber, ...doc.parameters],
  success: doc.success,
  errors: doc.errors,
  handler: async (context) => {
    const format = formatOf(context, ['pdf']);
    const paper = paperSize(context.query.get('paper'));
    const declaration = await loadCustomsDeclaration({
      ...accountScope(context),
      trackingNumber: pathParam(context, 'TrackingNumber'),
    });
    const bytes = await rendered(context, () => Promise.resolve({ document: 'customs-declaration', declaration, paper }));
    return file(bytes, format, `customs-${declaration.trackingNumber ?? declaration.carrierBarcode ?? declaration.manifestId}`);
  },
});
