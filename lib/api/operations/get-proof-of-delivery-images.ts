import 'server-only';
import { defineOperation } from '../operation';
import { errorAnswer, PATH_PARAMETERS } from '../openapi/parts';
import { fileNamePart } from '@/lib/documents/text';
import { proofImage } from '@/lib/proof-of-delivery/proofs';
import { accountScope, pathParam } from '../context';

// The signature and the photo of a proof of delivery, each as the type its bytes were checked to be at upload.
function imageOperation(image: 'signature' | 'photo') {
  const name = image === 'signature' ? 'Signature' : 'Photo';
  return defineOperation({
    id: `getProofOfDelivery${name}`,
    method: 'GET',
    path: `/packages/{TrackingNumber}/proof-of-delivery/${image}`,
    scope: 'manifests:read',
    tag: 'Lifecycle',
    summary: `The ${image} of a package's proof of delivery (PNG or JPEG)`,
    description: `The bytes the delivered scan sent, as the type they were checked to be (PNG or JPEG), \`inline\`.`,
    parameters: [PATH_PARAMETERS.trackingNumber],
    success: {
      kind: 'file',
      description: `The ${image}.`,
      contentTypes: ['image/png', 'image/jpeg'],
      headers: { 'Content-Disposition': { schema: { type: 'string' }, description: 'inline; filename="…"' } },
    },
    errors: { '404': errorAnswer(`No such package in this account and environment, or its proof of delivery has no ${image}.`) },
    handler: async (context) => {
      const found = await proofImage({ ...accountScope(context), identifier: pathParam(context, 'TrackingNumber'), image });
      const extension = found.type === 'image/png' ? 'png' : 'jpg';
      const reference = found.proof.trackingNumber ?? found.proof.carrierBarcode;
      return {
        file: { bytes: found.bytes, contentType: found.type, fileName: `${image}-${fileNamePart(reference)}.${extension}` },
      };
    },
  });
}

export const getProofOfDeliverySignatureOperation = imageOperation('signature');
export const getProofOfDeliveryPhotoOperation = imageOperation('photo');
