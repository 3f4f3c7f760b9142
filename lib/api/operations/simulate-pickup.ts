import 'server-only';
import { defineJsonOperation } from '../operation';
import { errorAnswer } from '../openapi/parts';
import { PICKUP_ID_PARAMETER } from '../openapi/pickups';
import { completePickup } from '@/lib/pickups/pickups';
import { ZPickup } from '@/lib/schemas/pickups';
import { accountScope, pathParam } from '../context';

export const simulatePickupOperation = defineJsonOperation(ZPickup, {
  id: 'simulatePickup',
  method: 'POST',
  path: '/pickups/{id}/simulate',
  scope: 'manifests:write',
  tag: 'Pickups',
  summary: 'Test path only: complete a pickup, as the driver would',
  description:
    'Sends `pickup.completed`; a completed pickup answers as it is. The packages keep their status: the hub scan receives them.',
  parameters: [PICKUP_ID_PARAMETER],
  success: { kind: 'json', status: 200, description: 'The pickup, completed.' },
  errors: {
    '404': errorAnswer('No such pickup in this account and environment, or the live path.'),
    '409': errorAnswer('`illegal_transition`: the pickup was cancelled.'),
  },
  testOnly: true,
  handler: async (context) => ({ body: await completePickup(accountScope(context), pathParam(context, 'id')) }),
});
