import 'server-only';
import type { Environment } from '@/lib/generated/prisma/enums';
import { RECIPIENT_MAIL_STATUSES } from '@/lib/schemas/public-tracking';
import { execute, sql, type Queryable } from '@/lib/sql';

// Called by the status machine (lib/status/engine.ts persist) in the transaction of the change: one pending mail per
// package and status that the account opted in to, for a live package with a ToEmail. The unique index on
// (carrier_barcode, status) makes a retried or repeated change, or two instances, write it once.

interface StatusEvent {
  subjectType: string;
  accountId: string;
  environment: Environment;
  carrierBarcode: string | null;
  type: string;
  status: string;
  applied: boolean;
  occurredAt: Date;
}

export async function enqueueRecipientMails(on: Queryable, events: readonly StatusEvent[]): Promise<void> {
  // Nothing to look up for the test environment, scans kept for history, customs outcomes or amendments.
  const due = events.filter(
    (e): e is StatusEvent & { carrierBarcode: string } =>
      e.environment === 'live' &&
      e.subjectType === 'package' &&
      e.applied &&
      e.carrierBarcode !== null &&
      e.type === `package.${e.status}` &&
      (RECIPIENT_MAIL_STATUSES as readonly string[]).includes(e.status),
  );
  if (due.length === 0) return;
  await execute(
    on,
    sql`INSERT INTO recipient_mails (account_id, carrier_barcode, status, occurred_at)
     SELECT e.account_id, e.carrier_barcode, e.status, e.occurred_at
     FROM unnest(${due.map((e) => e.accountId)}::uuid[], ${due.map((e) => e.carrierBarcode)}::text[],
                 ${due.map((e) => e.status)}::text[], ${due.map((e) => e.occurredAt)}::timestamptz[])
          AS e(account_id, carrier_barcode, status, occurred_at)
     JOIN recipient_mail_settings s ON s.account_id = e.account_id AND e.status = ANY(s.statuses)
     WHERE EXISTS (SELECT 1 FROM packages p WHERE p.carrier_barcode = e.carrier_barcode AND coalesce(p.data->>'ToEmail', '') <> '')
        OR EXISTS (SELECT 1 FROM container_packages cp WHERE cp.carrier_barcode = e.carrier_barcode
                   AND coalesce(cp.detail->>'ToEmail', '') <> '')
     ON CONFLICT (carrier_barcode, status) DO NOTHING`,
  );
}
