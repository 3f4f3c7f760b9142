import { cancelPickupOperation } from '@/lib/api/operations/cancel-pickup';
import { portalOperation } from '@/lib/portal/api-operation';

// POST /portal-api/pickups/{id}/cancel: the Pickups page's Cancel, POST /pickups/{id}/cancel's own operation.
export const POST = portalOperation(cancelPickupOperation, { permission: 'shipments:write', audited: true });
