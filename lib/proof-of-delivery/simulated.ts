import 'server-only';
import type { Environment } from '@/lib/generated/prisma/enums';
import { checkImage, type CheckedImage } from './images';
import { keepSimulatedProof } from './proofs';
import { SAMPLE_PHOTO_JPEG, SAMPLE_RECIPIENT, SAMPLE_SIGNATURE_PNG } from './samples';

function sample(base64: string): CheckedImage {
  const image = checkImage(base64);
  if (typeof image === 'string') throw new Error(`the sample proof image is refused by its own check: ${image}`);
  return image;
}

/** The test simulator's proof for a package it walked to delivered (once per package). */
export async function keepSampleProof(
  scope: { accountId: string; environment: Environment },
  pkg: { carrier_barcode: string; status_updated_at: string | null },
): Promise<void> {
  await keepSimulatedProof(
    {
      ...scope,
      carrierBarcode: pkg.carrier_barcode,
      occurredAt: pkg.status_updated_at ? new Date(pkg.status_updated_at) : new Date(),
    },
    { recipientName: SAMPLE_RECIPIENT, signature: sample(SAMPLE_SIGNATURE_PNG), photo: sample(SAMPLE_PHOTO_JPEG) },
  );
}
