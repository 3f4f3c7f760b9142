import { portalRoute, readBody } from '@/lib/portal/route';
import { selectedBarcodes } from '@/lib/portal/package-batch';
import { ZPackageSelection } from '@/lib/schemas/package-selection';
import { csvResponse } from '@/lib/spreadsheets/csv-response';
import { exportPackagesCsv, exportSelectedPackagesCsv } from '@/lib/spreadsheets/export-packages-csv';

// POST /portal-api/package-batch/export: the selected packages as CSV, streamed (a filter's whole set, however large).
export const POST = portalRoute(
  async ({ request, accountId, environment }) => {
    const selection = await readBody(request, ZPackageSelection);
    const body = selection.filters
      ? await exportPackagesCsv({ accountId, environment, filters: selection.filters })
      : await exportSelectedPackagesCsv({
          accountId,
          environment,
          carrierBarcodes: await selectedBarcodes({ accountId, environment }, selection),
        });
    const day = new Date().toISOString().slice(0, 10);
    return csvResponse(body, `packages-${environment}-${day}.csv`);
  },
  { permission: 'data:read' },
);
