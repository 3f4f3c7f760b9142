import { validationError } from '@/lib/errors/app-error';
import { portalRoute } from '@/lib/portal/route';
import { exportPackagesCsv } from '@/lib/spreadsheets/export-packages-csv';
import { csvResponse } from '@/lib/spreadsheets/csv-response';
import { portalQuery } from '@/lib/portal/package-list-query';
import { PACKAGE_LIST_PARAMETERS, ZListPackagesQuery } from '@/lib/schemas/lifecycle';
import { parseOperation } from '@/lib/schemas/parse';

// GET /portal-api/exports/packages?<GET /packages's filters>: every matching package as CSV, streamed in keyset batches.
export const GET = portalRoute(
  async ({ request, accountId, environment }) => {
    const raw = portalQuery(request.url, PACKAGE_LIST_PARAMETERS);
    for (const paging of ['limit', 'cursor'] as const) {
      if (paging in raw)
        throw validationError([{ path: paging, message: 'an export holds every matching package: send the filters only' }]);
    }
    const { limit: _limit, cursor: _cursor, ...filters } = parseOperation(ZListPackagesQuery, raw);
    const body = await exportPackagesCsv({ accountId, environment, filters });
    const day = new Date().toISOString().slice(0, 10);
    return csvResponse(body, `packages-${environment}-${day}.csv`);
  },
  { permission: 'data:read' },
);
