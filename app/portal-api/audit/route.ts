import { listAuditEvents } from '@/lib/audit/list-audit-events';
import { portalQuery } from '@/lib/portal/package-list-query';
import { portalRoute } from '@/lib/portal/route';
import { AUDIT_LIST_PARAMETERS, ZAuditQuery, type TAuditEventList } from '@/lib/schemas/audit';
import { parseOperation } from '@/lib/schemas/parse';

// GET /portal-api/audit?action=&actor=&from=&to=&limit=&cursor=: the account's audit log, newest first, keyset pages.
export const GET = portalRoute(
  async ({ request, accountId }): Promise<TAuditEventList> => {
    const query = parseOperation(ZAuditQuery, portalQuery(request.url, AUDIT_LIST_PARAMETERS));
    return listAuditEvents({ accountId, query });
  },
  { permission: 'audit:read' },
);
