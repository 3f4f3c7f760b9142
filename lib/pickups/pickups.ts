import 'server-only';
import { randomBytes } from 'node:crypto';
import { pgPool, pgTransaction } from '@/lib/db';
import { AppError, validationError } from '@/lib/errors/app-error';
import type { Environment } from '@/lib/generated/prisma/enums';
import { validateAddress } from '@/lib/addresses/validate-address';
import { decodeCursor, encodeCursor } from '@/lib/pagination/keyset';
import type { TPickup, TSchedulePickupRequest } from '@/lib/schemas/pickups';
import type { TWarning } from '@/lib/schemas/unknown-fields';
import { execute, queryRow, queryRows, sql, type Queryable } from '@/lib/sql';
import { enqueueEvent } from '@/lib/webhooks/enqueue-event';
import { parseInstant, windowViolations, type Violation } from './window';

interface Scope {
  accountId: string;
  environment: Environment;
}

interface PickupRow {
  id: string;
  status: TPickup['status'];
  manifest_id: string | null;
  carrier_barcodes: string[];
  tracking_numbers: string[];
  address: Record<string, string>;
  ready_at: Date;
  close_at: Date;
  instructions: string;
  created_at: Date;
  status_updated_at: Date;
}

interface Candidate {
  tracking_number: string | null;
  carrier_barcode: string;
  status: string;
  service: string | null;
}

function present(row: PickupRow, warnings: TWarning[] = []): TPickup {
  return {
    id: row.id,
    object: 'pickup',
    status: row.status,
    manifest_id: row.manifest_id,
    package_count: row.carrier_barcodes.length,
    tracking_numbers: row.tracking_numbers,
    address: row.address,
    ready_at: row.ready_at.toISOString(),
    close_at: row.close_at.toISOString(),
    instructions: row.instructions,
    created_at: row.created_at.toISOString(),
    status_updated_at: row.status_updated_at.toISOString(),
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

const newPickupId = () =>
  `pu_${randomBytes(15)
    .toString('base64url')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '0')}`;

/** A manifest's packages that are still with the shipper, or why none can be collected. */
async function manifestPackages(on: Queryable, scope: Scope, manifestId: string): Promise<Candidate[]> {
  const container = await queryRow(
    on,
    sql<{ status: string; service_name: string }>`SELECT status, service_name FROM container_manifests
      WHERE account_id = ${scope.accountId}::uuid AND environment = ${scope.environment}::"Environment" AND id = ${manifestId}`,
  );
  if (container) {
    if (container.status !== 'manifested') {
      throw validationError([
        { path: 'manifest_id', message: `the container is ${container.status}: only one not yet received can be collected` },
      ]);
    }
    return queryRows(
      on,
      sql<Candidate>`SELECT tracking_number, carrier_barcode, status, ${container.service_name}::text AS service
        FROM container_packages WHERE manifest_id = ${manifestId} AND status = 'manifested' ORDER BY position`,
    );
  }
  const daily = await queryRow(
    on,
    sql<{ id: string }>`SELECT id FROM daily_manifests
      WHERE account_id = ${scope.accountId}::uuid AND environment = ${scope.environment}::"Environment" AND id = ${manifestId}`,
  );
  // Another account's id reads as no manifest at all.
  if (!daily)
    throw validationError([{ path: 'manifest_id', message: 'no manifest of this account and environment has this id' }]);
  const packages = await queryRows(
    on,
    sql<Candidate>`SELECT tracking_number, carrier_barcode, status, service_name AS service
      FROM packages WHERE daily_manifest_id = ${manifestId} AND status = 'manifested' ORDER BY id`,
  );
  if (packages.length === 0) {
    throw validationError([{ path: 'manifest_id', message: 'none of its packages is still waiting to be collected' }]);
  }
  return packages;
}

/** Named packages, by tracking number (any case) or carrier barcode; each must be this account's and not yet collected. */
async function namedPackages(on: Queryable, scope: Scope, identifiers: readonly string[]): Promise<Candidate[]> {
  const wanted = identifiers.map((i) => i.trim());
  const lower = wanted.map((i) => i.toLowerCase());
  const rows = await queryRows(
    on,
    sql<Candidate & { key: string }>`
      SELECT lower(tracking_number) AS key, tracking_number, carrier_barcode, status, service_name AS service FROM packages
        WHERE account_id = ${scope.accountId}::uuid AND environment = ${scope.environment}::"Environment"
          AND (lower(tracking_number) = ANY(${lower}::text[]) OR carrier_barcode = ANY(${wanted}::text[]))
      UNION ALL
      SELECT lower(cp.tracking_number), cp.tracking_number, cp.carrier_barcode, cp.status, cm.service_name FROM container_packages cp
        JOIN container_manifests cm ON cm.id = cp.manifest_id
        WHERE cp.account_id = ${scope.accountId}::uuid AND cp.environment = ${scope.environment}::"Environment"
          AND (lower(cp.tracking_number) = ANY(${lower}::text[]) OR cp.carrier_barcode = ANY(${wanted}::text[]))`,
  );
  const found = new Map<string, Candidate>();
  for (const row of rows) {
    if (row.key) found.set(row.key, row);
    found.set(row.carrier_barcode.toLowerCase(), row);
  }
  const problems: Violation[] = [];
  const seen = new Set<string>();
  const out: Candidate[] = [];
  lower.forEach((key, i) => {
    const row = found.get(key);
    if (!row) problems.push({ path: `tracking_numbers[${i}]`, message: 'no package of this account and environment has it' });
    else if (row.status !== 'manifested')
      problems.push({
        path: `tracking_numbers[${i}]`,
        message: `the package is ${row.status}: only one not yet received can be collected`,
      });
    else if (seen.has(row.carrier_barcode))
      problems.push({ path: `tracking_numbers[${i}]`, message: 'names a package already listed' });
    else {
      seen.add(row.carrier_barcode);
      out.push(row);
    }
  });
  if (problems.length > 0) throw validationError(problems);
  return out;
}

export async function schedulePickup(scope: Scope, request: TSchedulePickupRequest, now = new Date()): Promise<TPickup> {
  const byManifest = request.manifest_id !== undefined;
  const byPackages = request.tracking_numbers !== undefined && request.tracking_numbers.length > 0;
  if (byManifest === byPackages) {
    throw validationError([{ path: 'manifest_id', message: 'give either manifest_id or tracking_numbers (not both)' }]);
  }
  const readyAt = parseInstant(request.ready_at, 'ready_at');
  const closeAt = parseInstant(request.close_at, 'close_at');
  const bad = [readyAt, closeAt].filter((v): v is Violation => !(v instanceof Date));
  if (bad.length > 0) throw validationError(bad);
  const address = request.address;
  const check = validateAddress({
    address1: address.address1,
    city: address.city,
    state: address.state,
    postalCode: address.postal_code,
    country: address.country,
  });
  const warnings = check.messages.map((m) => ({ path: `address.${m.path}`, message: m.message }));

  const row = await pgTransaction(async (tx) => {
    // One scheduler at a time per account and environment, so that two pickups cannot both take a package.
    await execute(tx, sql`SELECT pg_advisory_xact_lock(hashtext(${`pickups:${scope.accountId}:${scope.environment}`}))`);
    const packages = byManifest
      ? await manifestPackages(tx, scope, request.manifest_id!)
      : await namedPackages(tx, scope, request.tracking_numbers!);
    const services = [...new Set(packages.map((p) => p.service ?? ''))];
    const window = windowViolations({ readyAt: readyAt as Date, closeAt: closeAt as Date, now, services });
    if (window.length > 0) throw validationError(window);
    const barcodes = packages.map((p) => p.carrier_barcode);
    const taken = await queryRow(
      tx,
      sql<{ id: string }>`SELECT id FROM pickups WHERE account_id = ${scope.accountId}::uuid
        AND environment = ${scope.environment}::"Environment" AND status = 'scheduled' AND carrier_barcodes && ${barcodes}::text[] LIMIT 1`,
    );
    if (taken) throw new AppError('conflict', `Some of these packages are already on pickup ${taken.id}; cancel it first.`);
    const stored = Object.fromEntries(Object.entries(address).filter((e): e is [string, string] => typeof e[1] === 'string'));
    const inserted = await queryRow(
      tx,
      sql<PickupRow>`INSERT INTO pickups (id, account_id, environment, manifest_id, carrier_barcodes, tracking_numbers, address, ready_at, close_at, instructions)
        VALUES (${newPickupId()}, ${scope.accountId}::uuid, ${scope.environment}::"Environment", ${request.manifest_id ?? null},
                ${barcodes}::text[], ${packages.map((p) => p.tracking_number ?? p.carrier_barcode)}::text[], ${JSON.stringify(stored)}::jsonb,
                ${readyAt as Date}, ${closeAt as Date}, ${request.instructions ?? ''})
        RETURNING *`,
    );
    await enqueueEvent(tx, { ...scope, eventType: 'pickup.scheduled', payload: eventPayload('pickup.scheduled', inserted!) });
    return inserted!;
  });
  return present(row, warnings);
}

function eventPayload(type: 'pickup.scheduled' | 'pickup.cancelled' | 'pickup.completed', row: PickupRow) {
  return {
    type,
    pickup_id: row.id,
    status: row.status,
    manifest_id: row.manifest_id,
    package_count: row.carrier_barcodes.length,
    ready_at: row.ready_at.toISOString(),
    close_at: row.close_at.toISOString(),
  };
}

export async function getPickup(scope: Scope, id: string): Promise<TPickup> {
  const row = await queryRow(
    pgPool(),
    sql<PickupRow>`SELECT * FROM pickups WHERE account_id = ${scope.accountId}::uuid
      AND environment = ${scope.environment}::"Environment" AND id = ${id}`,
  );
  if (!row) throw new AppError('not_found', `No pickup ${id.slice(0, 100)} in this account and environment.`);
  return present(row);
}

export async function listPickups(
  scope: Scope,
  query: { limit: number; cursor?: string; status?: TPickup['status'] },
): Promise<{ object: 'list'; data: TPickup[]; has_more: boolean; next_cursor: string | null }> {
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  const rows = await queryRows(
    pgPool(),
    sql<PickupRow>`SELECT * FROM pickups WHERE account_id = ${scope.accountId}::uuid AND environment = ${scope.environment}::"Environment"
      ${query.status ? sql`AND status = ${query.status}` : sql.empty}
      ${after ? sql`AND (created_at, id) < (${new Date(after.t)}, ${after.i})` : sql.empty}
      ORDER BY created_at DESC, id DESC LIMIT ${query.limit + 1}`,
  );
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const more = rows.length > query.limit;
  return {
    object: 'list',
    data: page.map((r) => present(r)),
    has_more: more,
    next_cursor: more && last ? encodeCursor({ t: last.created_at.toISOString(), k: 0, i: last.id }) : null,
  };
}

/** scheduled → cancelled (the shipper, before the window opens) or completed (the carrier; the simulator in test). */
// The carrier's own call names no account (its tokens have none): the pickup's id, unique across the carrier, is enough.
async function move(
  scope: Scope | { environment: Environment },
  id: string,
  to: 'cancelled' | 'completed',
  now: Date,
): Promise<TPickup> {
  const row = await pgTransaction(async (tx) => {
    const current = await queryRow(
      tx,
      sql<
        PickupRow & { account_id: string }
      >`SELECT * FROM pickups WHERE environment = ${scope.environment}::"Environment" AND id = ${id}
        ${'accountId' in scope ? sql`AND account_id = ${scope.accountId}::uuid` : sql.empty} FOR UPDATE`,
    );
    if (!current) throw new AppError('not_found', `No pickup ${id.slice(0, 100)} in this account and environment.`);
    if (current.status === to) return current;
    if (current.status !== 'scheduled') {
      throw new AppError(to === 'cancelled' ? 'not_cancellable' : 'illegal_transition', `The pickup is ${current.status}.`);
    }
    if (to === 'cancelled' && current.ready_at <= now) {
      throw new AppError(
        'not_cancellable',
        `The pickup's window opened at ${current.ready_at.toISOString()}; call the carrier instead.`,
      );
    }
    const moved = await queryRow(
      tx,
      sql<PickupRow>`UPDATE pickups SET status = ${to}, status_updated_at = now() WHERE id = ${id} RETURNING *`,
    );
    const type = to === 'cancelled' ? 'pickup.cancelled' : 'pickup.completed';
    await enqueueEvent(tx, {
      accountId: current.account_id,
      environment: scope.environment,
      eventType: type,
      payload: eventPayload(type, moved!),
    });
    return moved!;
  });
  return present(row);
}

export const cancelPickup = (scope: Scope, id: string, now = new Date()) => move(scope, id, 'cancelled', now);
export const completePickup = (scope: Scope | { environment: Environment }, id: string, now = new Date()) =>
  move(scope, id, 'completed', now);
