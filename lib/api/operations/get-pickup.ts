import 'server-only';
import { defineJsonOperation } from '../operation';
import { errorAnswer } from '../openapi/parts';
import { PICKUP_ID_PARAMETER } from '../openapi/pickups';
import { getPickup } from '@/lib/pickups/pickups';
import { ZPickup } from '@/lib/schemas/pickups';
import { accountScope, pathParam } from '../context';

export const getPickupOperation = defineJsonOperation(ZPickup, {
  id: 'getPickup',
  method: 'GET',
  path: '/pickups/{id}',
  scope: 'manifests:read',
  tag: 'Pickups',
  summary: 'One pickup',
  parameters: [PICKUP_ID_PARAMETER],
  success: { kind: 'json', status: 200, description: 'The pickup.' },
  errors: { '404': errorAnswer('No such pickup in this account and environment.') },
  handler: async (context) => ({ body: await getPickup(accountScope(context), pathParam(context, 'id')) }),
});
