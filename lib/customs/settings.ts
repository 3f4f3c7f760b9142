import 'server-only';
import { recordAudit, type AuditOrigin } from '@/lib/audit/record-audit';
import { pgPool, pgTransaction } from '@/lib/db';
import type { TCustomsSettings } from '@/lib/schemas/customs-api';
import { execute, queryRow, sql } from '@/lib/sql';

// Whether the account's live containers may depart only once customs readiness holds (departure-readiness.ts).

export async function getCustomsSettings(options: { accountId: string }): Promise<TCustomsSettings> {
  const row = await queryRow(
    pgPool(),
    sql<{
      enforce_readiness: boolean;
    }>`SELECT enforce_readiness FROM customs_settings WHERE account_id = ${options.accountId}::uuid`,
  );
  return { enforce_readiness: row?.enforce_readiness ?? false };
}

export async function setCustomsSettings(
  options: { accountId: string; origin: AuditOrigin },
  settings: TCustomsSettings,
): Promise<TCustomsSettings> {
  return pgTransaction(async (client) => {
    const before = await queryRow(
      client,
      sql<{
        enforce_readiness: boolean;
      }>`SELECT enforce_readiness FROM customs_settings WHERE account_id = ${options.accountId}::uuid FOR UPDATE`,
    );
    await execute(
      client,
      sql`INSERT INTO customs_settings (account_id, enforce_readiness, updated_at) VALUES (${options.accountId}::uuid, ${settings.enforce_readiness}, now())
       ON CONFLICT (account_id) DO UPDATE SET enforce_readiness = EXCLUDED.enforce_readiness, updated_at = now()`,
    );
    const was = before?.enforce_readiness ?? false;
    if (was !== settings.enforce_readiness) {
      await recordAudit(
        options.origin,
        {
          accountId: options.accountId,
          action: 'settings.updated',
          target: { type: 'settings', id: 'customs' },
          details: { enforce_readiness_before: was, enforce_readiness: settings.enforce_readiness },
        },
        client,
      );
    }
    return { enforce_readiness: settings.enforce_readiness };
  });
}
