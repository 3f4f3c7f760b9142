import { getImportMapping, rememberImportMapping } from '@/lib/spreadsheets/import-mapping';
import { portalRoute, readBody } from '@/lib/portal/route';
import { ZImportMappingRequest } from '@/lib/schemas/import-mapping';
import type { TImportMappingResponse } from '@/lib/schemas/portal-responses';

// GET|PUT /portal-api/import-mapping: the manifest builder's remembered column mapping, per account (both
// environments: it describes the shipper's spreadsheets, not its data). PUT merges an import's columns in.
export const GET = portalRoute(async ({ accountId }): Promise<TImportMappingResponse> => getImportMapping(accountId), {
  permission: 'data:read',
});

export const PUT = portalRoute(
  async ({ request, accountId }): Promise<TImportMappingResponse> =>
    rememberImportMapping(accountId, await readBody(request, ZImportMappingRequest)),
  { permission: 'shipments:write' },
);
