import 'server-only';
import { defineOperation } from '../operation';
import { errorAnswer, PATH_PARAMETERS } from '../openapi/parts';
import { requireProof } from '@/lib/proof-of-delivery/proofs';
import { proofDocumentData } from '@/lib/proof-of-delivery/document';
import { accountScope, pathParam } from '../context';
import { documentDoc, file, formatOf, rendered } from '../documents';

const doc = documentDoc(['pdf']);

export const getProofOfDeliveryDocumentOperation = defineOperation({
  id: 'getProofOfDeliveryDocument',
  method: 'GET',
  path: '/packages/{TrackingNumber}/proof-of-delivery/document',
  scope: 'manifests:read',
  tag: 'Documents',
  summary: 'Proof-of-delivery certificate (PDF)',
  description:
    "One Letter page: the package, when and where it was delivered, who took it, the signature and the photo. A test package's certificate says TEST.",
  parameters: [PATH_PARAMETERS.trackingNumber, ...doc.parameters],
  success: doc.success,
  errors: {
    ...doc.errors,
    '404': errorAnswer('No such package in this account and environment, or it has no proof of delivery.'),
  },
  handler: async (context) => {
    const format = formatOf(context, ['pdf']);
    const scope = { ...accountScope(context), identifier: pathParam(context, 'TrackingNumber') };
    const proof = await requireProof(scope);
    // On a render thread, admitted under the account's and the process's limits like every document.
    const bytes = await rendered(context, async () => ({
      document: 'proof-of-delivery',
      proof: await proofDocumentData(scope, proof),
    }));
    return file(bytes, format, `proof-of-delivery-${proof.trackingNumber ?? proof.carrierBarcode}`);
  },
});
