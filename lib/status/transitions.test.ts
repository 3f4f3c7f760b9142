import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CONTAINER_STATUSES,
  CONTAINER_TRANSITIONS,
  containerWalk,
  PACKAGE_STATUSES,
  PACKAGE_TRANSITIONS,
  packageInPossession,
  packageWalk,
} from './transitions';

describe('the transition table', () => {
  it('cancels only from manifested, for packages and containers', () => {
    for (const status of PACKAGE_STATUSES) expect(PACKAGE_TRANSITIONS[status].cancel !== undefined).toBe(status === 'manifested');
    for (const status of CONTAINER_STATUSES)
      expect(CONTAINER_TRANSITIONS[status].cancel !== undefined).toBe(status === 'manifested');
  });

  it('raises exceptions only after received and before delivery, and resolves them to in_transit', () => {
    expect(PACKAGE_STATUSES.filter((s) => PACKAGE_TRANSITIONS[s].exception === 'exception')).toEqual([
      'received',
      'in_transit',
      'out_for_delivery',
    ]);
    expect(PACKAGE_TRANSITIONS.exception.resolved).toBe('in_transit');
  });

  it('the carrier has possession from received on', () => {
    expect(PACKAGE_STATUSES.filter(packageInPossession)).toEqual([
      'received',
      'in_transit',
      'out_for_delivery',
      'delivered',
      'exception',
    ]);
  });

  it('every simulator walk is a chain of table steps ending at the target, and the happy path is walked whole', () => {
    expect(packageWalk('manifested', 'delivered')?.map((s) => s.to)).toEqual([
      'received',
      'in_transit',
      'out_for_delivery',
      'delivered',
    ]);
    expect(containerWalk('manifested', 'closed')?.map((s) => s.to)).toEqual(['received', 'departed', 'arrived', 'closed']);
    expect(packageWalk('delivered', 'received')).toBeUndefined();
    fc.assert(
      fc.property(fc.constantFrom(...PACKAGE_STATUSES), fc.constantFrom(...PACKAGE_STATUSES), (from, to) => {
        const steps = packageWalk(from, to);
        if (steps === undefined) return;
        let at = from;
        for (const step of steps) {
          expect(PACKAGE_TRANSITIONS[at][step.event]).toBe(step.to);
          at = step.to;
        }
        expect(at).toBe(to);
        // Cancel is never a detour on the way elsewhere.
        if (to !== 'cancelled') expect(steps.some((s) => s.event === 'cancel')).toBe(false);
      }),
    );
  });
});
