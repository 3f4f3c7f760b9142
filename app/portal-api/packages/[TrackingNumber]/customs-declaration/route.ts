import { getPackageCustomsDeclarationOperation } from '@/lib/api/operations/get-package-customs-declaration';
import { portalOperation } from '@/lib/portal/api-operation';

// GET /portal-api/packages/{TrackingNumber}/customs-declaration: the parcel's CN 23 (PDF), the API operation's own.
export const GET = portalOperation<{ TrackingNumber: string }>(getPackageCustomsDeclarationOperation, {
  permission: 'data:read',
});
