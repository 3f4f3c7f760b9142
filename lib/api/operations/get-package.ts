import 'server-only';
import { defineJsonOperation } from '../operation';
import { NOT_FOUND, PATH_PARAMETERS } from '../openapi/parts';
import { ZPackageResponse } from '@/lib/schemas/lifecycle';
import { readPackageWithReturns } from '@/lib/returns/read';
import { accountScope, pathParam } from '../context';

export const getPackageOperation = defineJsonOperation(ZPackageResponse, {
  id: 'getPackage',
  method: 'GET',
  path: '/packages/{TrackingNumber}',
  scope: 'manifests:read',
  tag: 'Lifecycle',
  summary: "A package, under the contract's field names, with its status",
  parameters: [PATH_PARAMETERS.trackingNumber],
  success: { kind: 'json', status: 200, description: 'The package.' },
  errors: { '404': NOT_FOUND },
  handler: async (context) => ({
    body: await readPackageWithReturns({ ...accountScope(context), trackingNumber: pathParam(context, 'TrackingNumber') }),
  }),
});
