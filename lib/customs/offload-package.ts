import 'server-only';
import { recordAudit, type AuditOrigin } from '@/lib/audit/record-audit';
import { pgTransaction } from '@/lib/db';
import type { Environment } from '@/lib/generated/prisma/enums';
import { AppError } from '@/lib/errors/app-error';
import { execute, queryRow, sql } from '@/lib/sql';
import { Changes, persist } from '@/lib/status/engine';
import { withDeadlockRetry } from '@/lib/status/retry';
import { isCustomsOutcome, isPackageStatus } from '@/lib/status/transitions';
import { locatePackage } from './amend-package';

// Offloading a held house (POST /packages/{TrackingNumber}/offload): a container's house that customs holds
// (do_not_load, or information or screening asked for) taken out of its container while the container is on the
// ground, so the rest departs. The house keeps its status and its customs outcome; offloaded_at marks it, an event
// (package.offloaded, in its timeline and as a webhook) and an audit record say so. From then on the container's
// departure, its readiness (and the enforcement that reads it) and its do_not_load hold leave the house out
// (lib/status/engine.ts lockContainers, lib/customs/get-readiness.ts). docs/decisions/customs.md.

interface Scope {
  accountId: string;
  environment: Environment;
}

/** Outcomes that hold a house: the authority stopped it or wants more before it flies. */
export const HOLD_OUTCOMES: ReadonlySet<string> = new Set(['do_not_load', 'information_requested', 'screening_requested']);
/** A container still on the ground. */
const ON_THE_GROUND = new Set(['manifested', 'received']);

function notOffloadable(message: string, current: string): AppError {
  return new AppError('not_offloadable', message, { extra: { current_status: current } });
}

const NOT_FOUND = 'No package with this tracking number or carrier barcode in this account and environment.';

/**
 * Offloads the house; resolves to whether it was offloaded now (false: it already was, and a retry changes nothing).
 * The container is locked first (FOR NO KEY UPDATE, as an amendment takes it): a departure's FOR UPDATE waits, and
 * then leaves the house behind, or the offload sees the container departed.
 */
export async function offloadPackage(
  options: Scope & { identifier: string; origin: AuditOrigin },
): Promise<{ offloaded: boolean; offloadedAt: Date }> {
  return withDeadlockRetry(() =>
    pgTransaction(async (client) => {
      const at = await locatePackage(client, options, options.identifier);
      if (at.table !== 'container_packages')
        throw notOffloadable(
          `Package ${options.identifier} is on a daily manifest: only a container's house can be offloaded from its container.`,
          'daily',
        );
      const container = await queryRow(
        client,
        sql<{ container_id: string; status: string }>`SELECT container_id, status FROM container_manifests
          WHERE id = ${at.manifest_id} FOR NO KEY UPDATE`,
      );
      if (!container) throw new AppError('not_found', NOT_FOUND);
      const raw = await queryRow(
        client,
        sql<{
          id: string;
          tracking_number: string | null;
          carrier_barcode: string;
          house_waybill: string;
          status: string;
          status_updated_at: Date;
          customs_status: string | null;
          customs_status_updated_at: Date | null;
          offloaded_at: Date | null;
        }>`SELECT id::text AS id, tracking_number, carrier_barcode, house_waybill, status, status_updated_at, customs_status,
                  customs_status_updated_at, offloaded_at
           FROM container_packages WHERE id = ${at.id}::bigint FOR UPDATE`,
      );
      if (!raw || !isPackageStatus(raw.status)) throw new AppError('not_found', NOT_FOUND);
      // A retry of an offload that was answered (or lost on the way) is the same success, recorded once.
      if (raw.offloaded_at) return { offloaded: false, offloadedAt: raw.offloaded_at };
      const name = raw.tracking_number ?? raw.carrier_barcode;
      if (!ON_THE_GROUND.has(container.status))
        throw notOffloadable(
          `Container ${container.container_id} is ${container.status}: a house can only be offloaded before the container departs.`,
          container.status,
        );
      if (raw.status === 'cancelled') throw notOffloadable(`Package ${name} is cancelled.`, raw.status);
      if (raw.customs_status === null || !HOLD_OUTCOMES.has(raw.customs_status))
        throw notOffloadable(
          `Package ${name} is not held by customs (its customs outcome is ${raw.customs_status ?? 'none yet'}): only a house on ${[...HOLD_OUTCOMES].join(', ')} is offloaded; it departs with its container.`,
          raw.customs_status ?? 'none',
        );
      const now = new Date();
      await execute(client, sql`UPDATE container_packages SET offloaded_at = ${now} WHERE id = ${raw.id}::bigint`);
      const changes = new Changes();
      changes.offloadPackage(
        {
          table: 'container_packages',
          id: raw.id,
          accountId: options.accountId,
          environment: options.environment,
          manifestId: at.manifest_id,
          trackingNumber: raw.tracking_number,
          carrierBarcode: raw.carrier_barcode,
          houseWaybill: raw.house_waybill,
          containerId: container.container_id,
          status: raw.status,
          statusUpdatedAt: raw.status_updated_at,
          customsStatus: isCustomsOutcome(raw.customs_status) ? raw.customs_status : null,
          customsStatusUpdatedAt: raw.customs_status_updated_at,
        },
        { customs_status: raw.customs_status },
        { occurredAt: now, location: null, source: 'api' },
      );
      await persist(client, changes);
      await recordAudit(
        options.origin,
        {
          accountId: options.accountId,
          environment: options.environment,
          action: 'package.offloaded',
          target: { type: 'package', id: name },
          details: {
            manifest_id: at.manifest_id,
            container_id: container.container_id,
            house_waybill: raw.house_waybill,
            customs_status: raw.customs_status,
          },
        },
        client,
      );
      return { offloaded: true, offloadedAt: now };
    }),
  );
}
