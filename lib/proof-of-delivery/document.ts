import 'server-only';
import { pgPool } from '@/lib/db';
import type { DocumentProof } from '@/lib/documents/render-proof-of-delivery';
import type { Environment } from '@/lib/generated/prisma/enums';
import { getPackage } from '@/lib/shipments/read';
import { queryRow, sql } from '@/lib/sql';
import { proofImage, type Proof } from './proofs';

/** The certificate's data: the proof, its images, and the package's service and destination city (no street address). */
export async function proofDocumentData(
  scope: { accountId: string; environment: Environment; identifier: string },
  proof: Proof,
): Promise<DocumentProof> {
  const pkg = (await getPackage({ ...scope, trackingNumber: proof.carrierBarcode })) as Record<string, unknown>;
  const account = await queryRow(pgPool(), sql<{ name: string }>`SELECT name FROM accounts WHERE id = ${scope.accountId}::uuid`);
  const image = async (part: 'signature' | 'photo') => {
    if (!(part === 'signature' ? proof.signatureType : proof.photoType)) return null;
    const found = await proofImage({ ...scope, identifier: proof.carrierBarcode, image: part });
    return { bytes: found.bytes, type: found.type };
  };
  const field = (key: string) => (typeof pkg[key] === 'string' ? pkg[key] : '');
  return {
    test: scope.environment === 'test',
    shipper: field('FromCompany') || account?.name || '',
    trackingNumber: proof.trackingNumber,
    carrierBarcode: proof.carrierBarcode,
    service: field('ServiceName') || null,
    destination: [field('ToCity'), field('ToState'), field('ToPostalCode')].filter(Boolean).join(', '),
    deliveredAt: proof.deliveredAt,
    location: proof.location,
    recipientName: proof.recipientName,
    scanId: proof.scanId,
    issuedAt: new Date(),
    signature: await image('signature'),
    photo: await image('photo'),
  };
}
