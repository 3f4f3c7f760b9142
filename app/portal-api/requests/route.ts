import { listRequestsOperation } from '@/lib/api/operations/list-requests';
import { portalOperation } from '@/lib/portal/api-operation';

// GET /portal-api/requests: the Logs page's list, GET /requests's own operation.
export const GET = portalOperation(listRequestsOperation, { permission: 'logs:read' });
