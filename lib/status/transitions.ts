// The lifecycle: ONE table of allowed transitions (from → event → to) and the pure functions every writer plans
// with; lib/status/engine.ts writes what they say (docs/decisions/lifecycle.md). The statuses are contract words, so
// they live in lib/schemas/statuses.ts.
import {
  CONTAINER_STATUSES,
  CUSTOMS_OUTCOMES,
  PACKAGE_STATUSES,
  type ContainerStatus,
  type CustomsOutcome,
  type PackageStatus,
} from '@/lib/schemas/statuses';

export {
  CONTAINER_STATUSES,
  CUSTOMS_OUTCOMES,
  type CustomsOutcome,
  PACKAGE_STATUSES,
  type ContainerStatus,
  type PackageStatus,
} from '@/lib/schemas/statuses';

/** What a scan says happened; `resolved` ends an exception (back to in_transit). */
export const PACKAGE_EVENTS = [
  'received',
  'in_transit',
  'out_for_delivery',
  'delivered',
  'exception',
  'resolved',
  'cancel',
] as const;
export const CONTAINER_EVENTS = ['received', 'departed', 'arrived', 'closed', 'cancel'] as const;
export type PackageEvent = (typeof PACKAGE_EVENTS)[number];
export type ContainerEvent = (typeof CONTAINER_EVENTS)[number];

type Table<S extends string, E extends string> = Readonly<Record<S, Partial<Readonly<Record<E, S>>>>>;

/** Package: from → event → to. Exception from any state after received (until delivered), back to in_transit when resolved. */
export const PACKAGE_TRANSITIONS: Table<PackageStatus, PackageEvent> = {
  manifested: { received: 'received', cancel: 'cancelled' },
  received: { in_transit: 'in_transit', exception: 'exception' },
  in_transit: { out_for_delivery: 'out_for_delivery', exception: 'exception' },
  out_for_delivery: { delivered: 'delivered', exception: 'exception' },
  // Resolved: a `resolved` scan, or simply the next `in_transit` scan.
  exception: { resolved: 'in_transit', in_transit: 'in_transit' },
  delivered: {},
  cancelled: {},
};

export const CONTAINER_TRANSITIONS: Table<ContainerStatus, ContainerEvent> = {
  manifested: { received: 'received', cancel: 'cancelled' },
  received: { departed: 'departed' },
  departed: { arrived: 'arrived' },
  arrived: { closed: 'closed' },
  closed: {},
  cancelled: {},
};

/** Where a container's scan takes each of its packages: received, then in transit once it departed. */
export const CONTAINER_MOVES_PACKAGES_TO: Partial<Record<ContainerStatus, PackageStatus>> = {
  received: 'received',
  departed: 'in_transit',
};

export function isPackageStatus(value: string): value is PackageStatus {
  return (PACKAGE_STATUSES as readonly string[]).includes(value);
}
export function isContainerStatus(value: string): value is ContainerStatus {
  return (CONTAINER_STATUSES as readonly string[]).includes(value);
}

export function nextPackageStatus(from: PackageStatus, event: PackageEvent): PackageStatus | undefined {
  return PACKAGE_TRANSITIONS[from][event];
}
export function nextContainerStatus(from: ContainerStatus, event: ContainerEvent): ContainerStatus | undefined {
  return CONTAINER_TRANSITIONS[from][event];
}

/** The carrier has taken possession (first received scan): no cancel from here on. */
export function packageInPossession(status: PackageStatus): boolean {
  return status !== 'manifested' && status !== 'cancelled';
}

function packageEventTo(from: PackageStatus, to: PackageStatus): PackageEvent | undefined {
  const row = PACKAGE_TRANSITIONS[from];
  return PACKAGE_EVENTS.find((event) => row[event] === to);
}
function containerEventTo(from: ContainerStatus, to: ContainerStatus): ContainerEvent | undefined {
  const row = CONTAINER_TRANSITIONS[from];
  return CONTAINER_EVENTS.find((event) => row[event] === to);
}

/** The shortest walk from `from` to `to` (the simulator plays every step); cancel only when `to` is cancelled. */
export function packageWalk(from: PackageStatus, to: PackageStatus): { event: PackageEvent; to: PackageStatus }[] | undefined {
  return walk(from, to, PACKAGE_TRANSITIONS, PACKAGE_EVENTS, packageEventTo);
}
export function containerWalk(
  from: ContainerStatus,
  to: ContainerStatus,
): { event: ContainerEvent; to: ContainerStatus }[] | undefined {
  return walk(from, to, CONTAINER_TRANSITIONS, CONTAINER_EVENTS, containerEventTo);
}

function walk<S extends string, E extends string>(
  from: S,
  to: S,
  table: Table<S, E>,
  events: readonly E[],
  eventTo: (a: S, b: S) => E | undefined,
): { event: E; to: S }[] | undefined {
  if (from === to) return [];
  // Breadth-first over a handful of states: the first path found is a shortest one.
  const previous = new Map<S, S>([[from, from]]);
  const queue: S[] = [from];
  while (queue.length > 0) {
    const state = queue.shift();
    if (state === undefined) break;
    for (const event of events) {
      const next = table[state][event];
      if (next === undefined || previous.has(next)) continue;
      if ((event as string) === 'cancel' && next !== to) continue;
      previous.set(next, state);
      if (next === to) {
        const path: { event: E; to: S }[] = [];
        let at: S = to;
        while (at !== from) {
          const before = previous.get(at);
          if (before === undefined) return undefined;
          const step = eventTo(before, at);
          if (step === undefined) return undefined;
          path.unshift({ event: step, to: at });
          at = before;
        }
        return path;
      }
      queue.push(next);
    }
  }
  return undefined;
}

/** The webhook event name announcing that a subject reached `status` (undefined: none in the catalog). */
export function packageEventName(status: PackageStatus): string | undefined {
  return status === 'manifested' ? undefined : `package.${status}`;
}
export function containerEventName(status: ContainerStatus): string | undefined {
  return status === 'manifested' ? undefined : `container.${status}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Customs outcomes: a second, independent state; it never moves the status, but do_not_load holds a departure.

export type CustomsState = CustomsOutcome | 'none';

/**
 * A further request for information or screening may follow itself; do_not_load stands until a new assessment
 * completes; released is final. Anything else is refused; an outcome equal to the state is a repeat.
 */
export const CUSTOMS_TRANSITIONS: Readonly<Record<CustomsState, readonly CustomsOutcome[]>> = {
  none: CUSTOMS_OUTCOMES,
  assessment_complete: ['information_requested', 'screening_requested', 'do_not_load', 'released'],
  information_requested: ['assessment_complete', 'information_requested', 'screening_requested', 'do_not_load', 'released'],
  screening_requested: ['assessment_complete', 'information_requested', 'screening_requested', 'do_not_load', 'released'],
  do_not_load: ['assessment_complete'],
  released: [],
};

export function isCustomsOutcome(value: string): value is CustomsOutcome {
  return (CUSTOMS_OUTCOMES as readonly string[]).includes(value);
}

/** The state `outcome` leads to from `from` (null: none yet), or undefined when the table forbids it. */
export function nextCustomsStatus(from: CustomsOutcome | null, outcome: CustomsOutcome): CustomsOutcome | undefined {
  return CUSTOMS_TRANSITIONS[from ?? 'none'].includes(outcome) ? outcome : undefined;
}

export function customsEventName(outcome: CustomsOutcome): `customs.${CustomsOutcome}` {
  return `customs.${outcome}`;
}

/** A house (or the container itself) whose latest outcome is do_not_load keeps the container from departing. */
export function holdsDeparture(status: CustomsOutcome | null): boolean {
  return status === 'do_not_load';
}
