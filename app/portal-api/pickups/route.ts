import { listPickupsOperation } from '@/lib/api/operations/list-pickups';
import { schedulePickupOperation } from '@/lib/api/operations/schedule-pickup';
import { portalOperation } from '@/lib/portal/api-operation';

// /portal-api/pickups: the Pickups page's list and "Schedule pickup", the API's own operations.
export const GET = portalOperation(listPickupsOperation, { permission: 'data:read' });
export const POST = portalOperation(schedulePickupOperation, { permission: 'shipments:write', audited: true });
