import { createReturnOperation } from '@/lib/api/operations/create-return';
import { portalOperation } from '@/lib/portal/api-operation';

// POST /portal-api/packages/{TrackingNumber}/return: POST /packages/{TrackingNumber}/return's own operation.
export const POST = portalOperation<{ TrackingNumber: string }>(createReturnOperation, { permission: 'shipments:write' });
