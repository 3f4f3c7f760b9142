import 'server-only';
import { defineJsonOperation } from '../operation';
import { errorAnswer, queryParameters } from '../openapi/parts';
import { parseOperation } from '@/lib/schemas/parse';
import { PACKAGE_LIST_PARAMETERS, ZListPackagesQuery, ZListPackagesResponse } from '@/lib/schemas/lifecycle';
import { listPackages } from '@/lib/shipments/read';
import { assertFilterAlphabets } from '../query';
import { accountScope, queryOf } from '../context';

export const listPackagesOperation = defineJsonOperation(ZListPackagesResponse, {
  id: 'listPackages',
  method: 'GET',
  path: '/packages',
  scope: 'manifests:read',
  tag: 'Lifecycle',
  summary: 'List every package (container and daily), newest first',
  description:
    "Keyset pages, newest first; the filters combine. `customs_not_ready=<regime>` keeps the houses not ready for that customs regime, account-wide or within `manifest_id`: each house as its manifest's `GET /manifests/{id}/customs` judges it (a container's house with its container's flight and destination, a daily package by its own data), its master's problems (AWB, flight) left to the manifest. An offloaded house is not aboard and not listed.",
  parameters: queryParameters(ZListPackagesQuery),
  success: { kind: 'json', status: 200, description: 'A page.' },
  errors: { '422': errorAnswer('A query parameter is invalid, unknown or repeated; `details` names it.') },
  handler: async (context) => {
    const raw = queryOf(context, PACKAGE_LIST_PARAMETERS);
    assertFilterAlphabets(raw);
    return { body: await listPackages({ ...accountScope(context), query: parseOperation(ZListPackagesQuery, raw) }) };
  },
});
