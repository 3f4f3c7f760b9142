import { getImportMapping, rememberImportMapping } from '@/lib/portal-queries/import-mapping';
import { portalRoute, readBody } from '@/lib/portal/route';
import { ZImportMappingRequest } from '@/lib/schemas/import-mapping';

// GET|PUT /portal-api/import-mapping: the manifest builder's remembered column mapping, per account (both
// environments: it describes the shipper's spreadsheets, not its data). PUT merges an import's columns in.
export const GET = portalRoute(async ({ accountId }) => getImportMapping(accountId));

export const PUT = portalRoute(async ({ request, accountId }) => rememberImportMapping(accountId, await readBody(request, ZImportMappingRequest)));
