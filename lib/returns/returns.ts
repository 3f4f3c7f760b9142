import 'server-only';
import { pgPool, pgTransaction } from '@/lib/db';
import { recordAudit, type AuditOrigin } from '@/lib/audit/record-audit';
import { AppError } from '@/lib/errors/app-error';
import type { Environment } from '@/lib/generated/prisma/enums';
import { createPackageIn } from '@/lib/packages/create-package-manifest';
import { isCarrierBarcode, normalizeCarrierBarcode } from '@/lib/schemas/carrier-barcode';
import { ZPackage } from '@/lib/schemas/package-manifest';
import { formatPath } from '@/lib/schemas/parse';
import { execute, queryRow, queryRows, sql } from '@/lib/sql';
import { PACKAGE_RETURN_CREATED_EVENT } from '@/lib/schemas/webhooks';
import { enqueueEvent } from '@/lib/webhooks/enqueue-event';
import { wakeDeliveryWorkers } from '@/lib/webhooks/wake-workers';

// Returns (docs/decisions/returns.md): a new daily-manifest package from the recipient back to the shipper, linked to
// the original by carrier barcode. One live return per original: a second request answers the first (created false)
// until that one is cancelled. Serialised per original by an advisory lock, so concurrent requests make one return.

interface Scope {
  accountId: string;
  environment: Environment;
}

export const RETURNABLE_STATUSES = ['out_for_delivery', 'delivered'] as const;

interface OriginalRow {
  kind: number;
  tracking_number: string | null;
  carrier_barcode: string;
  status: string;
  service_name: string | null;
  body: Record<string, unknown>;
  header: Record<string, unknown> | null;
}

/** The package by carrier barcode or tracking number (any case), in this account and environment only. */
async function findOriginal(scope: Scope, identifier: string): Promise<OriginalRow | undefined> {
  const inScope = sql`x.account_id = ${scope.accountId}::uuid AND x.environment = ${scope.environment}::"Environment"`;
  const match = isCarrierBarcode(identifier)
    ? sql`x.carrier_barcode = ${normalizeCarrierBarcode(identifier)}`
    : sql`lower(x.tracking_number) = lower(${identifier})`;
  const exact = sql`x.tracking_number IS NOT DISTINCT FROM ${identifier}`;
  return queryRow(
    pgPool(),
    sql<OriginalRow>`
      (SELECT 0 AS kind, x.tracking_number, x.carrier_barcode, x.status, m.service_name, x.detail AS body, m.header, ${exact} AS exact
       FROM container_packages x JOIN container_manifests m ON m.id = x.manifest_id WHERE ${inScope} AND ${match})
      UNION ALL
      (SELECT 1, x.tracking_number, x.carrier_barcode, x.status, x.service_name, x.data, NULL, ${exact}
       FROM packages x WHERE ${inScope} AND ${match})
      ORDER BY exact DESC, kind LIMIT 1`,
  );
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/**
 * The return's request, as POST /wf/package would take it: from the original's recipient to its shipper (a daily
 * package's From fields; a container package's: its manifest header's), the same service, size and weight.
 */
function returnRequest(original: OriginalRow, trackingNumber: string, now: Date): Record<string, unknown> {
  const from = original.kind === 0 ? (original.header ?? {}) : original.body;
  const to = original.body;
  const country = text(to.ToCountry) ?? text(from.FromCountry);
  return {
    TrackingNumber: trackingNumber,
    FinalMileCarrier: text(original.body.FinalMileCarrier) ?? text(from.FinalMileCarrier) ?? 'Return',
    ManifestDate: now.toISOString(),
    ServiceName: original.service_name ?? text(from.ServiceName),
    FromName: text(to.ToName),
    FromCompany: text(to.ToName) ?? text(to.Consignee) ?? 'Recipient',
    FromPhone: text(to.ToPhone),
    FromEmail: text(to.ToEmail),
    FromAddress1: text(to.ToAddress1),
    FromAddress2: text(to.ToAddress2),
    FromCity: text(to.ToCity),
    FromState: text(to.ToState),
    FromPostalCode: text(to.ToPostalCode),
    FromCountry: country,
    ToName: text(from.FromName) ?? text(from.FromCompany),
    Consignee: text(from.FromCompany),
    ToPhone: text(from.FromPhone),
    ToEmail: text(from.FromEmail),
    ToAddress1: text(from.FromAddress1),
    ToAddress2: text(from.FromAddress2),
    ToCity: text(from.FromCity),
    ToState: text(from.FromState),
    ToPostalCode: text(from.FromPostalCode),
    ToCountry: text(from.FromCountry),
    ShipmentDescription: `Return of ${original.tracking_number ?? original.carrier_barcode}`,
    PackageSizeLength: to.PackageSizeLength,
    PackageSizeWidth: to.PackageSizeWidth,
    PackageSizeHeight: to.PackageSizeHeight,
    PackageWeight: to.PackageWeight,
    WeightUnit: to.WeightUnit ?? to.PackageWeightUnit,
    Reference1: text(original.tracking_number) ?? original.carrier_barcode,
  };
}

export interface ReturnLink {
  tracking_number: string | null;
  carrier_barcode: string;
  status: string;
  created_at: string;
}

export interface CreatedReturn {
  created: boolean;
  /** The return package's tracking number (its carrier barcode is in the read). */
  trackingNumber: string;
}

/**
 * POST /packages/{TrackingNumber}/return. 404 for a package not in this account and environment; 409 not_returnable
 * (with current_status) before out for delivery, for a return itself, or when the original lacks what a label needs.
 */
export async function createReturn(
  scope: Scope & {
    identifier: string;
    /** Records the creation in the audit log, in its transaction: a return made without a token (the public page). */
    audit?: { origin: AuditOrigin; via: string };
  },
): Promise<CreatedReturn> {
  const original = await findOriginal(scope, scope.identifier);
  if (!original)
    throw new AppError('not_found', 'No package with this tracking number or carrier barcode in this account and environment.');
  const inScope = sql`account_id = ${scope.accountId}::uuid AND environment = ${scope.environment}::"Environment"`;
  let delivered = false;
  const result = await pgTransaction(async (client) => {
    await execute(client, sql`SELECT pg_advisory_xact_lock(hashtextextended(${`return:${original.carrier_barcode}`}, 0))`);
    const returnOf = await queryRow(
      client,
      sql<{
        original_barcode: string;
      }>`SELECT original_barcode FROM package_returns WHERE ${inScope} AND return_barcode = ${original.carrier_barcode}`,
    );
    if (returnOf)
      throw new AppError(
        'not_returnable',
        `This package is itself the return of ${returnOf.original_barcode}; it cannot be returned.`,
        {
          extra: { current_status: original.status },
        },
      );
    const previous = await queryRows(
      client,
      sql<{ tracking_number: string; status: string }>`
        SELECT p.tracking_number, p.status FROM package_returns r JOIN packages p ON p.carrier_barcode = r.return_barcode
        WHERE r.account_id = ${scope.accountId}::uuid AND r.environment = ${scope.environment}::"Environment"
          AND r.original_barcode = ${original.carrier_barcode}
        ORDER BY r.created_at`,
    );
    const live = previous.find((p) => p.status !== 'cancelled');
    if (live) return { created: false, trackingNumber: live.tracking_number };
    // The status is checked under the lock after the existing return: a return already made answers as made, even if
    // the original moved on since.
    if (!(RETURNABLE_STATUSES as readonly string[]).includes(original.status))
      throw new AppError(
        'not_returnable',
        `The package is ${original.status}: a return can be made once it is out for delivery or delivered.`,
        { extra: { current_status: original.status } },
      );
    const trackingNumber = `RTN-${original.carrier_barcode}-${previous.length + 1}`;
    const parsed = ZPackage.safeParse(returnRequest(original, trackingNumber, new Date()));
    if (!parsed.success)
      throw new AppError(
        'not_returnable',
        'The package lacks what a return label needs (the recipient or shipper address, its size or weight).',
        {
          extra: { current_status: original.status },
          details: parsed.error.issues.slice(0, 10).map((issue) => ({ path: formatPath(issue.path), message: issue.message })),
        },
      );
    const made = await createPackageIn(client, { accountId: scope.accountId, environment: scope.environment, pkg: parsed.data });
    const link = await queryRow(
      client,
      sql<{ carrier_barcode: string }>`
        WITH link AS (
          INSERT INTO package_returns (return_barcode, account_id, environment, original_barcode)
          SELECT carrier_barcode, ${scope.accountId}::uuid, ${scope.environment}::"Environment", ${original.carrier_barcode}
          FROM packages WHERE ${inScope} AND tracking_number = ${trackingNumber}
          RETURNING return_barcode
        ) SELECT return_barcode AS carrier_barcode FROM link`,
    );
    if (scope.audit)
      await recordAudit(
        scope.audit.origin,
        {
          accountId: scope.accountId,
          environment: scope.environment,
          action: 'package.return_created',
          target: { type: 'package', id: original.carrier_barcode },
          details: { return_tracking_number: trackingNumber, via: scope.audit.via },
        },
        client,
      );
    const events = await enqueueEvent(client, {
      accountId: scope.accountId,
      environment: scope.environment,
      eventType: PACKAGE_RETURN_CREATED_EVENT,
      payload: {
        type: PACKAGE_RETURN_CREATED_EVENT,
        original: { tracking_number: original.tracking_number, carrier_barcode: original.carrier_barcode },
        return: { tracking_number: trackingNumber, carrier_barcode: link?.carrier_barcode ?? null, manifest_id: made.manifestId },
      },
    });
    delivered = made.delivered || events.messageIds.length > 0;
    return { created: true, trackingNumber };
  });
  if (delivered) wakeDeliveryWorkers();
  return result;
}

/** The return links of a package (both ways), for its read: what it was returned as, and what it is the return of. */
export async function returnLinks(scope: Scope & { carrierBarcode: string }): Promise<{
  returns: ReturnLink[];
  return_of: { tracking_number: string | null; carrier_barcode: string } | null;
}> {
  const rows = await queryRows(
    pgPool(),
    sql<{ direction: string; tracking_number: string | null; carrier_barcode: string; status: string; created_at: Date }>`
      SELECT 'return' AS direction, p.tracking_number, p.carrier_barcode, p.status, r.created_at
      FROM package_returns r JOIN packages p ON p.carrier_barcode = r.return_barcode
      WHERE r.account_id = ${scope.accountId}::uuid AND r.environment = ${scope.environment}::"Environment" AND r.original_barcode = ${scope.carrierBarcode}
      UNION ALL
      SELECT 'original', coalesce(p.tracking_number, c.tracking_number), r.original_barcode, coalesce(p.status, c.status, ''), r.created_at
      FROM package_returns r LEFT JOIN packages p ON p.carrier_barcode = r.original_barcode
        LEFT JOIN container_packages c ON c.carrier_barcode = r.original_barcode
      WHERE r.account_id = ${scope.accountId}::uuid AND r.environment = ${scope.environment}::"Environment" AND r.return_barcode = ${scope.carrierBarcode}
      ORDER BY created_at`,
  );
  const original = rows.find((r) => r.direction === 'original');
  return {
    returns: rows
      .filter((r) => r.direction === 'return')
      .map((r) => ({
        tracking_number: r.tracking_number,
        carrier_barcode: r.carrier_barcode,
        status: r.status,
        created_at: r.created_at.toISOString(),
      })),
    return_of: original ? { tracking_number: original.tracking_number, carrier_barcode: original.carrier_barcode } : null,
  };
}
