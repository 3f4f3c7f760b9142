import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CUSTOMS_OUTCOMES,
  CUSTOMS_TRANSITIONS,
  customsEventName,
  holdsDeparture,
  nextCustomsStatus,
  type CustomsOutcome,
} from './transitions';
import { CUSTOMS_WEBHOOK_EVENTS } from '@/lib/schemas/webhooks';

describe('the customs outcome table', () => {
  it('has a row for every state and names only outcomes', () => {
    expect(Object.keys(CUSTOMS_TRANSITIONS).sort()).toEqual([...CUSTOMS_OUTCOMES, 'none'].sort());
    for (const next of Object.values(CUSTOMS_TRANSITIONS))
      for (const outcome of next) expect(CUSTOMS_OUTCOMES).toContain(outcome);
  });

  it('takes any outcome first, lifts do_not_load only by a new assessment, and ends at released', () => {
    for (const outcome of CUSTOMS_OUTCOMES) expect(nextCustomsStatus(null, outcome)).toBe(outcome);
    expect(CUSTOMS_OUTCOMES.filter((o) => nextCustomsStatus('do_not_load', o) !== undefined)).toEqual(['assessment_complete']);
    expect(CUSTOMS_OUTCOMES.filter((o) => nextCustomsStatus('released', o) !== undefined)).toEqual([]);
    // A further request is a new request; a repeated assessment or hold is not a transition.
    expect(nextCustomsStatus('information_requested', 'information_requested')).toBe('information_requested');
    expect(nextCustomsStatus('screening_requested', 'screening_requested')).toBe('screening_requested');
    expect(nextCustomsStatus('assessment_complete', 'assessment_complete')).toBeUndefined();
    expect(nextCustomsStatus('do_not_load', 'do_not_load')).toBeUndefined();
  });

  it('names each outcome as one of the webhook catalog’s customs events', () => {
    expect(CUSTOMS_OUTCOMES.map(customsEventName)).toEqual([...CUSTOMS_WEBHOOK_EVENTS]);
  });

  it('over any sequence of outcomes, a departure is held exactly while the last applied one is do_not_load', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...CUSTOMS_OUTCOMES), { maxLength: 30 }), (outcomes) => {
        let state: CustomsOutcome | null = null;
        let lastApplied: CustomsOutcome | null = null;
        let held = false;
        for (const outcome of outcomes) {
          const next = nextCustomsStatus(state, outcome);
          if (next === undefined) continue;
          expect(next).toBe(outcome);
          // Nothing but a completed assessment ever follows a hold.
          if (held) expect(outcome).toBe('assessment_complete');
          state = next;
          lastApplied = outcome;
          held = holdsDeparture(state);
        }
        expect(held).toBe(lastApplied === 'do_not_load');
        expect(holdsDeparture(state)).toBe(state === 'do_not_load');
      }),
    );
  });
});
