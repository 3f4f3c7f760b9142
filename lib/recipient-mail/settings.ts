import 'server-only';
import { recordAudit, type AuditOrigin } from '@/lib/audit/record-audit';
import { pgPool, pgTransaction } from '@/lib/db';
import { RECIPIENT_MAIL_STATUSES, type TRecipientMailSettings } from '@/lib/schemas/public-tracking';
import { execute, queryRow, sql } from '@/lib/sql';

// A shipper's opt-in: the statuses at which its recipients (a package's ToEmail) are e-mailed. One setting per
// account, for its live packages (test packages are never shown to a recipient, nor mailed about).

const ordered = (statuses: readonly string[]) => RECIPIENT_MAIL_STATUSES.filter((status) => statuses.includes(status));

export async function getRecipientMailSettings(options: { accountId: string }): Promise<TRecipientMailSettings> {
  const row = await queryRow(
    pgPool(),
    sql<{ statuses: string[] }>`SELECT statuses FROM recipient_mail_settings WHERE account_id = ${options.accountId}::uuid`,
  );
  return { statuses: ordered(row?.statuses ?? []) };
}

export async function setRecipientMailSettings(
  options: { accountId: string; origin: AuditOrigin },
  settings: TRecipientMailSettings,
): Promise<TRecipientMailSettings> {
  const statuses = ordered(settings.statuses);
  return pgTransaction(async (client) => {
    const before = await queryRow(
      client,
      sql<{
        statuses: string[];
      }>`SELECT statuses FROM recipient_mail_settings WHERE account_id = ${options.accountId}::uuid FOR UPDATE`,
    );
    await execute(
      client,
      sql`INSERT INTO recipient_mail_settings (account_id, statuses, updated_at) VALUES (${options.accountId}::uuid, ${statuses}::text[], now())
       ON CONFLICT (account_id) DO UPDATE SET statuses = EXCLUDED.statuses, updated_at = now()`,
    );
    const was = ordered(before?.statuses ?? []);
    // A save that changes nothing is not an event.
    if (was.join() !== statuses.join()) {
      await recordAudit(
        options.origin,
        {
          accountId: options.accountId,
          action: 'settings.updated',
          target: { type: 'settings', id: 'recipient_mail' },
          details: { statuses_before: was, statuses },
        },
        client,
      );
    }
    return { statuses };
  });
}
