import { listPackageEventsOperation } from '@/lib/http/operations/lifecycle';
import { portalOperation } from '@/lib/portal/api-operation';

// GET /portal-api/packages/{TrackingNumber}/events: GET /packages/{TrackingNumber}/events's own operation, oldest first.
export const GET = portalOperation<{ trackingNumber: string }>(listPackageEventsOperation, { permission: 'data:read' });
