import { getManifestCustomsDeclarationsOperation } from '@/lib/api/operations/get-manifest-customs-declarations';
import { portalOperation } from '@/lib/portal/api-operation';

// GET /portal-api/manifests/{id}/customs-declarations: every house's CN 23 in one PDF, the API operation's own.
export const GET = portalOperation<{ id: string }>(getManifestCustomsDeclarationsOperation, { permission: 'data:read' });
