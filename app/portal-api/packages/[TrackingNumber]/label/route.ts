import { getPackageLabelOperation } from '@/lib/api/operations/get-package-label';
import { portalOperation } from '@/lib/portal/api-operation';

// GET /portal-api/packages/{TrackingNumber}/label: the package's label (PDF), GET /packages/{TrackingNumber}/label's own operation.
export const GET = portalOperation<{ TrackingNumber: string }>(getPackageLabelOperation, { permission: 'data:read' });
