import 'server-only';
import {
  presentAuditEvent,
  readAuditRows,
  type AuditFilters,
  type AuditPosition,
  type AuditRow,
} from '@/lib/audit/list-audit-events';
import { exportLine } from './csv-fast';

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
  const encoder = new TextEncoder();
  const limit = options.batch ?? BATCH;
  const read = (after: AuditPosition | undefined) => {
    const query = readAuditRows({ accountId: options.accountId, filters: options.filters, after, limit });
    query.catch(() => undefined);
    return query;
  };
  let pending: Promise<AuditRow[]> | undefined = Promise.resolve(await read(undefined));
  let header = true;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (header) {
          header = false;
          controller.enqueue(encoder.encode(`${AUDIT_EXPORT_COLUMNS.join(',')}\r\n`));
          return;
        }
        if (!pending) {
          controller.close();
          return;
        }
        const rows = await pending;
        const last = rows.at(-1);
        pending = rows.length === limit && last ? read({ t: last.t, id: last.id }) : undefined;
        if (rows.length === 0) {
          controller.close();
          return;
        }
        let text = '';
        for (const row of rows) text += exportLine(AUDIT_EXPORT_COLUMNS, cells(row));
        controller.enqueue(encoder.encode(text));
      },
    },
    { highWaterMark: 0 },
  );
}
