import 'server-only';
import type { TMeasured } from '@/lib/schemas/lifecycle';
import { recordAudit, type AuditOrigin } from '@/lib/audit/record-audit';
import { pgTransaction } from '@/lib/db';
import type { Environment } from '@/lib/generated/prisma/enums';
import { AppError, validationError } from '@/lib/errors/app-error';
import {
  Changes,
  lockContainers,
  lockDailyManifests,
  lockOffloadedHouses,
  lockPackages,
  persist,
  type PackageRow,
  type Stamp,
} from './engine';
import { isCarrierBarcode, normalizeCarrierBarcode } from '@/lib/schemas/carrier-barcode';
import { MAX_SIMULATED_DELIVERIES } from '@/lib/schemas/lifecycle';
import { queryRow, sql } from '@/lib/sql';
import { withDeadlockRetry } from './retry';
import { departureHolds } from './ingest-scans';
import {
  CONTAINER_STATUSES,
  type CustomsOutcome,
  containerWalk,
  isContainerStatus,
  isPackageStatus,
  PACKAGE_STATUSES,
  packageInPossession,
  packageWalk,
  type PackageStatus,
} from './transitions';

// Shipper-side changes of status: cancel and the test-mode simulator. A refusal throws before anything is written.

interface Scope {
  accountId: string;
  environment: Environment;
}

function notFoundPackage(): AppError {
  return new AppError('not_found', 'No package with this tracking number in this account and environment.');
}
function notFoundManifest(id: string): AppError {
  return new AppError('not_found', `No manifest ${id} in this account and environment.`);
}

/** The package a path names, as GET /packages/{TrackingNumber} finds it: by carrier barcode, or tracking number as stored, then in any case. */
async function lockOnePackage(client: Parameters<typeof lockPackages>[0], scope: Scope, identifier: string): Promise<PackageRow> {
  const rows = isCarrierBarcode(identifier)
    ? await lockPackages(client, scope, { carrierBarcodes: [normalizeCarrierBarcode(identifier)] })
    : await lockPackages(client, scope, { trackingNumbers: [identifier], anyCase: true });
  const row = rows.find((r) => r.trackingNumber === identifier) ?? rows[0];
  if (!row) throw notFoundPackage();
  return row;
}

function notCancellable(what: string, status: string): AppError {
  return new AppError(
    'not_cancellable',
    `${what} is ${status}: the carrier has taken possession, so it can no longer be cancelled.`,
    {
      extra: { current_status: status },
    },
  );
}

/** A closed daily manifest is handed over as it was closed: nothing of it is cancelled (docs/decisions/lifecycle.md). */
function closedManifest(what: string, manifestId: string): AppError {
  return new AppError(
    'not_cancellable',
    `${what} is in closed manifest ${manifestId}: a closed manifest is not changed, so it can no longer be cancelled.`,
    {
      extra: { current_status: 'closed', ManifestID: manifestId },
    },
  );
}

/** FOR KEY SHARE conflicts only with the close's FOR UPDATE: a cancel either commits before a close or sees it closed. */
async function refuseIfClosed(client: Parameters<typeof lockPackages>[0], manifestId: string, what: string): Promise<void> {
  const manifest = await queryRow(
    client,
    sql<{ status: string }>`SELECT status FROM daily_manifests WHERE id = ${manifestId} FOR KEY SHARE`,
  );
  if (manifest?.status === 'closed') throw closedManifest(what, manifestId);
}

/** POST /packages/{TrackingNumber}/cancel. Cancelling a cancelled package is a safe retry. */
export async function cancelPackage(options: Scope & { trackingNumber: string; origin: AuditOrigin }): Promise<void> {
  await withDeadlockRetry(() =>
    pgTransaction(async (client) => {
      const row = await lockOnePackage(client, options, options.trackingNumber);
      if (row.status === 'cancelled') return;
      if (row.status !== 'manifested') throw notCancellable(`Package ${options.trackingNumber}`, row.status);
      if (row.table === 'packages') await refuseIfClosed(client, row.manifestId, `Package ${options.trackingNumber}`);
      const changes = new Changes();
      changes.movePackage(row, 'cancel', { occurredAt: new Date(), location: null, source: 'cancel' });
      await persist(client, changes);
      await recordAudit(
        options.origin,
        {
          accountId: options.accountId,
          environment: options.environment,
          action: 'package.cancelled',
          target: { type: 'package', id: row.trackingNumber ?? row.carrierBarcode },
          details: { manifest_id: row.manifestId },
        },
        client,
      );
    }),
  );
}

/**
 * A container with all its packages, only while none is in the carrier's hands. A daily manifest: its manifested
 * packages, and itself once none is left alive. Nothing left to cancel: 409 not_cancellable.
 */
export async function cancelManifest(options: Scope & { manifestId: string; origin: AuditOrigin }): Promise<void> {
  await withDeadlockRetry(() =>
    pgTransaction(async (client) => {
      const stamp: Stamp = { occurredAt: new Date(), location: null, source: 'cancel' };
      const changes = new Changes();
      const audit = (details: Record<string, string | number>) =>
        recordAudit(
          options.origin,
          {
            accountId: options.accountId,
            environment: options.environment,
            action: 'manifest.cancelled',
            target: { type: 'manifest', id: options.manifestId },
            details,
          },
          client,
        );
      const [container] = await lockContainers(client, options, { manifestIds: [options.manifestId] });
      if (container) {
        // Its offloaded houses go where it goes: a shipper cancelling the container cancels the parcels it shipped
        // under it (docs/decisions/customs.md). Only those still manifested: one the carrier has taken on its own
        // since stays, and does not hold the container's cancellation (it is no longer aboard).
        const offloaded = (await lockOffloadedHouses(client, [container])).filter((pkg) => pkg.status === 'manifested');
        if (container.status === 'cancelled') {
          // Cancelled again: a retry, unless the container was cancelled before its offloaded houses followed it.
          if (offloaded.length === 0) return;
          for (const pkg of offloaded) changes.movePackage(pkg, 'cancel', stamp);
          await persist(client, changes);
          await audit({ type: 'container', container_id: container.containerId, packages_cancelled: offloaded.length });
          return;
        }
        if (container.status !== 'manifested') throw notCancellable(`Container ${container.containerId}`, container.status);
        const held = container.packages.find((p) => packageInPossession(p.status));
        if (held)
          throw notCancellable(`Package ${held.trackingNumber ?? held.id} of container ${container.containerId}`, held.status);
        const index = changes.moveContainer(container, 'cancel', stamp) ?? null;
        const cancelled = [...container.packages.filter((pkg) => pkg.status === 'manifested'), ...offloaded];
        for (const pkg of cancelled) changes.movePackage(pkg, 'cancel', stamp, index);
        await persist(client, changes);
        await audit({ type: 'container', container_id: container.containerId, packages_cancelled: cancelled.length });
        return;
      }
      const packages = await lockPackages(client, options, { dailyManifestIds: [options.manifestId] });
      const [daily] = await lockDailyManifests(client, options, [options.manifestId]);
      if (!daily) throw notFoundManifest(options.manifestId);
      if (daily.status === 'cancelled') return;
      if (daily.status === 'closed') throw closedManifest(`Manifest ${daily.id}`, daily.id);
      const open = packages.filter((p) => p.status === 'manifested');
      const held = packages.find((p) => packageInPossession(p.status));
      if (open.length === 0 && held) throw notCancellable(`Every package of manifest ${daily.id}`, held.status);
      for (const pkg of open) changes.movePackage(pkg, 'cancel', stamp);
      if (packages.every((p) => p.status === 'cancelled')) changes.cancelDaily(daily, stamp);
      await persist(client, changes);
      await audit({ type: 'daily', packages_cancelled: open.length });
    }),
  );
}

function stepTime(after: Date, step: number): Date {
  return new Date(Math.max(Date.now(), after.getTime() + 1) + step);
}

function illegal(what: string, current: string, target: string): AppError {
  return new AppError('illegal_transition', `${what} is ${current}; it cannot reach ${target}.`, {
    extra: { current_status: current },
  });
}

function walkPackage(
  changes: Changes,
  row: PackageRow,
  target: PackageStatus,
  exception: { code?: string; text?: string; measured?: TMeasured },
): boolean {
  const steps = packageWalk(row.status, target);
  if (steps === undefined) return false;
  const base = row.statusUpdatedAt;
  steps.forEach((step, i) => {
    const stamp: Stamp = {
      occurredAt: stepTime(base, i),
      location: null,
      source: 'simulator',
      exceptionCode: exception.code ?? 'simulated',
      exceptionText: exception.text ?? 'Simulated exception',
    };
    changes.movePackage(row, step.event, stamp);
    // As a received scan reporting what the hub measured would (lib/status/ingest-scans.ts).
    if (step.event === 'received' && exception.measured) changes.measurePackage(row, exception.measured, stamp);
  });
  return true;
}

const simulatorLimit = {
  maxDeliveries: MAX_SIMULATED_DELIVERIES,
  refuse: (deliveries: number) =>
    validationError([
      {
        path: 'status',
        message: `this walk would send ${deliveries} webhook deliveries, more than the ${MAX_SIMULATED_DELIVERIES} one simulate call may send; walk to an earlier status first, in smaller steps`,
      },
    ]),
};

/** Test mode: POST …/packages/{TrackingNumber}/simulate walks every intermediate status to the target, each an event. */
export async function simulatePackage(
  options: Scope & { trackingNumber: string; target: PackageStatus; code?: string; text?: string; measured?: TMeasured },
): Promise<void> {
  await withDeadlockRetry(() =>
    pgTransaction(async (client) => {
      const row = await lockOnePackage(client, options, options.trackingNumber);
      if (options.target === 'cancelled' && row.table === 'packages')
        await refuseIfClosed(client, row.manifestId, `Package ${options.trackingNumber}`);
      const changes = new Changes();
      if (!walkPackage(changes, row, options.target, options))
        throw illegal(`Package ${options.trackingNumber}`, row.status, options.target);
      await persist(client, changes, undefined, simulatorLimit);
    }),
  );
}

/** Test mode: a container walks with its packages; a daily manifest walks each package that can reach the status. */
export async function simulateManifest(
  options: Scope & { manifestId: string; target: string; code?: string; text?: string; measured?: TMeasured },
): Promise<void> {
  await withDeadlockRetry(() =>
    pgTransaction(async (client) => {
      const changes = new Changes();
      const [container] = await lockContainers(client, options, { manifestIds: [options.manifestId] });
      if (container) {
        const target = options.target;
        if (!isContainerStatus(target))
          throw validationError([
            { path: 'status', message: `a container's status is one of: ${CONTAINER_STATUSES.join(', ')}` },
          ]);
        const steps = containerWalk(container.status, target);
        if (steps === undefined) throw illegal(`Container ${container.containerId}`, container.status, options.target);
        const held = steps.some((step) => step.event === 'departed') ? departureHolds(container) : undefined;
        if (held) throw new AppError('do_not_load', held.message, { details: held.details });
        const base = container.statusUpdatedAt;
        steps.forEach((step, i) => {
          const stamp: Stamp = { occurredAt: stepTime(base, i), location: null, source: 'simulator' };
          const index = changes.moveContainer(container, step.event, stamp) ?? null;
          // Every package the container carried into received was measured the same way (a test aid).
          if (step.event === 'received' && options.measured)
            for (const pkg of container.packages)
              if (pkg.status === 'received') changes.measurePackage(pkg, options.measured, stamp);
          if (step.event === 'cancel')
            for (const pkg of container.packages)
              if (pkg.status === 'manifested') changes.movePackage(pkg, 'cancel', stamp, index);
        });
        await persist(client, changes, undefined, simulatorLimit);
        return;
      }
      const packages = await lockPackages(client, options, { dailyManifestIds: [options.manifestId] });
      const [daily] = await lockDailyManifests(client, options, [options.manifestId]);
      if (!daily) throw notFoundManifest(options.manifestId);
      const target = options.target;
      if (!isPackageStatus(target))
        throw validationError([
          { path: 'status', message: `a daily manifest's packages' status is one of: ${PACKAGE_STATUSES.join(', ')}` },
        ]);
      if (target === 'cancelled' && daily.status === 'closed') throw closedManifest(`Manifest ${daily.id}`, daily.id);
      let moved = 0;
      for (const pkg of packages) if (walkPackage(changes, pkg, target, options)) moved++;
      if (moved === 0 && packages.length > 0) {
        const first = packages[0];
        throw illegal(`No package of manifest ${daily.id}`, first?.status ?? 'manifested', options.target);
      }
      await persist(client, changes, undefined, simulatorLimit);
    }),
  );
}

function outcomeTime(after: Date | null): Date {
  return new Date(Math.max(Date.now(), (after?.getTime() ?? 0) + 1));
}

function illegalOutcome(what: string, current: CustomsOutcome | null, outcome: CustomsOutcome): AppError {
  return new AppError(
    'illegal_transition',
    current === 'do_not_load'
      ? `${what} is on do_not_load; only assessment_complete (a new assessment) lifts it.`
      : `${what}'s customs outcome is ${current ?? 'none'}; ${outcome} cannot follow it.`,
    { extra: { current_customs_status: current ?? 'none' } },
  );
}

/** Test mode: records the outcome as a carrier scan would; a repeat is a no-op, one the table forbids 409. */
export async function simulatePackageCustoms(
  options: Scope & { trackingNumber: string; outcome: CustomsOutcome; text?: string },
): Promise<void> {
  await withDeadlockRetry(() =>
    pgTransaction(async (client) => {
      const row = await lockOnePackage(client, options, options.trackingNumber);
      const what = `Package ${options.trackingNumber}`;
      if (row.status === 'cancelled') throw illegal(what, row.status, `customs ${options.outcome}`);
      const changes = new Changes();
      const stamp: Stamp = {
        occurredAt: outcomeTime(row.customsStatusUpdatedAt),
        location: null,
        source: 'simulator',
        customsText: options.text ?? null,
      };
      if (changes.customsPackage(row, options.outcome, stamp) === undefined) {
        if (row.customsStatus === options.outcome) return;
        throw illegalOutcome(what, row.customsStatus, options.outcome);
      }
      await persist(client, changes, undefined, simulatorLimit);
    }),
  );
}

/** Test mode: a container's outcome on the container itself (houses keep theirs); a daily manifest's on each package. */
export async function simulateManifestCustoms(
  options: Scope & { manifestId: string; outcome: CustomsOutcome; text?: string },
): Promise<void> {
  await withDeadlockRetry(() =>
    pgTransaction(async (client) => {
      const changes = new Changes();
      const stampAfter = (after: Date | null): Stamp => ({
        occurredAt: outcomeTime(after),
        location: null,
        source: 'simulator',
        customsText: options.text ?? null,
      });
      const [container] = await lockContainers(client, options, { manifestIds: [options.manifestId] });
      if (container) {
        const what = `Container ${container.containerId}`;
        if (container.status === 'cancelled') throw illegal(what, container.status, `customs ${options.outcome}`);
        if (changes.customsContainer(container, options.outcome, stampAfter(container.customsStatusUpdatedAt)) === undefined) {
          if (container.customsStatus === options.outcome) return;
          throw illegalOutcome(what, container.customsStatus, options.outcome);
        }
        await persist(client, changes, undefined, simulatorLimit);
        return;
      }
      const packages = await lockPackages(client, options, { dailyManifestIds: [options.manifestId] });
      const [daily] = await lockDailyManifests(client, options, [options.manifestId]);
      if (!daily) throw notFoundManifest(options.manifestId);
      const live = packages.filter((pkg) => pkg.status !== 'cancelled');
      for (const pkg of live) changes.customsPackage(pkg, options.outcome, stampAfter(pkg.customsStatusUpdatedAt));
      const first = live.find((pkg) => pkg.customsStatus !== options.outcome);
      if (changes.isEmpty && first)
        throw illegalOutcome(`No package of manifest ${daily.id}`, first.customsStatus, options.outcome);
      await persist(client, changes, undefined, simulatorLimit);
    }),
  );
}
