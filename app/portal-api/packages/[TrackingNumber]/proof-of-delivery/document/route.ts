import { getProofOfDeliveryDocumentOperation } from '@/lib/api/operations/get-proof-of-delivery-document';
import { portalOperation } from '@/lib/portal/api-operation';

// GET /portal-api/packages/{TrackingNumber}/proof-of-delivery/document: the certificate (PDF), the API's own operation.
export const GET = portalOperation<{ TrackingNumber: string }>(getProofOfDeliveryDocumentOperation, { permission: 'data:read' });
