import { getPackageOperation } from '@/lib/api/operations/get-package';
import { portalOperation } from '@/lib/portal/api-operation';

// GET /portal-api/packages/{TrackingNumber}: GET /packages/{TrackingNumber}'s own operation; another account's: 404.
export const GET = portalOperation<{ TrackingNumber: string }>(getPackageOperation, { permission: 'data:read' });
