import { getRequestOperation } from '@/lib/api/operations/get-request';
import { portalOperation } from '@/lib/portal/api-operation';

// GET /portal-api/requests/{id}: one request of the Logs page, GET /requests/{id}'s own operation.
export const GET = portalOperation<{ id: string }>(getRequestOperation, { permission: 'logs:read' });
