import { getManifestOneRecordOperation } from '@/lib/api/operations/get-manifest-one-record';
import { portalOperation } from '@/lib/portal/api-operation';

// GET /portal-api/manifests/{id}/one-record: the container as ONE Record JSON-LD, the API operation's own.
export const GET = portalOperation<{ id: string }>(getManifestOneRecordOperation, { permission: 'data:read' });
