import { getManifestDocumentOperation } from '@/lib/api/operations/get-manifest-document';
import { portalOperation } from '@/lib/portal/api-operation';

// GET /portal-api/manifests/{id}/document: the handover manifest (PDF), GET /manifests/{id}/document's own operation.
export const GET = portalOperation<{ id: string }>(getManifestDocumentOperation, { permission: 'data:read' });
