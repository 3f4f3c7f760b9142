import { linkSelection, selectedBarcodes } from '@/lib/portal/package-batch';
import { portalRoute, readBody, type PortalContext } from '@/lib/portal/route';
import { ZPackageSelection, type TPackageSelection } from '@/lib/schemas/package-selection';
import { csvResponse } from '@/lib/spreadsheets/csv-response';
import { exportPackagesCsv, exportSelectedPackagesCsv } from '@/lib/spreadsheets/export-packages-csv';

async function exportCsv({ accountId, environment }: PortalContext<Record<string, never>>, selection: TPackageSelection) {
  const body = selection.filters
    ? await exportPackagesCsv({ accountId, environment, filters: selection.filters })
    : await exportSelectedPackagesCsv({
        accountId,
        environment,
        carrierBarcodes: await selectedBarcodes({ accountId, environment }, selection),
      });
  const day = new Date().toISOString().slice(0, 10);
  return csvResponse(body, `packages-${environment}-${day}.csv`);
}

// GET /portal-api/package-batch/export?(ids=<packed>|<GET /packages's filters>): the selected packages as CSV, streamed.
export const GET = portalRoute((context) => exportCsv(context, linkSelection(context.request.url)), { permission: 'data:read' });

// POST /portal-api/package-batch/export: the same for a selection too large for a link.
export const POST = portalRoute(async (context) => exportCsv(context, await readBody(context.request, ZPackageSelection)), {
  permission: 'data:read',
});
