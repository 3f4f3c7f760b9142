import 'server-only';
import type pg from 'pg';
import { recordAudit, type AuditOrigin } from '@/lib/audit/record-audit';
import { canonicalJson } from '@/lib/canonical-hash';
import { pgTransaction } from '@/lib/db';
import type { Environment } from '@/lib/generated/prisma/enums';
import { AppError, validationError, type ErrorDetail } from '@/lib/errors/app-error';
import { isCarrierBarcode, normalizeCarrierBarcode } from '@/lib/schemas/carrier-barcode';
import { ZContainerPackage } from '@/lib/schemas/container-manifest';
import { customs, type TCustoms } from '@/lib/schemas/customs';
import { AMENDABLE_FIELDS, type AmendableField } from '@/lib/schemas/customs-api';
import { ZPackage } from '@/lib/schemas/package-manifest';
import { formatPath } from '@/lib/schemas/parse';
import { execute, queryRow, sql } from '@/lib/sql';
import { Changes, persist, type PackageRow } from '@/lib/status/engine';
import { withDeadlockRetry } from '@/lib/status/retry';
import { isCustomsOutcome, isPackageStatus } from '@/lib/status/transitions';

// Amending a package's house data (PATCH /packages/{TrackingNumber}): its customs declaration and its consignee, what
// a customs authority reads of a house, until the house leaves: its container departed (or, for a daily package, it
// is in transit), it is cancelled, or its daily manifest is closed. Then 409 not_amendable. One transaction: the
// package row and its container's row locked (container first, as lib/status/engine.ts orders locks), the new body
// checked by the same field rules as at acceptance, written, its event (the timeline and package.amended) and an
// audit record. (docs/decisions/customs.md)

interface Scope {
  accountId: string;
  environment: Environment;
}

/** A container package may be amended while its container is still on the ground. */
const CONTAINER_AMENDABLE = new Set(['manifested', 'received']);
/** A daily package until it is on its way. */
const PACKAGE_AMENDABLE = new Set(['manifested', 'received']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function blank(value: unknown): boolean {
  return value === null || (typeof value === 'string' && value.trim() === '');
}

/** The body's shape: an object naming at least one amendable field and nothing else; every wrong key named at once. */
export function readAmendment(body: unknown): Partial<Record<AmendableField, unknown>> {
  if (!isRecord(body))
    throw validationError([
      { path: '(body)', message: `must be an object of the fields to amend: ${AMENDABLE_FIELDS.join(', ')}` },
    ]);
  const details: ErrorDetail[] = [];
  let unknown = 0;
  for (const key of Object.keys(body)) {
    if ((AMENDABLE_FIELDS as readonly string[]).includes(key)) continue;
    if (++unknown <= 20)
      details.push({
        path: formatPath([key]),
        message: `cannot be amended: only ${AMENDABLE_FIELDS.join(', ')} (a package's house data) can`,
      });
  }
  if (unknown > 20)
    details.push({ path: '(body)', message: `has ${unknown} fields that cannot be amended; the first 20 are named` });
  if (details.length > 0) throw validationError(details);
  const fields = Object.fromEntries(Object.entries(body).filter(([key]) => key !== '__proto__'));
  if (Object.keys(fields).length === 0)
    throw validationError([
      { path: '(body)', message: `names nothing to amend: send one or more of ${AMENDABLE_FIELDS.join(', ')}` },
    ]);
  return fields;
}

interface LockedPackage {
  row: PackageRow;
  body: Record<string, unknown>;
  houseWaybillIssued: boolean;
}

interface Located {
  table: 'packages' | 'container_packages';
  id: string;
  manifest_id: string;
}

/** Where the path's package is, found as GET /packages/{TrackingNumber} finds it (barcode, or tracking number as stored, then in any case). */
export async function locatePackage(client: pg.PoolClient, scope: Scope, identifier: string): Promise<Located> {
  const inScope = sql`x.account_id = ${scope.accountId}::uuid AND x.environment = ${scope.environment}::"Environment"`;
  const match = isCarrierBarcode(identifier)
    ? sql`x.carrier_barcode = ${normalizeCarrierBarcode(identifier)}`
    : sql`lower(x.tracking_number) = lower(${identifier})`;
  const exact = sql`x.tracking_number IS NOT DISTINCT FROM ${identifier}`;
  const found = await queryRow(
    client,
    sql<Located>`
      (SELECT 'container_packages' AS table, x.id::text AS id, x.manifest_id, ${exact} AS exact, 0 AS kind FROM container_packages x WHERE ${inScope} AND ${match})
      UNION ALL
      (SELECT 'packages', x.id::text, x.daily_manifest_id, ${exact}, 1 FROM packages x WHERE ${inScope} AND ${match})
      ORDER BY exact DESC, kind LIMIT 1`,
  );
  if (!found)
    throw new AppError('not_found', 'No package with this tracking number or carrier barcode in this account and environment.');
  return found;
}

interface RawLocked {
  id: string;
  account_id: string;
  environment: Environment;
  tracking_number: string | null;
  carrier_barcode: string;
  house_waybill: string;
  house_waybill_issued: boolean;
  status: string;
  status_updated_at: Date;
  customs_status: string | null;
  customs_status_updated_at: Date | null;
  manifest_id: string;
  container_id: string | null;
  body: Record<string, unknown>;
}

function notAmendable(message: string, current: string): AppError {
  return new AppError('not_amendable', message, { extra: { current_status: current } });
}

/**
 * Locks the package and what decides whether it may change: a container package's container (FOR NO KEY UPDATE, taken
 * first: a departure's FOR UPDATE waits for the amendment, or the amendment sees it departed; two amendments of one
 * container take turns, so two houses cannot take one house waybill at once), a daily package's manifest (FOR KEY
 * SHARE, as a cancel takes it: a close waits or is seen).
 */
async function lockForAmendment(client: pg.PoolClient, scope: Scope, identifier: string): Promise<LockedPackage> {
  const at = await locatePackage(client, scope, identifier);
  let containerId: string | null = null;
  if (at.table === 'container_packages') {
    const container = await queryRow(
      client,
      sql<{
        container_id: string;
        status: string;
      }>`SELECT container_id, status FROM container_manifests WHERE id = ${at.manifest_id} FOR NO KEY UPDATE`,
    );
    if (!container)
      throw new AppError('not_found', 'No package with this tracking number or carrier barcode in this account and environment.');
    if (!CONTAINER_AMENDABLE.has(container.status))
      throw notAmendable(
        `Container ${container.container_id} is ${container.status}: its houses' data went with it and can no longer be amended.`,
        container.status,
      );
    containerId = container.container_id;
  } else {
    const manifest = await queryRow(
      client,
      sql<{ status: string }>`SELECT status FROM daily_manifests WHERE id = ${at.manifest_id} FOR KEY SHARE`,
    );
    if (manifest?.status === 'closed')
      throw notAmendable(`Manifest ${at.manifest_id} is closed: a closed manifest is handed over as it was closed.`, 'closed');
  }
  const table = sql.id(at.table);
  const raw = await queryRow(
    client,
    sql<RawLocked>`SELECT id::text AS id, account_id, environment, tracking_number, carrier_barcode, house_waybill, house_waybill_issued,
              status, status_updated_at, customs_status, customs_status_updated_at,
              ${at.table === 'packages' ? sql`daily_manifest_id` : sql`manifest_id`} AS manifest_id, ${containerId}::text AS container_id,
              ${at.table === 'packages' ? sql`data` : sql`detail`} AS body
       FROM ${table} WHERE id = ${at.id}::bigint FOR UPDATE`,
  );
  if (!raw || !isPackageStatus(raw.status))
    throw new AppError('not_found', 'No package with this tracking number or carrier barcode in this account and environment.');
  const name = raw.tracking_number ?? raw.carrier_barcode;
  if (raw.status === 'cancelled') throw notAmendable(`Package ${name} is cancelled.`, raw.status);
  if (at.table === 'packages' && !PACKAGE_AMENDABLE.has(raw.status))
    throw notAmendable(
      `Package ${name} is ${raw.status}: it is on its way, and its house data can no longer be amended.`,
      raw.status,
    );
  return {
    row: {
      table: at.table,
      id: raw.id,
      accountId: raw.account_id,
      environment: raw.environment,
      manifestId: raw.manifest_id,
      trackingNumber: raw.tracking_number,
      carrierBarcode: raw.carrier_barcode,
      houseWaybill: raw.house_waybill,
      containerId: raw.container_id,
      status: raw.status,
      statusUpdatedAt: raw.status_updated_at,
      customsStatus: raw.customs_status !== null && isCustomsOutcome(raw.customs_status) ? raw.customs_status : null,
      customsStatusUpdatedAt: raw.customs_status_updated_at,
    },
    body: raw.body,
    houseWaybillIssued: raw.house_waybill_issued,
  };
}

/**
 * The declaration after a merge patch (RFC 7396, one level): each field sent replaces the stored one, null or "" removes
 * it, Items replaces the list whole; `null` or "" for Customs itself removes the declaration. The package's own issued
 * house waybill sent back is the same as leaving it out. Checked whole by the acceptance's rules.
 */
function mergedCustoms(
  stored: TCustoms | undefined,
  patch: unknown,
  issued: string | undefined,
  details: ErrorDetail[],
): TCustoms | undefined {
  if (patch === undefined) return stored;
  if (blank(patch)) return undefined;
  if (!isRecord(patch)) {
    details.push({
      path: 'Customs',
      message: 'must be an object: the declaration fields to change (null or "" removes the declaration)',
    });
    return stored;
  }
  const merged: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    if (key === '__proto__') continue;
    if (blank(value)) delete merged[key];
    else merged[key] = value;
  }
  const sentHouse = merged.HouseWaybill;
  if (issued !== undefined && typeof sentHouse === 'string' && sentHouse.trim().toUpperCase() === issued)
    delete merged.HouseWaybill;
  const parsed = customs().safeParse(merged);
  if (!parsed.success) {
    for (const issue of parsed.error.issues.slice(0, 100))
      details.push({ path: formatPath(['Customs', ...issue.path]), message: issue.message });
    return stored;
  }
  const value = parsed.data;
  return value && Object.keys(value).length > 0 ? value : undefined;
}

/** What the amendment changes, as paths (compared as canonical JSON: jsonb keeps its own key order) (ToPhone, Customs.Items, Customs.HouseWaybill): the event and the audit record name them. */
function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const field of AMENDABLE_FIELDS) {
    if (field === 'Customs') {
      const a = (before.Customs ?? {}) as Record<string, unknown>;
      const b = (after.Customs ?? {}) as Record<string, unknown>;
      for (const key of new Set([...Object.keys(a), ...Object.keys(b)]))
        if (canonicalJson(a[key]) !== canonicalJson(b[key])) out.push(`Customs.${key}`);
    } else if (canonicalJson(before[field]) !== canonicalJson(after[field])) {
      out.push(field);
    }
  }
  return out;
}

/**
 * PATCH /packages/{TrackingNumber}: amends the package's house data; an amendment that changes nothing is answered as a
 * success and records nothing. Resolves to whether anything changed.
 */
export async function amendPackage(
  options: Scope & { identifier: string; amendment: Partial<Record<AmendableField, unknown>>; origin: AuditOrigin },
): Promise<{ changed: string[] }> {
  return withDeadlockRetry(() =>
    pgTransaction(async (client) => {
      const locked = await lockForAmendment(client, options, options.identifier);
      const { row, body } = locked;
      const shape = row.table === 'packages' ? ZPackage.shape : ZContainerPackage.shape;
      const details: ErrorDetail[] = [];
      const next: Record<string, unknown> = { ...body };
      for (const [field, value] of Object.entries(options.amendment) as [AmendableField, unknown][]) {
        if (field === 'Customs') continue;
        const schema = shape[field];
        if (blank(value)) {
          // A daily package's ToPostalCode is the contract's and required: it can be changed, never removed.
          const required = !schema.safeParse(undefined).success;
          if (required) details.push({ path: field, message: 'is required: it can be changed, not removed' });
          else delete next[field];
          continue;
        }
        const parsed = schema.safeParse(value);
        if (parsed.success) next[field] = parsed.data;
        else
          for (const issue of parsed.error.issues)
            details.push({ path: formatPath([field, ...issue.path]), message: issue.message });
      }
      const storedCustoms = isRecord(body.Customs) ? (body.Customs as TCustoms) : undefined;
      const issued = locked.houseWaybillIssued ? row.houseWaybill : undefined;
      const declaration = mergedCustoms(storedCustoms, options.amendment.Customs, issued, details);
      if (declaration === undefined) delete next.Customs;
      else next.Customs = declaration;
      if (details.length > 0) throw validationError(details);

      const fields = changedFields(body, next);
      if (fields.length === 0) return { changed: [] };

      // The house waybill: the declaration's, else the one issued earlier, else a new one (never one used before).
      const given = declaration?.HouseWaybill;
      let houseWaybill = row.houseWaybill;
      let houseWaybillIssued = locked.houseWaybillIssued;
      if (given !== undefined && given !== row.houseWaybill) {
        if (row.table === 'container_packages') {
          const taken = await queryRow(
            client,
            sql<{ position: number; tracking_number: string | null }>`SELECT position, tracking_number FROM container_packages
             WHERE manifest_id = ${row.manifestId} AND house_waybill = ${given} AND id <> ${row.id}::bigint LIMIT 1`,
          );
          if (taken)
            throw new AppError(
              'conflict',
              `House waybill ${given} is already a house of this container; each parcel is a house of its own.`,
              {
                details: [
                  {
                    path: 'Customs.HouseWaybill',
                    message: `already the house waybill of ContainerDetails[${taken.position}]${taken.tracking_number ? ` (${taken.tracking_number})` : ''}`,
                  },
                ],
              },
            );
        }
        houseWaybill = given;
        houseWaybillIssued = false;
      } else if (given === undefined && !houseWaybillIssued) {
        const drawn = await queryRow(client, sql<{ hwb: string }>`SELECT next_house_waybill() AS hwb`);
        if (!drawn) throw new Error('next_house_waybill() answered nothing');
        houseWaybill = drawn.hwb;
        houseWaybillIssued = true;
      }

      const toPostalCode = typeof next.ToPostalCode === 'string' ? next.ToPostalCode : null;
      await execute(
        client,
        row.table === 'packages'
          ? sql`UPDATE packages SET data = ${JSON.stringify(next)}::jsonb, house_waybill = ${houseWaybill}, house_waybill_issued = ${houseWaybillIssued},
                  to_postal_code = coalesce(${toPostalCode}::text, to_postal_code)
                WHERE id = ${row.id}::bigint`
          : sql`UPDATE container_packages SET detail = ${JSON.stringify(next)}::jsonb, house_waybill = ${houseWaybill},
                  house_waybill_issued = ${houseWaybillIssued}, to_postal_code = ${toPostalCode}
                WHERE id = ${row.id}::bigint`,
      );
      const previous = row.houseWaybill;
      row.houseWaybill = houseWaybill;
      const changes = new Changes();
      changes.amendPackage(
        row,
        { fields, ...(previous !== houseWaybill ? { previous_house_waybill: previous } : {}) },
        { occurredAt: new Date(), location: null, source: 'api' },
      );
      await persist(client, changes);
      await recordAudit(
        options.origin,
        {
          accountId: options.accountId,
          environment: options.environment,
          action: 'package.amended',
          target: { type: 'package', id: row.trackingNumber ?? row.carrierBarcode },
          details: {
            manifest_id: row.manifestId,
            fields,
            house_waybill: houseWaybill,
            ...(previous !== houseWaybill ? { previous_house_waybill: previous } : {}),
          },
        },
        client,
      );
      return { changed: fields };
    }),
  );
}
