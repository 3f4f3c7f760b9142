import { getPackageLabelOperation } from '@/lib/http/operations/documents';
import { portalOperation } from '@/lib/portal/api-operation';

// GET /portal-api/packages/{TrackingNumber}/label: the package's label (PDF), GET /packages/{TrackingNumber}/label's own operation.
export const GET = portalOperation<{ trackingNumber: string }>(getPackageLabelOperation, { permission: 'data:read' });
