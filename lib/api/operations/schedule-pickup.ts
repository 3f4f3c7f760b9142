import 'server-only';
import { defineJsonOperation } from '../operation';
import { BODY_ERRORS, errorAnswer, jsonSchemaOf } from '../openapi/parts';
import { schedulePickup } from '@/lib/pickups/pickups';
import { PICKUP_RULES } from '@/lib/pickups/window';
import { parseOperation } from '@/lib/schemas/parse';
import { PICKUP_FIELDS, ZPickup, ZSchedulePickupRequest } from '@/lib/schemas/pickups';
import { ignoredFields } from '@/lib/schemas/unknown-fields';
import { accountScope } from '../context';

const LEADS = Object.entries(PICKUP_RULES.leadMinutes)
  .map(([service, minutes]) => `${service} ${minutes / 60} h`)
  .join(', ');

export const schedulePickupOperation = defineJsonOperation(ZPickup, {
  id: 'schedulePickup',
  method: 'POST',
  path: '/pickups',
  scope: 'manifests:write',
  tag: 'Pickups',
  summary: 'Schedule a pickup of a manifest or of some packages',
  description:
    'The driver collects, from `address`, between `ready_at` and `close_at`: every package of `manifest_id` not yet received (a container: the container, while it is not yet received), or the packages named in `tracking_numbers` (tracking numbers or carrier barcodes). ' +
    `The window: opens at least the packages' service's lead time from now (${LEADS}; the strictest service among them applies; others ${PICKUP_RULES.defaultLeadMinutes / 60} h), lasts ${PICKUP_RULES.minWindowMinutes / 60} to ${PICKUP_RULES.maxWindowHours} hours, and opens within ${PICKUP_RULES.maxDaysAhead} days. ` +
    'A package is on one scheduled pickup at a time (409 `conflict` names the other). The address is checked as POST /addresses/validate checks one; a disagreement is a warning, not a refusal. Sends `pickup.scheduled`.',
  requestBody: {
    required: true,
    content: {
      'application/json': {
        schema: jsonSchemaOf(ZSchedulePickupRequest, 'input'),
        example: {
          manifest_id: 'MAN-7K3Q9X2M4T8V6W1Z',
          address: {
            company: 'Acme Parcels',
            address1: '1 Industrial Way',
            city: 'Newark',
            state: 'NJ',
            postal_code: '07114',
            country: 'US',
            phone: '+1 973 555 0100',
          },
          ready_at: '2026-12-01T13:00:00-05:00',
          close_at: '2026-12-01T17:00:00-05:00',
          instructions: 'Dock 4, ring the bell.',
        },
      },
    },
  },
  success: { kind: 'json', status: 201, description: 'The pickup, scheduled.' },
  errors: { ...BODY_ERRORS, '409': errorAnswer('`conflict`: a package is already on another scheduled pickup.') },
  handler: async (context) => {
    const body = await context.json();
    const pickup = await schedulePickup(accountScope(context), parseOperation(ZSchedulePickupRequest, body));
    const ignored = ignoredFields(body, PICKUP_FIELDS);
    const warnings = [...(pickup.warnings ?? []), ...ignored];
    return { status: 201, body: { ...pickup, ...(warnings.length > 0 ? { warnings } : {}) } };
  },
});
