import { getManifestDocumentOperation } from '@/lib/http/operations/documents';
import { portalOperation } from '@/lib/portal/api-operation';

// GET /portal-api/manifests/{id}/document: the handover manifest (PDF), GET /manifests/{id}/document's own operation.
export const GET = portalOperation<{ id: string }>(getManifestDocumentOperation, { permission: 'data:read' });
