import { simulatePackageOperation } from '@/lib/api/operations/simulate-package';
import { portalOperation } from '@/lib/portal/api-operation';

// POST /portal-api/packages/{TrackingNumber}/simulate {status, code?}: POST /packages/{TrackingNumber}/simulate's own
// operation; test mode only (404 in live, as the API's live path).
export const POST = portalOperation<{ TrackingNumber: string }>(simulatePackageOperation, { permission: 'shipments:write' });
