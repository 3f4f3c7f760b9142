import 'server-only';
import { auditPosition, presentAuditEvent, readAuditRows, type AuditFilters, type AuditRow } from '@/lib/audit/list-audit-events';
import type { Cursor } from '@/lib/pagination/keyset';
import { exportLine } from './csv-fast';
import { batchedCsvStream } from './csv-stream';

// Streamed in keyset batches (one read while one is sent), so memory stays flat however long the log.

const BATCH = 500;

export const AUDIT_EXPORT_COLUMNS = [
  'occurred_at',
  'action',
  'actor_kind',
  'actor',
  'actor_email',
  'client_address',
  'user_agent',
  'environment',
  'target_type',
  'target_id',
  'details',
  'id',
] as const;

function cells(row: AuditRow): Record<string, unknown> {
  const event = presentAuditEvent(row);
  return {
    occurred_at: event.occurred_at,
    action: event.action,
    actor_kind: event.actor.kind,
    actor: event.actor.label,
    actor_email: event.actor.email,
    client_address: event.client_address,
    user_agent: event.user_agent,
    environment: event.environment,
    target_type: event.target?.type,
    target_id: event.target?.id,
    details: Object.keys(event.details).length > 0 ? JSON.stringify(event.details) : '',
    id: event.id,
  };
}

// The first batch is read before this returns, so a database that is away is an error answer, not a download cut short.
export async function exportAuditCsv(options: {
  accountId: string;
  filters: AuditFilters;
  batch?: number;
}): Promise<ReadableStream<Uint8Array>> {
  const limit = options.batch ?? BATCH;
  const read = (after: Cursor | undefined) =>
    readAuditRows({ accountId: options.accountId, filters: options.filters, after, limit });
  return batchedCsvStream<AuditRow>({
    header: AUDIT_EXPORT_COLUMNS.join(','),
    first: Promise.resolve(await read(undefined)),
    next: (rows) => {
      const last = rows.at(-1);
      return rows.length === limit && last ? read(auditPosition(last)) : undefined;
    },
    lines: (rows) => {
      let text = '';
      for (const row of rows) text += exportLine(AUDIT_EXPORT_COLUMNS, cells(row));
      return text;
    },
  });
}
