import 'server-only';
import { pgTransaction } from '@/lib/db';
import { execute, queryRows, sql } from '@/lib/sql';
import type { Environment } from '@/lib/generated/prisma/enums';
import {
  allocateEventIds,
  Changes,
  lockContainers,
  lockPackages,
  persist,
  type ContainerRow,
  type PackageRow,
  type Stamp,
} from './engine';
import { withDeadlockRetry } from './retry';
import type { TMeasured } from '@/lib/schemas/lifecycle';
import {
  CUSTOMS_OUTCOMES,
  holdsDeparture,
  isCustomsOutcome,
  nextCustomsStatus,
  nextPackageStatus,
  type ContainerEvent,
  type ContainerStatus,
  type CustomsOutcome,
  type PackageEvent,
  type PackageStatus,
} from './transitions';

export interface Scan {
  scanId: string;
  /** Names one package alone (lib/schemas/carrier-barcode.ts). */
  carrierBarcode?: string;
  trackingNumber?: string;
  /** Alone: the container's scan. With trackingNumber: the container holding that package. */
  containerId?: string;
  /** With trackingNumber: the manifest holding that package. */
  manifestId?: string;
  event: string;
  location: string;
  occurredAt: Date;
  exceptionCode?: string;
  exceptionText?: string;
  /** A customs outcome's (event one of CUSTOMS_OUTCOMES): the authority's reference and what it said. */
  customsReference?: string;
  customsText?: string;
  /** A received scan's: what the hub measured (the package is re-rated on it, lib/billing/adjust.ts). */
  measured?: TMeasured;
}

export type ScanResult =
  | { scan_id: string; result: 'applied'; status: string; previous_status: string }
  | { scan_id: string; result: 'recorded'; status: string; current_status: string; reason: 'out_of_order' | 'repeat' }
  | { scan_id: string; result: 'duplicate' }
  | {
      scan_id: string;
      result: 'refused';
      error: { code: string; message: string; current_status?: string; details?: { path: string; message: string }[] };
    };

const PACKAGE_EVENT_STATUS: Partial<Record<string, { event: PackageEvent; status: PackageStatus }>> = {
  received: { event: 'received', status: 'received' },
  in_transit: { event: 'in_transit', status: 'in_transit' },
  out_for_delivery: { event: 'out_for_delivery', status: 'out_for_delivery' },
  delivered: { event: 'delivered', status: 'delivered' },
  exception: { event: 'exception', status: 'exception' },
  resolved: { event: 'resolved', status: 'in_transit' },
};
const CONTAINER_EVENT_STATUS: Partial<Record<string, { event: ContainerEvent; status: ContainerStatus }>> = {
  received: { event: 'received', status: 'received' },
  departed: { event: 'departed', status: 'departed' },
  arrived: { event: 'arrived', status: 'arrived' },
  closed: { event: 'closed', status: 'closed' },
};

export const PACKAGE_SCAN_EVENTS = [...Object.keys(PACKAGE_EVENT_STATUS), ...CUSTOMS_OUTCOMES];
export const CONTAINER_SCAN_EVENTS = [...Object.keys(CONTAINER_EVENT_STATUS), ...CUSTOMS_OUTCOMES];

/** Why containers about to depart may not (keyed by ManifestID), when something outside the lifecycle decides it. */
export type DepartureCheck = (
  containers: readonly { id: string; accountId: string; containerId: string }[],
) => Promise<Map<string, { code: string; message: string; details: { path: string; message: string }[] }>>;

/**
 * Applies a batch of carrier scans in one transaction, each applied, recorded (history only) or refused on its own,
 * set-based: scan ids claimed in one statement, subjects locked in a few, planned in memory in occurred_at order.
 */
export async function ingestScans(options: {
  environment: Environment;
  scans: readonly Scan[];
  /** Customs readiness (lib/customs), handed in so that the lifecycle does not depend on customs. */
  departures?: DepartureCheck;
}): Promise<ScanResult[]> {
  return withDeadlockRetry(() =>
    pgTransaction(async (client) => {
      const { environment, scans } = options;
      const results = new Map<number, ScanResult>();
      const firstIndex = new Map<string, number>();
      scans.forEach((scan, index) => {
        if (firstIndex.has(scan.scanId)) results.set(index, { scan_id: scan.scanId, result: 'duplicate' });
        else firstIndex.set(scan.scanId, index);
      });
      // A scan_id already stored (or claimed by a concurrent batch, which we wait for) is a duplicate. Each claim names its
      // event id, drawn now.
      const scanIds = [...firstIndex.keys()];
      const drawn = await allocateEventIds(client, scanIds.length);
      const eventIdOf = new Map(scanIds.map((scanId, i) => [scanId, drawn[i] ?? '']));
      const claimed = await queryRows(
        client,
        sql<{ scan_id: string }>`INSERT INTO ops_scans (environment, scan_id, event_id)
       SELECT ${environment}::"Environment", s, e FROM unnest(${scanIds}::text[], ${drawn}::bigint[]) AS v(s, e)
       ON CONFLICT DO NOTHING RETURNING scan_id`,
      );
      const fresh = new Set(claimed.map((r) => r.scan_id));
      for (const [scanId, index] of firstIndex)
        if (!fresh.has(scanId)) results.set(index, { scan_id: scanId, result: 'duplicate' });
      const todo = [...firstIndex.entries()].filter(([scanId]) => fresh.has(scanId)).map(([, index]) => index);

      const scope = { environment, accountId: null };
      const todoScans = todo.flatMap((i) => scans[i] ?? []);
      const containerIds = todoScans.flatMap((scan) => (isContainerScan(scan) ? [scan.containerId] : []));
      const carrierBarcodes = todoScans.flatMap((scan) => scan.carrierBarcode ?? []);
      const trackingNumbers = todoScans.flatMap((scan) => (scan.carrierBarcode === undefined ? (scan.trackingNumber ?? []) : []));
      const containers = containerIds.length > 0 ? await lockContainers(client, scope, { containerIds }) : [];
      const byBarcode = carrierBarcodes.length > 0 ? await lockPackages(client, scope, { carrierBarcodes }) : [];
      const byNumber = trackingNumbers.length > 0 ? await lockPackages(client, scope, { trackingNumbers }) : [];
      // A container scan and package scans of the same batch must move the same objects in memory.
      const shared = new Map<string, PackageRow>();
      for (const container of containers) container.packages = container.packages.map((p) => share(shared, p));
      const containersById = group(containers, (c) => c.containerId);
      const departing = new Set(
        todoScans.flatMap((scan) =>
          isContainerScan(scan) && CONTAINER_EVENT_STATUS[scan.event]?.event === 'departed' ? [scan.containerId] : [],
        ),
      );
      const departureHeld =
        options.departures && departing.size > 0
          ? await options.departures(containers.filter((c) => departing.has(c.containerId)))
          : new Map<string, { code: string; message: string; details: { path: string; message: string }[] }>();
      const packagesByBarcode = group(
        byBarcode.map((p) => share(shared, p)),
        (p) => p.carrierBarcode,
      );
      const packagesByNumber = group(
        byNumber.map((p) => share(shared, p)),
        (p) => p.trackingNumber ?? '',
      );

      const changes = new Changes();
      const primaryIndex = new Map<string, number>();
      const ordered = [...todo].sort(
        (a, b) => (scans[a]?.occurredAt.getTime() ?? 0) - (scans[b]?.occurredAt.getTime() ?? 0) || a - b,
      );
      for (const index of ordered) {
        const scan = scans[index];
        if (!scan) continue;
        const stamp: Stamp = {
          occurredAt: scan.occurredAt,
          location: scan.location,
          source: 'scan',
          scanId: scan.scanId,
          exceptionCode: scan.exceptionCode ?? null,
          exceptionText: scan.exceptionText ?? null,
          customsReference: scan.customsReference ?? null,
          customsText: scan.customsText ?? null,
        };
        const before = changes.events.length;
        const result = isContainerScan(scan)
          ? applyContainerScan(changes, scan, stamp, containersById.get(scan.containerId) ?? [], departureHeld)
          : applyPackageScan(
              changes,
              scan,
              stamp,
              scan.carrierBarcode !== undefined
                ? (packagesByBarcode.get(scan.carrierBarcode) ?? [])
                : (packagesByNumber.get(scan.trackingNumber ?? '') ?? []),
            );
        results.set(index, result);
        if (changes.events.length > before) primaryIndex.set(scan.scanId, before);
      }
      await persist(client, changes, (index, event) =>
        index === primaryIndex.get(event.scanId ?? '') ? eventIdOf.get(event.scanId ?? '') : undefined,
      );
      const refused = [...results.values()].flatMap((r) => (r.result === 'refused' && fresh.has(r.scan_id) ? [r.scan_id] : []));
      if (refused.length > 0) {
        // A refused scan is not kept: sent again (once its package exists, say), it is judged again.
        await execute(
          client,
          sql`DELETE FROM ops_scans WHERE environment = ${environment}::"Environment" AND scan_id = ANY(${refused}::text[])`,
        );
      }
      return scans.map((scan, index) => results.get(index) ?? { scan_id: scan.scanId, result: 'duplicate' as const });
    }),
  );
}

function share(shared: Map<string, PackageRow>, row: PackageRow): PackageRow {
  const key = `${row.table}:${row.id}`;
  const existing = shared.get(key);
  if (existing) return existing;
  shared.set(key, row);
  return row;
}

function group<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

function refuse(scanId: string, code: string, message: string, currentStatus?: string): ScanResult {
  return {
    scan_id: scanId,
    result: 'refused',
    error: { code, message, ...(currentStatus ? { current_status: currentStatus } : {}) },
  };
}

function recorded(scanId: string, status: string, currentStatus: string, reason: 'out_of_order' | 'repeat'): ScanResult {
  return { scan_id: scanId, result: 'recorded', status, current_status: currentStatus, reason };
}

function isContainerScan(scan: Scan): scan is Scan & { containerId: string } {
  return scan.containerId !== undefined && scan.trackingNumber === undefined && scan.carrierBarcode === undefined;
}

/**
 * A carrier barcode names one package; a tracking number is only the shipper's word, so it is narrowed by the scan's
 * container or manifest and by what can take this scan. Still more than one: refused, naming the barcodes that resolve it.
 */
function resolvePackage(scan: Scan, canTake: (row: PackageRow) => boolean, rows: PackageRow[]): PackageRow | ScanResult {
  const name =
    scan.carrierBarcode !== undefined ? `carrier barcode ${scan.carrierBarcode}` : `tracking number ${scan.trackingNumber}`;
  const inContext = rows.filter(
    (row) =>
      (scan.containerId === undefined || row.containerId === scan.containerId) &&
      (scan.manifestId === undefined || row.manifestId === scan.manifestId),
  );
  const [only, other] = inContext;
  if (!only) {
    const where =
      scan.containerId !== undefined
        ? ` in container ${scan.containerId}`
        : scan.manifestId !== undefined
          ? ` in manifest ${scan.manifestId}`
          : '';
    return refuse(scan.scanId, 'not_found', `No package with ${name}${where} in this environment.`);
  }
  if (!other) return only;
  const able = inContext.filter((row) => row.status !== 'cancelled' && canTake(row));
  if (able.length === 1 && able[0]) return able[0];
  return {
    scan_id: scan.scanId,
    result: 'refused',
    error: {
      code: 'ambiguous',
      message: `Tracking number ${scan.trackingNumber} names ${inContext.length} packages${able.length > 1 ? ` that can all take a ${scan.event} scan` : ''}; scan the carrier barcode on the label, or send the container_id or manifest_id with the tracking number.`,
      details: inContext.map((row) => ({
        path: 'carrier_barcode',
        message: `${row.carrierBarcode}: manifest ${row.manifestId}${row.containerId ? `, container ${row.containerId}` : ''}, ${row.status}`,
      })),
    },
  };
}

function applyPackageScan(changes: Changes, scan: Scan, stamp: Stamp, rows: PackageRow[]): ScanResult {
  if (isCustomsOutcome(scan.event)) return applyPackageCustomsScan(changes, scan, scan.event, stamp, rows);
  const meaning = PACKAGE_EVENT_STATUS[scan.event];
  if (!meaning)
    return refuse(scan.scanId, 'unknown_event', `A package scan's event is one of: ${PACKAGE_SCAN_EVENTS.join(', ')}.`);
  const row = resolvePackage(scan, (r) => nextPackageStatus(r.status, meaning.event) !== undefined, rows);
  if ('result' in row) return row;
  scan = { ...scan, trackingNumber: scan.trackingNumber ?? row.trackingNumber ?? row.carrierBarcode };
  // Cancelled never reached the carrier: no scan of it is history, whatever its time.
  if (row.status === 'cancelled')
    return refuse(scan.scanId, 'illegal_transition', `Package ${scan.trackingNumber} is cancelled.`, row.status);
  // What the hub measured counts whenever the package was taken in, whatever this scan does to its status.
  if (scan.measured && meaning.event === 'received') changes.measurePackage(row, scan.measured, stamp);
  // Older than what set the current status: history only (a package that is only manifested has no such time).
  if (row.status !== 'manifested' && scan.occurredAt < row.statusUpdatedAt) {
    changes.recordPackage(row, meaning.status, stamp);
    return recorded(scan.scanId, meaning.status, row.status, 'out_of_order');
  }
  const previous = row.status;
  if (changes.movePackage(row, meaning.event, stamp) !== undefined)
    return { scan_id: scan.scanId, result: 'applied', status: row.status, previous_status: previous };
  if (meaning.status === row.status) {
    changes.recordPackage(row, meaning.status, stamp);
    return recorded(scan.scanId, meaning.status, row.status, 'repeat');
  }
  return refuse(
    scan.scanId,
    'illegal_transition',
    `Package ${scan.trackingNumber} is ${row.status}; a ${scan.event} scan cannot apply.`,
    row.status,
  );
}

function applyContainerScan(
  changes: Changes,
  scan: Scan,
  stamp: Stamp,
  rows: ContainerRow[],
  departureHeld: ReadonlyMap<string, { code: string; message: string; details: { path: string; message: string }[] }>,
): ScanResult {
  const outcome = isCustomsOutcome(scan.event) ? scan.event : undefined;
  const meaning = CONTAINER_EVENT_STATUS[scan.event];
  if (!meaning && !outcome)
    return refuse(scan.scanId, 'unknown_event', `A container scan's event is one of: ${CONTAINER_SCAN_EVENTS.join(', ')}.`);
  const [row, other] = rows;
  if (!row) return refuse(scan.scanId, 'not_found', `No container ${scan.containerId} in this environment.`);
  if (other) return refuse(scan.scanId, 'ambiguous', `ContainerID ${scan.containerId} names more than one container.`);
  if (row.status === 'cancelled')
    return refuse(scan.scanId, 'illegal_transition', `Container ${scan.containerId} is cancelled.`, row.status);
  if (outcome) return applyCustomsOutcome(changes, scan, outcome, stamp, { kind: 'container', row });
  if (!meaning)
    return refuse(scan.scanId, 'unknown_event', `A container scan's event is one of: ${CONTAINER_SCAN_EVENTS.join(', ')}.`);
  if (row.status !== 'manifested' && scan.occurredAt < row.statusUpdatedAt) {
    changes.recordContainer(row, meaning.status, stamp);
    return recorded(scan.scanId, meaning.status, row.status, 'out_of_order');
  }
  const previous = row.status;
  // A container leaves only without a house on do_not_load (nor itself on one).
  const held =
    meaning.event === 'departed' && row.status === 'received' ? (departureHolds(row) ?? departureHeld.get(row.id)) : undefined;
  if (held) return { scan_id: scan.scanId, result: 'refused', error: held };
  if (changes.moveContainer(row, meaning.event, stamp) !== undefined)
    return { scan_id: scan.scanId, result: 'applied', status: row.status, previous_status: previous };
  if (meaning.status === row.status) {
    changes.recordContainer(row, meaning.status, stamp);
    return recorded(scan.scanId, meaning.status, row.status, 'repeat');
  }
  return refuse(
    scan.scanId,
    'illegal_transition',
    `Container ${scan.containerId} is ${row.status}; a ${scan.event} scan cannot apply.`,
    row.status,
  );
}

/** What a container's departure is refused with while it, or a house in it, is on do_not_load; undefined when nothing holds it. */
export function departureHolds(
  row: ContainerRow,
): { code: 'do_not_load'; message: string; details: { path: string; message: string }[] } | undefined {
  const houses = row.packages.filter((pkg) => holdsDeparture(pkg.customsStatus));
  const itself = holdsDeparture(row.customsStatus);
  if (houses.length === 0 && !itself) return undefined;
  const named = houses.map((pkg) => pkg.trackingNumber ?? pkg.carrierBarcode);
  const shown = named.slice(0, 10).join(', ') + (named.length > 10 ? ` and ${named.length - 10} more` : '');
  return {
    code: 'do_not_load',
    message: itself
      ? `Container ${row.containerId} is on do_not_load: it cannot depart until a new assessment completes.`
      : `Container ${row.containerId} holds ${houses.length} house(s) on do_not_load (${shown}): it cannot depart with them until a new assessment completes or they are taken out.`,
    details: [
      ...(itself ? [{ path: 'container_id', message: `${row.containerId}: do_not_load` }] : []),
      ...houses.map((pkg) => ({
        path: 'carrier_barcode',
        message: `${pkg.carrierBarcode}: tracking number ${pkg.trackingNumber ?? '(none)'}, house waybill ${pkg.houseWaybill}, do_not_load`,
      })),
    ],
  };
}

type CustomsSubject = { kind: 'package'; row: PackageRow } | { kind: 'container'; row: ContainerRow };

function applyPackageCustomsScan(
  changes: Changes,
  scan: Scan,
  outcome: CustomsOutcome,
  stamp: Stamp,
  rows: PackageRow[],
): ScanResult {
  const row = resolvePackage(scan, (r) => nextCustomsStatus(r.customsStatus, outcome) !== undefined, rows);
  if ('result' in row) return row;
  if (row.status === 'cancelled')
    return refuse(
      scan.scanId,
      'illegal_transition',
      `Package ${row.trackingNumber ?? row.carrierBarcode} is cancelled: it never reached the carrier.`,
      row.status,
    );
  return applyCustomsOutcome(changes, scan, outcome, stamp, { kind: 'package', row });
}

/** Judged as status scans are: older or equal is history only; allowed by CUSTOMS_TRANSITIONS, applied; else refused. */
function applyCustomsOutcome(
  changes: Changes,
  scan: Scan,
  outcome: CustomsOutcome,
  stamp: Stamp,
  subject: CustomsSubject,
): ScanResult {
  const { row } = subject;
  const name =
    subject.kind === 'container'
      ? `Container ${subject.row.containerId}`
      : `Package ${subject.row.trackingNumber ?? subject.row.carrierBarcode}`;
  const current = row.customsStatus;
  const record = () =>
    subject.kind === 'container'
      ? changes.recordCustomsContainer(subject.row, outcome, stamp)
      : changes.recordCustomsPackage(subject.row, outcome, stamp);
  if (current !== null && row.customsStatusUpdatedAt !== null && scan.occurredAt < row.customsStatusUpdatedAt) {
    record();
    return recorded(scan.scanId, outcome, current, 'out_of_order');
  }
  const applied =
    subject.kind === 'container'
      ? changes.customsContainer(subject.row, outcome, stamp)
      : changes.customsPackage(subject.row, outcome, stamp);
  if (applied !== undefined)
    return { scan_id: scan.scanId, result: 'applied', status: outcome, previous_status: current ?? 'none' };
  if (current === outcome) {
    record();
    return recorded(scan.scanId, outcome, current, 'repeat');
  }
  return refuse(
    scan.scanId,
    'illegal_transition',
    current === 'do_not_load'
      ? `${name} is on do_not_load; only assessment_complete (a new assessment) lifts it.`
      : `${name}'s customs outcome is ${current ?? 'none'}; ${outcome} cannot follow it.`,
    current ?? 'none',
  );
}
