import { listPackagesOperation } from '@/lib/api/operations/list-packages';
import { portalOperation } from '@/lib/portal/api-operation';

// GET /portal-api/packages: GET /packages's own operation (its filters, keyset pages and the package's one shape).
export const GET = portalOperation(listPackagesOperation, { permission: 'data:read' });
