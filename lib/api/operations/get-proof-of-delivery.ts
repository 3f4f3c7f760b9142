import 'server-only';
import { defineJsonOperation } from '../operation';
import { errorAnswer, PATH_PARAMETERS } from '../openapi/parts';
import { ZProofOfDelivery } from '@/lib/schemas/proof-of-delivery';
import { requireProof } from '@/lib/proof-of-delivery/proofs';
import { presentProof } from '@/lib/proof-of-delivery/present';
import { accountScope, pathParam } from '../context';

export const getProofOfDeliveryOperation = defineJsonOperation(ZProofOfDelivery, {
  id: 'getProofOfDelivery',
  method: 'GET',
  path: '/packages/{TrackingNumber}/proof-of-delivery',
  scope: 'manifests:read',
  tag: 'Lifecycle',
  summary: "A delivered package's proof of delivery: who took it, when and where, and its images by path",
  description:
    'What the latest delivered scan carried (`proof_of_delivery` on POST /ops/scans; on the test path, the simulator attaches samples). The signature and photo are answered by their own paths, the PDF certificate by `document_path`.',
  parameters: [PATH_PARAMETERS.trackingNumber],
  success: { kind: 'json', status: 200, description: 'The proof of delivery.' },
  errors: { '404': errorAnswer('No such package in this account and environment, or it has no proof of delivery.') },
  handler: async (context) => ({
    body: presentProof(await requireProof({ ...accountScope(context), identifier: pathParam(context, 'TrackingNumber') })),
  }),
});
