import type { TProofOfDelivery } from '@/lib/schemas/proof-of-delivery';
import type { Proof } from './proofs';

/** The proof as the API and the portal show it: the images by their paths (relative to the API's base). */
export function presentProof(proof: Proof): TProofOfDelivery {
  const base = `/packages/${encodeURIComponent(proof.trackingNumber ?? proof.carrierBarcode)}/proof-of-delivery`;
  const image = (type: Proof['signatureType'], bytes: number, part: string) =>
    type ? { content_type: type, bytes, path: `${base}/${part}` } : null;
  return {
    object: 'proof_of_delivery',
    tracking_number: proof.trackingNumber,
    carrier_barcode: proof.carrierBarcode,
    status: proof.status,
    delivered_at: proof.deliveredAt.toISOString(),
    location: proof.location,
    recipient_name: proof.recipientName,
    scan_id: proof.scanId,
    signature: image(proof.signatureType, proof.signatureBytes, 'signature'),
    photo: image(proof.photoType, proof.photoBytes, 'photo'),
    document_path: `${base}/document`,
  };
}
