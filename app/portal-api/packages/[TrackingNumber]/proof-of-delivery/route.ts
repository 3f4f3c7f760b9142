import { getProofOfDeliveryOperation } from '@/lib/api/operations/get-proof-of-delivery';
import { portalOperation } from '@/lib/portal/api-operation';

// GET /portal-api/packages/{TrackingNumber}/proof-of-delivery: GET /packages/{TrackingNumber}/proof-of-delivery's own operation.
export const GET = portalOperation<{ TrackingNumber: string }>(getProofOfDeliveryOperation, { permission: 'data:read' });
