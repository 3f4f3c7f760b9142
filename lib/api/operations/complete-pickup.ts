import 'server-only';
import { defineJsonOperation } from '../operation';
import { errorAnswer } from '../openapi/parts';
import { PICKUP_ID_PARAMETER } from '../openapi/pickups';
import { completePickup } from '@/lib/pickups/pickups';
import { pathParam } from '../context';
import { ZPickup } from '@/lib/schemas/pickups';

export const completePickupOperation = defineJsonOperation(ZPickup, {
  id: 'completePickup',
  method: 'POST',
  path: '/ops/pickups/{id}/complete',
  scope: 'carrier:operations',
  tag: 'Carrier operations',
  summary: 'The driver collected a pickup',
  description: 'Carrier operations tokens only. Sends `pickup.completed` to the shipper; a completed pickup answers as it is.',
  parameters: [PICKUP_ID_PARAMETER],
  success: { kind: 'json', status: 200, description: 'The pickup, completed.' },
  errors: {
    '403': errorAnswer("`forbidden`: a shipper's token; only carrier operations tokens (`ck_ops_…`) complete a pickup."),
    '404': errorAnswer('No such pickup in this environment.'),
    '409': errorAnswer('`illegal_transition`: the pickup was cancelled.'),
  },
  handler: async (context) => ({ body: await completePickup({ environment: context.environment }, pathParam(context, 'id')) }),
});
