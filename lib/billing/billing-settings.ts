import 'server-only';
import type { AuditOrigin } from '@/lib/audit/record-audit';
import { recordAudit } from '@/lib/audit/record-audit';
import { pgPool, pgTransaction } from '@/lib/db';
import type { Environment } from '@/lib/generated/prisma/enums';
import type { TBillingSettings } from '@/lib/schemas/invoices';
import { queryRow, sql, type Queryable } from '@/lib/sql';
import type { BillingPeriodKind } from './periods';

// How often an account is invoiced (one setting for both environments) and the zone its periods are read in (the
// environment's close-out time zone, UTC without one).

interface Scope {
  accountId: string;
  environment: Environment;
}

export async function getBillingSettings(scope: Scope, on: Queryable = pgPool()): Promise<TBillingSettings> {
  const row = await queryRow(
    on,
    sql<{ period: string | null; time_zone: string | null }>`
      SELECT (SELECT period FROM billing_settings WHERE account_id = ${scope.accountId}::uuid) AS period,
             (SELECT time_zone FROM close_out_settings WHERE account_id = ${scope.accountId}::uuid
                AND environment = ${scope.environment}::"Environment") AS time_zone`,
  );
  return { period: row?.period === 'week' ? 'week' : 'month', time_zone: row?.time_zone ?? 'UTC' };
}

/** Takes effect from the next invoice: the period after the last invoice's end (lib/billing/periods.ts nextInvoicePeriod). */
export async function setBillingPeriod(
  scope: Scope & { origin: AuditOrigin },
  period: BillingPeriodKind,
): Promise<TBillingSettings> {
  return pgTransaction(async (client) => {
    const before = await queryRow(
      client,
      sql<{ period: string }>`SELECT period FROM billing_settings WHERE account_id = ${scope.accountId}::uuid FOR UPDATE`,
    );
    await queryRow(
      client,
      sql`INSERT INTO billing_settings (account_id, period, updated_at) VALUES (${scope.accountId}::uuid, ${period}, now())
          ON CONFLICT (account_id) DO UPDATE SET period = EXCLUDED.period, updated_at = now()`,
    );
    const was = before?.period ?? 'month';
    if (was !== period) {
      await recordAudit(
        scope.origin,
        {
          accountId: scope.accountId,
          environment: null,
          action: 'settings.updated',
          target: { type: 'settings', id: 'billing' },
          details: { period_before: was, period },
        },
        client,
      );
    }
    return getBillingSettings(scope, client);
  });
}
