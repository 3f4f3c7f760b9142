import { exportAuditCsv } from '@/lib/spreadsheets/export-audit-csv';
import { csvResponse } from '@/lib/spreadsheets/csv-response';
import { portalQuery } from '@/lib/portal/package-list-query';
import { portalRoute } from '@/lib/portal/route';
import { AUDIT_FILTER_PARAMETERS, ZAuditExportQuery } from '@/lib/schemas/audit';
import { parseOperation } from '@/lib/schemas/parse';

// GET /portal-api/audit/export?action=&actor=&from=&to=: every row the filters match as CSV, streamed.
export const GET = portalRoute(
  async ({ request, accountId }) => {
    const filters = parseOperation(ZAuditExportQuery, portalQuery(request.url, AUDIT_FILTER_PARAMETERS));
    const body = await exportAuditCsv({ accountId, filters });
    return csvResponse(body, `audit-${new Date().toISOString().slice(0, 10)}.csv`);
  },
  { permission: 'audit:read' },
);
