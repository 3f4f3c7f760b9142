import 'server-only';
import type pg from 'pg';
import type { Environment } from '@/lib/generated/prisma/enums';
import { COUNTER_SHARD } from '@/lib/sharded-counters';
import { enqueueRecipientMails } from '@/lib/recipient-mail/enqueue';
import { execute, queryRow, queryRows, sql, type Sql } from '@/lib/sql';
import { enqueueEvents } from '@/lib/webhooks/enqueue-event';
import { voidCharges } from '@/lib/billing/void';
import { adjustMeasured } from '@/lib/billing/adjust-store';
import type { TAdjustment, TMeasured } from '@/lib/schemas/lifecycle';
import { CONTAINER_AMENDED_EVENT, PACKAGE_ADJUSTED_EVENT, PACKAGE_OFFLOADED_EVENT } from '@/lib/schemas/webhooks';
import { trackingUrl } from '@/lib/tracking/tracking-url';
import {
  CONTAINER_MOVES_PACKAGES_TO,
  containerEventName,
  customsEventName,
  isContainerStatus,
  isCustomsOutcome,
  isPackageStatus,
  nextContainerStatus,
  nextCustomsStatus,
  nextPackageStatus,
  packageEventName,
  packageWalk,
  type ContainerEvent,
  type ContainerStatus,
  type CustomsOutcome,
  type PackageEvent,
  type PackageStatus,
} from './transitions';

// The one writer of statuses. A caller locks its rows in one global order (container manifests, container packages,
// packages, daily manifests, each by id: no deadlock), plans transitions in memory (transitions.ts), and persist()
// writes them set-based in the same transaction, each UPDATE guarded by the status its plan started from.

/** `cutoff`: the automatic close-out at the account's cut-off hour (lib/close-out). */
export type Source = 'scan' | 'simulator' | 'cancel' | 'api' | 'cutoff';

export interface PackageRow {
  table: 'packages' | 'container_packages';
  id: string;
  accountId: string;
  environment: Environment;
  manifestId: string;
  trackingNumber: string | null;
  carrierBarcode: string;
  /** The shipper's Customs.HouseWaybill, or the one issued on insert. */
  houseWaybill: string;
  containerId: string | null;
  status: PackageStatus;
  statusUpdatedAt: Date;
  /** The latest customs outcome (null: none yet) and when it happened. */
  customsStatus: CustomsOutcome | null;
  customsStatusUpdatedAt: Date | null;
}

export interface ContainerRow {
  id: string;
  accountId: string;
  environment: Environment;
  containerId: string;
  status: ContainerStatus;
  statusUpdatedAt: Date;
  customsStatus: CustomsOutcome | null;
  customsStatusUpdatedAt: Date | null;
  packages: PackageRow[];
}

export interface DailyManifestRow {
  id: string;
  accountId: string;
  environment: Environment;
  status: string;
  statusUpdatedAt: Date;
}

export interface EventDraft {
  subjectType: 'package' | 'container' | 'manifest';
  accountId: string;
  environment: Environment;
  manifestId: string;
  trackingNumber: string | null;
  /** Its tracking number may be absent (a container package) or shared with another. */
  carrierBarcode: string | null;
  /** In its webhook, not stored with the event. */
  houseWaybill: string | null;
  containerId: string | null;
  type: string;
  status: string;
  previousStatus: string | null;
  applied: boolean;
  occurredAt: Date;
  location: string | null;
  source: Source;
  scanId: string | null;
  /** Index in Changes.events of the container event that moved this package. */
  parent: number | null;
  exceptionCode: string | null;
  exceptionText: string | null;
  /** The webhook to send (applied transitions in the catalog only). */
  webhook: string | null;
  /** More fields of the webhook's payload (manifest.closed: package_count, document_path). */
  payloadExtra?: Record<string, unknown>;
  /** Stored with the event (lifecycle_events.details): a customs outcome's reference and text, an amendment's fields. */
  details?: Record<string, unknown> | null;
}

interface StatusUpdate {
  from: string;
  to: string;
  at: Date;
}

export interface Stamp {
  occurredAt: Date;
  location: string | null;
  source: Source;
  scanId?: string | null;
  exceptionCode?: string | null;
  exceptionText?: string | null;
  /** A customs outcome's: the authority's reference (an MRN, a message id) and what it said. */
  customsReference?: string | null;
  customsText?: string | null;
}

/** A customs state to write: the row, the state the plan started from (the guard), and the new one. */
interface CustomsUpdate {
  table: 'packages' | 'container_packages' | 'container_manifests';
  id: string;
  from: CustomsOutcome | null;
  to: CustomsOutcome;
  at: Date;
}

export class Changes {
  readonly events: EventDraft[] = [];
  readonly packages = new Map<string, { row: PackageRow; update: StatusUpdate }>();
  readonly containers = new Map<string, { row: ContainerRow; update: StatusUpdate }>();
  readonly dailies = new Map<string, { row: DailyManifestRow; update: StatusUpdate }>();
  readonly customs = new Map<string, CustomsUpdate>();
  /** What the hub measured at received scans, re-rated by persist() (lib/billing/adjust-store.ts). */
  readonly measurements: { row: PackageRow; measured: TMeasured; stamp: Stamp }[] = [];

  /** The package was measured at intake: persist() re-rates it and, on a difference, adds its package.adjusted event. */
  measurePackage(row: PackageRow, measured: TMeasured, stamp: Stamp): void {
    this.measurements.push({ row, measured, stamp });
  }

  /** A re-rating's event in the package's timeline, and its package.adjusted webhook. */
  adjustPackage(row: PackageRow, adjustment: TAdjustment, stamp: Stamp): number {
    return this.push(
      {
        ...this.packageSubject(row),
        type: PACKAGE_ADJUSTED_EVENT,
        status: row.status,
        previousStatus: row.status,
        applied: true,
        scanId: stamp.scanId ?? null,
        webhook: PACKAGE_ADJUSTED_EVENT,
        details: adjustment,
      },
      stamp,
    );
  }

  /** Undefined when the table forbids it. */
  movePackage(row: PackageRow, event: PackageEvent, stamp: Stamp, parent: number | null = null): number | undefined {
    const to = nextPackageStatus(row.status, event);
    if (to === undefined) return undefined;
    const key = `${row.table}:${row.id}`;
    const existing = this.packages.get(key);
    const update = { from: existing?.update.from ?? row.status, to, at: stamp.occurredAt };
    this.packages.set(key, { row, update });
    const index = this.pushPackageEvent(row, to, row.status, true, stamp, parent);
    row.status = to;
    row.statusUpdatedAt = stamp.occurredAt;
    return index;
  }

  /** Kept in the history only: an out-of-order scan, or a repeat of the current status. */
  recordPackage(row: PackageRow, status: PackageStatus, stamp: Stamp, parent: number | null = null): number {
    return this.pushPackageEvent(row, status, row.status, false, stamp, parent);
  }

  private pushPackageEvent(
    row: PackageRow,
    status: PackageStatus,
    previous: PackageStatus,
    applied: boolean,
    stamp: Stamp,
    parent: number | null,
  ): number {
    return this.push(
      {
        ...this.packageSubject(row),
        type: packageEventName(status) ?? `package.${status}`,
        status,
        previousStatus: previous,
        applied,
        scanId: parent === null ? (stamp.scanId ?? null) : null,
        parent,
        exceptionCode: status === 'exception' ? (stamp.exceptionCode ?? null) : null,
        exceptionText: status === 'exception' ? (stamp.exceptionText ?? null) : null,
        webhook: applied && row.trackingNumber !== null ? (packageEventName(status) ?? null) : null,
      },
      stamp,
    );
  }

  moveContainer(row: ContainerRow, event: ContainerEvent, stamp: Stamp): number | undefined {
    const to = nextContainerStatus(row.status, event);
    if (to === undefined) return undefined;
    const existing = this.containers.get(row.id);
    this.containers.set(row.id, { row, update: { from: existing?.update.from ?? row.status, to, at: stamp.occurredAt } });
    const index = this.pushContainerEvent(row, to, row.status, true, stamp);
    row.status = to;
    row.statusUpdatedAt = stamp.occurredAt;
    // The container carries its packages along: received, then in transit once it departed.
    const target = CONTAINER_MOVES_PACKAGES_TO[to];
    if (target) {
      for (const pkg of row.packages) {
        // A package moved by a scan of its own after this one keeps its status (manifested has no such time).
        if (pkg.status !== 'manifested' && pkg.statusUpdatedAt > stamp.occurredAt) continue;
        const steps = packageWalk(pkg.status, target);
        for (const step of steps ?? []) this.movePackage(pkg, step.event, stamp, index);
      }
    }
    return index;
  }

  recordContainer(row: ContainerRow, status: ContainerStatus, stamp: Stamp): number {
    return this.pushContainerEvent(row, status, row.status, false, stamp);
  }

  private pushContainerEvent(
    row: ContainerRow,
    status: ContainerStatus,
    previous: ContainerStatus,
    applied: boolean,
    stamp: Stamp,
  ): number {
    return this.push(
      {
        ...this.containerSubject(row),
        type: containerEventName(status) ?? `container.${status}`,
        status,
        previousStatus: previous,
        applied,
        scanId: stamp.scanId ?? null,
        webhook: applied ? (containerEventName(status) ?? null) : null,
      },
      stamp,
    );
  }

  /** Applied when the table allows it from the package's customs state; undefined when it forbids it. */
  customsPackage(row: PackageRow, outcome: CustomsOutcome, stamp: Stamp): number | undefined {
    const to = nextCustomsStatus(row.customsStatus, outcome);
    if (to === undefined) return undefined;
    this.planCustoms(row.table, row.id, row.customsStatus, to, stamp.occurredAt);
    const index = this.pushCustomsEvent(this.packageSubject(row), outcome, row.customsStatus, true, stamp);
    row.customsStatus = to;
    row.customsStatusUpdatedAt = stamp.occurredAt;
    return index;
  }

  /** A customs outcome kept in the package's history only (out of order, or a repeat). */
  recordCustomsPackage(row: PackageRow, outcome: CustomsOutcome, stamp: Stamp): number {
    return this.pushCustomsEvent(this.packageSubject(row), outcome, row.customsStatus, false, stamp);
  }

  /** A customs outcome on a container itself (its packages keep theirs). */
  customsContainer(row: ContainerRow, outcome: CustomsOutcome, stamp: Stamp): number | undefined {
    const to = nextCustomsStatus(row.customsStatus, outcome);
    if (to === undefined) return undefined;
    this.planCustoms('container_manifests', row.id, row.customsStatus, to, stamp.occurredAt);
    const index = this.pushCustomsEvent(this.containerSubject(row), outcome, row.customsStatus, true, stamp);
    row.customsStatus = to;
    row.customsStatusUpdatedAt = stamp.occurredAt;
    return index;
  }

  recordCustomsContainer(row: ContainerRow, outcome: CustomsOutcome, stamp: Stamp): number {
    return this.pushCustomsEvent(this.containerSubject(row), outcome, row.customsStatus, false, stamp);
  }

  /** A package's house data amended (lib/customs/amend-package.ts): an event in its timeline and package.amended. */
  amendPackage(row: PackageRow, details: { fields: string[]; previous_house_waybill?: string }, stamp: Stamp): number {
    return this.push(
      {
        ...this.packageSubject(row),
        type: 'package.amended',
        status: row.status,
        previousStatus: row.status,
        applied: true,
        webhook: 'package.amended',
        details,
      },
      stamp,
    );
  }

  /** A held house offloaded from its container (lib/customs/offload-package.ts): an event in its timeline and package.offloaded. */
  offloadPackage(row: PackageRow, details: { customs_status: string | null }, stamp: Stamp): number {
    return this.push(
      {
        ...this.packageSubject(row),
        type: PACKAGE_OFFLOADED_EVENT,
        status: row.status,
        previousStatus: row.status,
        applied: true,
        webhook: PACKAGE_OFFLOADED_EVENT,
        details,
      },
      stamp,
    );
  }

  /** A container's air cargo header amended (lib/customs/amend-container.ts): an event of the container and container.amended. */
  amendContainer(row: ContainerRow, details: { fields: string[] }, stamp: Stamp): number {
    return this.push(
      {
        ...this.containerSubject(row),
        type: CONTAINER_AMENDED_EVENT,
        status: row.status,
        previousStatus: row.status,
        applied: true,
        webhook: CONTAINER_AMENDED_EVENT,
        details,
      },
      stamp,
    );
  }

  private planCustoms(table: CustomsUpdate['table'], id: string, from: CustomsOutcome | null, to: CustomsOutcome, at: Date) {
    const key = `${table}:${id}`;
    const existing = this.customs.get(key);
    this.customs.set(key, { table, id, from: existing ? existing.from : from, to, at });
  }

  private push(
    draft: Omit<EventDraft, 'occurredAt' | 'location' | 'source' | 'scanId' | 'parent' | 'exceptionCode' | 'exceptionText'> &
      Partial<Pick<EventDraft, 'scanId' | 'parent' | 'exceptionCode' | 'exceptionText'>>,
    stamp: Stamp,
  ): number {
    this.events.push({
      occurredAt: stamp.occurredAt,
      location: stamp.location,
      source: stamp.source,
      scanId: null,
      parent: null,
      exceptionCode: null,
      exceptionText: null,
      ...draft,
    });
    return this.events.length - 1;
  }

  private packageSubject(row: PackageRow) {
    return {
      subjectType: 'package' as const,
      accountId: row.accountId,
      environment: row.environment,
      manifestId: row.manifestId,
      trackingNumber: row.trackingNumber,
      carrierBarcode: row.carrierBarcode,
      houseWaybill: row.houseWaybill,
      containerId: row.containerId,
    };
  }

  private containerSubject(row: ContainerRow) {
    return {
      subjectType: 'container' as const,
      accountId: row.accountId,
      environment: row.environment,
      manifestId: row.id,
      trackingNumber: null,
      carrierBarcode: null,
      houseWaybill: null,
      containerId: row.containerId,
    };
  }

  private pushCustomsEvent(
    subject: ReturnType<Changes['packageSubject']> | ReturnType<Changes['containerSubject']>,
    outcome: CustomsOutcome,
    previous: CustomsOutcome | null,
    applied: boolean,
    stamp: Stamp,
  ): number {
    const details: Record<string, unknown> = {};
    if (stamp.customsReference) details.reference = stamp.customsReference;
    if (stamp.customsText) details.text = stamp.customsText;
    return this.push(
      {
        ...subject,
        type: customsEventName(outcome),
        status: outcome,
        previousStatus: previous,
        applied,
        scanId: stamp.scanId ?? null,
        webhook: applied ? customsEventName(outcome) : null,
        details: Object.keys(details).length > 0 ? details : null,
      },
      stamp,
    );
  }

  cancelDaily(row: DailyManifestRow, stamp: Stamp): number {
    return this.endDaily(row, 'cancelled', stamp);
  }

  /** A daily manifest closed (lib/close-out): it takes no more packages. `extra` joins the webhook's payload. */
  closeDaily(row: DailyManifestRow, stamp: Stamp, extra: Record<string, unknown>): number {
    return this.endDaily(row, 'closed', stamp, extra);
  }

  /** A daily manifest's one move out of `manifested`, with its event and webhook (manifest.cancelled, manifest.closed). */
  private endDaily(row: DailyManifestRow, to: 'cancelled' | 'closed', stamp: Stamp, extra?: Record<string, unknown>): number {
    this.dailies.set(row.id, { row, update: { from: row.status, to, at: stamp.occurredAt } });
    const index = this.push(
      {
        subjectType: 'manifest',
        accountId: row.accountId,
        environment: row.environment,
        manifestId: row.id,
        trackingNumber: null,
        carrierBarcode: null,
        houseWaybill: null,
        containerId: null,
        type: `manifest.${to}`,
        status: to,
        previousStatus: row.status,
        applied: true,
        webhook: `manifest.${to}`,
        ...(extra ? { payloadExtra: extra } : {}),
      },
      stamp,
    );
    row.status = to;
    row.statusUpdatedAt = stamp.occurredAt;
    return index;
  }

  get isEmpty(): boolean {
    return this.events.length === 0;
  }
}

/** Raised when a guarded UPDATE found a row not in the status its plan started from: the transaction rolls back. */
export class LostUpdateError extends Error {}

const PACKAGE_COLUMNS = sql`id::text AS id, account_id, environment, tracking_number, carrier_barcode, house_waybill, status, status_updated_at,
  customs_status, customs_status_updated_at`;

interface RawPackage {
  id: string;
  account_id: string;
  environment: Environment;
  tracking_number: string | null;
  carrier_barcode: string;
  house_waybill: string;
  status: string;
  status_updated_at: Date;
  customs_status: string | null;
  customs_status_updated_at: Date | null;
  manifest_id: string;
  container_id: string | null;
}

/** A stored customs state, checked as statuses are: a value outside the table is a bug, not a state. */
function customsState(value: string | null): CustomsOutcome | null {
  if (value === null) return null;
  if (!isCustomsOutcome(value)) throw new Error(`stored customs status ${value} is not in the table`);
  return value;
}

function packageRow(table: PackageRow['table'], raw: RawPackage): PackageRow {
  if (!isPackageStatus(raw.status)) throw new Error(`stored package status ${raw.status} is not in the table`);
  return {
    table,
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
    customsStatus: customsState(raw.customs_status),
    customsStatusUpdatedAt: raw.customs_status_updated_at,
  };
}

/** Scope of a lookup: the path's environment, and the token's account (none for carrier operations). */
export interface LockScope {
  environment: Environment;
  accountId: string | null;
}

/** Locks containers and then every package they hold, in id order; call before lockPackages. */
export async function lockContainers(
  client: pg.PoolClient,
  scope: LockScope,
  by: { containerIds: string[]; manifestIds?: undefined } | { manifestIds: string[]; containerIds?: undefined },
): Promise<ContainerRow[]> {
  const rows = await queryRows(
    client,
    sql<{
      id: string;
      account_id: string;
      environment: Environment;
      container_id: string;
      status: string;
      status_updated_at: Date;
      customs_status: string | null;
      customs_status_updated_at: Date | null;
    }>`
     SELECT id, account_id, environment, container_id, status, status_updated_at, customs_status, customs_status_updated_at FROM container_manifests
     WHERE environment = ${scope.environment}::"Environment" ${accountFilter(scope)}
       AND ${by.manifestIds ? sql`id = ANY(${by.manifestIds}::text[])` : sql`container_id = ANY(${by.containerIds ?? []}::text[])`}
     ORDER BY id FOR UPDATE`,
  );
  const containers = rows.map((raw): ContainerRow => {
    if (!isContainerStatus(raw.status)) throw new Error(`stored container status ${raw.status} is not in the table`);
    return {
      id: raw.id,
      accountId: raw.account_id,
      environment: raw.environment,
      containerId: raw.container_id,
      status: raw.status,
      statusUpdatedAt: raw.status_updated_at,
      customsStatus: customsState(raw.customs_status),
      customsStatusUpdatedAt: raw.customs_status_updated_at,
      packages: [],
    };
  });
  if (containers.length === 0) return containers;
  const byId = new Map(containers.map((c) => [c.id, c]));
  const packages = await queryRows(
    client,
    // An offloaded house (lib/customs/offload-package.ts) is no longer aboard: the container neither carries it nor is held by it.
    sql<RawPackage>`SELECT ${PACKAGE_COLUMNS}, manifest_id, NULL::text AS container_id FROM container_packages
     WHERE manifest_id = ANY(${containers.map((c) => c.id)}::text[]) AND offloaded_at IS NULL ORDER BY id FOR UPDATE`,
  );
  for (const raw of packages) {
    const container = byId.get(raw.manifest_id);
    if (container) container.packages.push(packageRow('container_packages', { ...raw, container_id: container.containerId }));
  }
  return containers;
}

/**
 * The houses offloaded from these containers (lib/customs/offload-package.ts), locked in id order after their
 * containers: cancelling a container cancels them too (docs/decisions/customs.md).
 */
export async function lockOffloadedHouses(client: pg.PoolClient, containers: readonly ContainerRow[]): Promise<PackageRow[]> {
  if (containers.length === 0) return [];
  const byId = new Map(containers.map((c) => [c.id, c]));
  const rows = await queryRows(
    client,
    sql<RawPackage>`SELECT ${PACKAGE_COLUMNS}, manifest_id, NULL::text AS container_id FROM container_packages
     WHERE manifest_id = ANY(${[...byId.keys()]}::text[]) AND offloaded_at IS NOT NULL ORDER BY id FOR UPDATE`,
  );
  return rows.map((raw) =>
    packageRow('container_packages', { ...raw, container_id: byId.get(raw.manifest_id)?.containerId ?? null }),
  );
}

/** Container packages first, each in id order (rows lockContainers already holds are locked again harmlessly). */
export async function lockPackages(
  client: pg.PoolClient,
  scope: LockScope,
  by: { trackingNumbers: string[]; anyCase?: boolean } | { carrierBarcodes: string[] } | { dailyManifestIds: string[] },
): Promise<PackageRow[]> {
  // One key per call (no OR), so that each query uses its index (anyCase: the lower(tracking_number) one).
  const key =
    'trackingNumbers' in by
      ? by.anyCase
        ? { values: by.trackingNumbers.map((n) => n.toLowerCase()), column: sql`lower(tracking_number)` }
        : { values: by.trackingNumbers, column: sql`tracking_number` }
      : 'carrierBarcodes' in by
        ? { values: by.carrierBarcodes, column: sql`carrier_barcode` }
        : { values: by.dailyManifestIds, column: sql`daily_manifest_id` };
  if (key.values.length === 0) return [];
  const out: PackageRow[] = [];
  if (!('dailyManifestIds' in by)) {
    const container = await queryRows(
      client,
      sql<RawPackage>`SELECT cp.id::text AS id, cp.account_id, cp.environment, cp.tracking_number, cp.carrier_barcode, cp.house_waybill, cp.status,
              cp.status_updated_at, cp.customs_status, cp.customs_status_updated_at, cp.manifest_id, m.container_id
       FROM container_packages cp JOIN container_manifests m ON m.id = cp.manifest_id
       WHERE cp.environment = ${scope.environment}::"Environment" ${accountFilter(scope, sql`cp.account_id`)}
         AND ${key.column} = ANY(${key.values}::text[])
       ORDER BY cp.id FOR UPDATE OF cp`,
    );
    out.push(...container.map((raw) => packageRow('container_packages', raw)));
  }
  const daily = await queryRows(
    client,
    sql<RawPackage>`SELECT ${PACKAGE_COLUMNS}, daily_manifest_id AS manifest_id, NULL::text AS container_id FROM packages
     WHERE environment = ${scope.environment}::"Environment" ${accountFilter(scope)} AND ${key.column} = ANY(${key.values}::text[])
     ORDER BY id FOR UPDATE`,
  );
  out.push(...daily.map((raw) => packageRow('packages', raw)));
  return out;
}

function accountFilter(scope: LockScope, column: Sql<never> = sql`account_id`): Sql<never> {
  return scope.accountId === null ? sql.empty : sql`AND ${column} = ${scope.accountId}::uuid`;
}

export async function lockDailyManifests(client: pg.PoolClient, scope: LockScope, ids: string[]): Promise<DailyManifestRow[]> {
  const rows = await queryRows(
    client,
    sql<{ id: string; account_id: string; environment: Environment; status: string; status_updated_at: Date }>`
     SELECT id, account_id, environment, status, status_updated_at FROM daily_manifests
     WHERE environment = ${scope.environment}::"Environment" ${accountFilter(scope)} AND id = ANY(${ids}::text[])
     ORDER BY id FOR UPDATE`,
  );
  return rows.map((raw) => ({
    id: raw.id,
    accountId: raw.account_id,
    environment: raw.environment,
    status: raw.status,
    statusUpdatedAt: raw.status_updated_at,
  }));
}

/** Drawn ahead, so that ops_scans and derived events can name them before they are written. */
export async function allocateEventIds(client: pg.PoolClient, count: number): Promise<string[]> {
  if (count === 0) return [];
  const rows = await queryRows(
    client,
    sql<{
      id: string;
    }>`SELECT nextval(pg_get_serial_sequence('lifecycle_events', 'id'))::text AS id FROM generate_series(1, ${count}::int)`,
  );
  return rows.map((r) => r.id);
}

/** Writes `changes` in the caller's transaction; `presetId` may name an id drawn earlier (a scan's claim names its event). */
export async function persist(
  client: pg.PoolClient,
  changes: Changes,
  presetId: (index: number, event: EventDraft) => string | undefined = () => undefined,
  deliveryLimit?: Parameters<typeof enqueueEvents>[2],
): Promise<string[]> {
  if (changes.measurements.length > 0) {
    // Before the events are numbered: each difference adds its package.adjusted event.
    const adjusted = await adjustMeasured(
      client,
      changes.measurements.map((m) => ({
        table: m.row.table,
        id: m.row.id,
        measured: m.measured,
        scanId: m.stamp.scanId ?? null,
      })),
    );
    for (const [index, rerated] of adjusted) {
      const m = changes.measurements[index];
      if (m) changes.adjustPackage(m.row, rerated.adjustment, m.stamp);
    }
  }
  const events = changes.events;
  const preset = events.map((event, index) => presetId(index, event));
  const more = await allocateEventIds(client, preset.filter((id) => id === undefined).length);
  let next = 0;
  const eventIds = preset.map((id) => id ?? more[next++] ?? '');
  await updateDailyPackageStatuses(
    client,
    [...changes.packages.values()].filter((c) => c.row.table === 'packages').map((c) => ({ id: c.row.id, ...c.update })),
  );
  await updateStatuses(
    client,
    'container_packages',
    'id',
    'bigint',
    [...changes.packages.values()]
      .filter((c) => c.row.table === 'container_packages')
      .map((c) => ({ id: c.row.id, ...c.update })),
  );
  await updateStatuses(
    client,
    'container_manifests',
    'id',
    'text',
    [...changes.containers.values()].map((c) => ({ id: c.row.id, ...c.update })),
  );
  await updateStatuses(
    client,
    'daily_manifests',
    'id',
    'text',
    [...changes.dailies.values()].map((c) => ({ id: c.row.id, ...c.update })),
  );
  await updateCustomsStatuses(client, [...changes.customs.values()]);
  // Cancelled before possession (cancel is only from manifested): its charge is voided in the same transaction.
  const cancelled = [...changes.packages.values()].filter((c) => c.update.to === 'cancelled');
  if (cancelled.length > 0) {
    const at = new Date(Math.max(...cancelled.map((c) => c.update.at.getTime())));
    await voidCharges(
      client,
      cancelled.map((c) => ({ table: c.row.table, id: c.row.id })),
      at,
    );
  }
  if (events.length === 0) return eventIds;
  const column = <T>(pick: (e: EventDraft, i: number) => T) => events.map(pick);
  await execute(
    client,
    sql`INSERT INTO lifecycle_events (id, account_id, environment, subject_type, manifest_id, tracking_number, carrier_barcode, container_id, type, status,
                                   previous_status, applied, occurred_at, location, source, scan_id, parent_id, exception_code, exception_text, details)
     SELECT * FROM unnest(${eventIds}::bigint[], ${column((e) => e.accountId)}::uuid[], ${column((e) => e.environment)}::"Environment"[],
                          ${column((e) => e.subjectType)}::text[], ${column((e) => e.manifestId)}::text[], ${column((e) => e.trackingNumber)}::text[],
                          ${column((e) => e.carrierBarcode)}::text[],
                          ${column((e) => e.containerId)}::text[], ${column((e) => e.type)}::text[], ${column((e) => e.status)}::text[],
                          ${column((e) => e.previousStatus)}::text[], ${column((e) => e.applied)}::boolean[], ${column((e) => e.occurredAt)}::timestamptz[],
                          ${column((e) => e.location)}::text[], ${column((e) => e.source)}::text[], ${column((e) => e.scanId)}::text[],
                          ${column((e) => (e.parent === null ? null : (eventIds[e.parent] ?? null)))}::bigint[],
                          ${column((e) => e.exceptionCode)}::text[], ${column((e) => e.exceptionText)}::text[],
                          ${column((e) => (e.details ? JSON.stringify(e.details) : null))}::jsonb[])`,
  );
  // The shipper's recipients are e-mailed at the statuses it opted in to, once each (lib/recipient-mail).
  await enqueueRecipientMails(client, events);
  // Deliveries due in the order the transitions happened, and made in that order per package and per manifest.
  await enqueueEvents(
    client,
    events.flatMap((event) =>
      event.webhook === null
        ? []
        : [
            {
              accountId: event.accountId,
              environment: event.environment,
              eventType: event.webhook,
              payload: () => webhookPayload(event),
              // One order per package, one per manifest (shared with its container's events); a package without a tracking number by its barcode.
              orderingKey:
                event.subjectType === 'package'
                  ? `package:${event.trackingNumber ?? event.carrierBarcode}`
                  : `manifest:${event.manifestId}`,
            },
          ],
    ),
    deliveryLimit,
  );
  return eventIds;
}

/** `= ANY($1)` beside the join lets the planner fetch exactly these rows by primary key, however big the table. */
async function updateStatuses(
  client: pg.PoolClient,
  table: 'container_packages' | 'container_manifests' | 'daily_manifests',
  key: 'id',
  keyType: 'bigint' | 'text',
  updates: { id: string; from: string; to: string; at: Date }[],
): Promise<void> {
  if (updates.length === 0) return;
  const ids = updates.map((u) => u.id);
  const idArray = keyType === 'bigint' ? sql`${ids}::bigint[]` : sql`${ids}::text[]`;
  const column = sql.id(key);
  const changed = await execute(
    client,
    sql`UPDATE ${sql.id(table)} AS t SET status = u.to_status, status_updated_at = u.at
     FROM unnest(${idArray}, ${updates.map((u) => u.from)}::text[], ${updates.map((u) => u.to)}::text[], ${updates.map((u) => u.at)}::timestamptz[])
          AS u(id, from_status, to_status, at)
     WHERE t.${column} = ANY(${idArray}) AND t.${column} = u.id AND t.status = u.from_status`,
  );
  if (changed !== updates.length) throw new LostUpdateError(`${table}: ${updates.length - changed} row(s) changed meanwhile`);
}

/**
 * Also moves each package's count and weight between statuses in its manifest's counters, in the same statement,
 * shard rows taken in (manifest, status) order so two writers lock them in the same order.
 */
async function updateDailyPackageStatuses(
  client: pg.PoolClient,
  updates: { id: string; from: string; to: string; at: Date }[],
): Promise<void> {
  if (updates.length === 0) return;
  const ids = sql`${updates.map((u) => u.id)}::bigint[]`;
  const row = await queryRow(
    client,
    sql<{ changed: number }>`WITH moved AS (
       UPDATE packages AS t SET status = u.to_status, status_updated_at = u.at
       FROM unnest(${ids}, ${updates.map((u) => u.from)}::text[], ${updates.map((u) => u.to)}::text[], ${updates.map((u) => u.at)}::timestamptz[])
            AS u(id, from_status, to_status, at)
       WHERE t.id = ANY(${ids}) AND t.id = u.id AND t.status = u.from_status
       RETURNING t.daily_manifest_id, u.from_status, u.to_status,
                 coalesce(package_weight_lb(t.data->>'PackageWeight', t.data->>'WeightUnit'), 0) AS weight_lb
     ), deltas AS (
       SELECT daily_manifest_id, from_status AS status, -1 AS n, -weight_lb AS weight_lb FROM moved
       UNION ALL
       SELECT daily_manifest_id, to_status, 1, weight_lb FROM moved
     ), counted AS (
       INSERT INTO daily_manifest_counts AS c (manifest_id, status, shard, packages, weight_lb)
       SELECT daily_manifest_id, status, ${COUNTER_SHARD}, sum(n), sum(weight_lb) FROM deltas
       GROUP BY daily_manifest_id, status ORDER BY daily_manifest_id, status
       ON CONFLICT (manifest_id, status, shard) DO UPDATE SET packages = c.packages + excluded.packages, weight_lb = c.weight_lb + excluded.weight_lb
     )
     SELECT count(*)::int AS changed FROM moved`,
  );
  const changed = row?.changed ?? 0;
  if (changed !== updates.length) throw new LostUpdateError(`packages: ${updates.length - changed} row(s) changed meanwhile`);
}

/** Guarded like statuses (IS NOT DISTINCT FROM: none is NULL), one statement per table. */
async function updateCustomsStatuses(client: pg.PoolClient, updates: CustomsUpdate[]): Promise<void> {
  for (const table of ['container_manifests', 'container_packages', 'packages'] as const) {
    const rows = updates.filter((u) => u.table === table);
    if (rows.length === 0) continue;
    const idArray =
      table === 'container_manifests' ? sql`${rows.map((u) => u.id)}::text[]` : sql`${rows.map((u) => u.id)}::bigint[]`;
    const changed = await execute(
      client,
      sql`UPDATE ${sql.id(table)} AS t SET customs_status = u.to_status, customs_status_updated_at = u.at
       FROM unnest(${idArray}, ${rows.map((u) => u.from)}::text[], ${rows.map((u) => u.to)}::text[], ${rows.map((u) => u.at)}::timestamptz[])
            AS u(id, from_status, to_status, at)
       WHERE t.id = ANY(${idArray}) AND t.id = u.id AND t.customs_status IS NOT DISTINCT FROM u.from_status`,
    );
    if (changed !== rows.length)
      throw new LostUpdateError(`${table}: ${rows.length - changed} customs state(s) changed meanwhile`);
  }
}

/** The webhook payload of one lifecycle event (design.md "Lifecycle"); a package's names its carrier barcode and house waybill. */
export function webhookPayload(event: EventDraft): Record<string, unknown> {
  const subject =
    event.subjectType === 'package'
      ? {
          tracking_number: event.trackingNumber,
          carrier_barcode: event.carrierBarcode,
          tracking_url: trackingUrl(event.environment, event.carrierBarcode),
          house_waybill: event.houseWaybill,
          manifest_id: event.manifestId,
          ...(event.containerId !== null ? { container_id: event.containerId } : {}),
        }
      : event.subjectType === 'container'
        ? { container_id: event.containerId, manifest_id: event.manifestId }
        : { manifest_id: event.manifestId };
  if (event.type.startsWith('customs.')) {
    return {
      ...subject,
      outcome: event.status,
      previous_outcome: event.previousStatus,
      occurred_at: event.occurredAt.toISOString(),
      location: event.location,
      reference: event.details?.reference ?? null,
      text: event.details?.text ?? null,
    };
  }
  if (event.type === 'package.amended' || event.type === PACKAGE_OFFLOADED_EVENT || event.type === CONTAINER_AMENDED_EVENT) {
    return { ...subject, status: event.status, occurred_at: event.occurredAt.toISOString(), ...event.details };
  }
  if (event.type === PACKAGE_ADJUSTED_EVENT) {
    return { ...subject, status: event.status, occurred_at: event.occurredAt.toISOString(), adjustment: event.details };
  }
  return {
    ...subject,
    status: event.status,
    previous_status: event.previousStatus,
    occurred_at: event.occurredAt.toISOString(),
    location: event.location,
    ...(event.status === 'exception' ? { exception: { code: event.exceptionCode, text: event.exceptionText } } : {}),
    ...event.payloadExtra,
  };
}
