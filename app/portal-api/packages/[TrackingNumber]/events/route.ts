import { listPackageEventsOperation } from '@/lib/api/operations/list-package-events';
import { portalOperation } from '@/lib/portal/api-operation';

// GET /portal-api/packages/{TrackingNumber}/events: GET /packages/{TrackingNumber}/events's own operation, oldest first.
export const GET = portalOperation<{ TrackingNumber: string }>(listPackageEventsOperation, { permission: 'data:read' });
