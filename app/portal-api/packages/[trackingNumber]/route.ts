import { getPackageOperation } from '@/lib/http/operations/lifecycle';
import { portalOperation } from '@/lib/portal/api-operation';

// GET /portal-api/packages/{TrackingNumber}: GET /packages/{TrackingNumber}'s own operation; another account's: 404.
export const GET = portalOperation<{ trackingNumber: string }>(getPackageOperation, { permission: 'data:read' });
