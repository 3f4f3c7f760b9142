import { getProofOfDeliveryPhotoOperation } from '@/lib/api/operations/get-proof-of-delivery-images';
import { portalOperation } from '@/lib/portal/api-operation';

// GET /portal-api/packages/{TrackingNumber}/proof-of-delivery/photo: the API's own operation (the image's bytes).
export const GET = portalOperation<{ TrackingNumber: string }>(getProofOfDeliveryPhotoOperation, { permission: 'data:read' });
