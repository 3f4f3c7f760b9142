import { z } from 'zod';

const ZProofImage = z
  .object({
    content_type: z.enum(['image/png', 'image/jpeg']),
    bytes: z.number().int().meta({ description: 'Its size in bytes.' }),
    path: z.string().meta({ description: 'The API path that answers the image itself (the same scope).' }),
  })
  .nullable();

// GET /packages/{TrackingNumber}/proof-of-delivery: what the latest delivered scan carried, the images by reference.
export const ZProofOfDelivery = z.object({
  object: z.literal('proof_of_delivery'),
  tracking_number: z.string().nullable(),
  carrier_barcode: z.string(),
  status: z.string(),
  delivered_at: z.string(),
  location: z.string().nullable(),
  recipient_name: z.string().nullable(),
  scan_id: z.string(),
  signature: ZProofImage,
  photo: ZProofImage,
  document_path: z.string().meta({ description: 'The API path of the PDF certificate.' }),
});

export type TProofOfDelivery = z.output<typeof ZProofOfDelivery>;
