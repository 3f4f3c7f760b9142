import 'server-only';
import { defineJsonOperation } from '../operation';
import { NOT_FOUND, PATH_PARAMETERS } from '../openapi/parts';
import { ZListEventsResponse } from '@/lib/schemas/lifecycle';
import { listPackageEvents } from '@/lib/shipments/read';
import { accountScope, pathParam } from '../context';

export const listPackageEventsOperation = defineJsonOperation(ZListEventsResponse, {
  id: 'listPackageEvents',
  method: 'GET',
  path: '/packages/{TrackingNumber}/events',
  scope: 'manifests:read',
  tag: 'Lifecycle',
  summary: "The package's timeline, oldest first",
  parameters: [PATH_PARAMETERS.trackingNumber],
  success: { kind: 'json', status: 200, description: 'Its events.' },
  errors: { '404': NOT_FOUND },
  handler: async (context) => ({
    body: await listPackageEvents({ ...accountScope(context), trackingNumber: pathParam(context, 'TrackingNumber') }),
  }),
});
