import 'server-only';
import { defineJsonOperation } from '../operation';
import { errorAnswer } from '../openapi/parts';
import { PICKUP_ID_PARAMETER } from '../openapi/pickups';
import { cancelPickup } from '@/lib/pickups/pickups';
import { ZPickup } from '@/lib/schemas/pickups';
import { accountScope, pathParam } from '../context';

export const cancelPickupOperation = defineJsonOperation(ZPickup, {
  id: 'cancelPickup',
  method: 'POST',
  path: '/pickups/{id}/cancel',
  scope: 'manifests:write',
  tag: 'Pickups',
  summary: 'Cancel a pickup before its window opens',
  description:
    'A cancelled pickup answers as it is (safe to retry); once the window has opened, or the pickup is completed: 409 `not_cancellable`. Sends `pickup.cancelled`.',
  parameters: [PICKUP_ID_PARAMETER],
  success: { kind: 'json', status: 200, description: 'The pickup, cancelled.' },
  errors: {
    '404': errorAnswer('No such pickup in this account and environment.'),
    '409': errorAnswer('`not_cancellable`: the window has opened, or the pickup is completed.'),
  },
  handler: async (context) => ({ body: await cancelPickup(accountScope(context), pathParam(context, 'id')) }),
});
