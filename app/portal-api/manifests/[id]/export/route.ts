import { AppError } from '@/lib/errors/app-error';
import { portalRoute } from '@/lib/portal/route';
import { csvResponse } from '@/lib/spreadsheets/csv-response';
import { exportManifestCsv } from '@/lib/spreadsheets/export-manifest-csv';

// GET /portal-api/manifests/{id}/export: the packages as CSV (formula-looking cells neutralised), streamed.
export const GET = portalRoute<{ id: string }>(
  async ({ accountId, environment, params }) => {
    const exported = await exportManifestCsv({ accountId, environment, id: params.id });
    if (!exported) throw new AppError('not_found', `No manifest ${params.id} in this environment.`);
    return csvResponse(exported.stream, exported.filename);
  },
  { permission: 'data:read' },
);
