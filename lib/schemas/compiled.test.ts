import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  containerSample,
  euContainerSample,
  packageSample,
  rateSampleAirSkip,
  rateSampleAll,
  rateSampleExpress,
} from '@/e2e/api/support/samples';
import { compiled } from './compiled';
import { ZContainerManifestRequest } from './container-manifest';
import { ZPackageManifestRequest } from './package-manifest';
import { ZRateRequest } from './rate';
import { ZCreateWebhookRequest } from './webhooks';
import { ZAddressValidationRequest } from './address';
import { ZSchedulePickupRequest, ZListPickupsQuery } from './pickups';
import { ZAuditExportQuery, ZAuditQuery } from './audit';
import { ZListEventsQuery } from './events';
import { ZListInvoicesQuery } from './invoices';
import { ZListManifestsQuery, ZListPackagesQuery, ZManifestPackagesQuery, ZScanBatch, ZSimulateRequest } from './lifecycle';
import { ZPackageSelection } from './package-selection';
import { ZListRequestsQuery } from './request-log';
import { ZListWebhookDeliveriesQuery, ZRotateWebhookSecretRequest, ZUpdateWebhookRequest } from './webhooks';
import { ZSignInRequest, ZSignUpRequest, ZCreateTokenRequest } from './portal';

// The compiled parser must answer exactly as the runtime one: the same verdict, the same output (its keys, undefined
// members included), the same issues. Inputs are the published samples with fields replaced by what clients send.

const odd = fc.oneof(
  fc.constantFrom(undefined, null, '', ' ', 0, -1, 1.5, 1e21, Number.NaN, true, false, [], {}, '12', ' 12 ', '1e3', 'abc'),
  fc.constantFrom('x'.repeat(256), 'a\u0000b', 'tab\there', '\ud800', 'É', '90210-1234', 'M5X 1A9', '2026-11-23', 'JFK'),
  fc.string({ maxLength: 12 }),
  fc.integer(),
  fc.double(),
);

function mutate(value: unknown, picks: { at: number; value: unknown }[]): unknown {
  const walkable: { holder: Record<string, unknown> | unknown[]; key: string | number }[] = [];
  const copy = structuredClone(value);
  const visit = (node: unknown) => {
    if (Array.isArray(node)) node.forEach((item, i) => (walkable.push({ holder: node, key: i }), visit(item)));
    else if (node && typeof node === 'object')
      for (const key of Object.keys(node)) {
        walkable.push({ holder: node as Record<string, unknown>, key });
        visit((node as Record<string, unknown>)[key]);
      }
  };
  visit(copy);
  for (const pick of picks) {
    const place = walkable[pick.at % Math.max(1, walkable.length)];
    if (!place) continue;
    if (pick.value === undefined && !Array.isArray(place.holder)) delete place.holder[place.key];
    else (place.holder as Record<string | number, unknown>)[place.key] = pick.value;
  }
  return copy;
}

function same(schema: z.ZodType, input: unknown) {
  const fast = compiled(schema).safeParse(input);
  const runtime = schema.safeParse(input);
  expect(fast.success).toBe(runtime.success);
  if (runtime.success) expect(fast.data).toStrictEqual(runtime.data);
  else expect(fast.error?.issues).toStrictEqual(runtime.error.issues);
}

const cases: [string, z.ZodType, () => unknown][] = [
  ['rate (all)', ZRateRequest, rateSampleAll],
  ['rate (express)', ZRateRequest, rateSampleExpress],
  ['rate (airport)', ZRateRequest, rateSampleAirSkip],
  ['package', ZPackageManifestRequest, () => packageSample('CMP1')],
  ['container', ZContainerManifestRequest, () => containerSample('C-1', ['T1', 'T2'])],
  ['container with customs', ZContainerManifestRequest, () => euContainerSample('C-2', ['E1', 'E2'])],
  ['webhook', ZCreateWebhookRequest, () => ({ url: 'https://example.com/hook', events: ['package.sorting'] })],
  [
    'address',
    ZAddressValidationRequest,
    () => ({ Name: 'A', Address1: '1 Main St', City: 'Beverly Hills', State: 'CA', PostalCode: '90210', Country: 'US' }),
  ],
  ['pickup', ZSchedulePickupRequest, () => ({ date: '2026-12-01', readyTime: '09:00', closeTime: '17:00' })],
];

/** The keys of the object a schema reads first (through its pipes and transforms). */
function keysOf(schema: z.ZodType): string[] {
  const def = schema._zod.def as { type: string; shape?: Record<string, unknown>; in?: z.ZodType; innerType?: z.ZodType };
  if (def.shape) return Object.keys(def.shape);
  if (def.in) return keysOf(def.in);
  if (def.innerType) return keysOf(def.innerType);
  return [];
}

describe('compiled operation schemas', () => {
  for (const [name, schema, sample] of cases) {
    it(`answer as the runtime parser: ${name}`, () => {
      same(schema, sample());
      fc.assert(
        fc.property(fc.array(fc.record({ at: fc.nat(), value: odd }), { minLength: 1, maxLength: 4 }), (picks) =>
          same(schema, mutate(sample(), picks)),
        ),
        { numRuns: 400 },
      );
    });
  }

  // Every other schema an operation parses with: objects of its own keys (and one it does not know), the values
  // what a query string or a careless client sends.
  const others: [string, z.ZodType][] = Object.entries({
    ZListPickupsQuery,
    ZAuditExportQuery,
    ZAuditQuery,
    ZListEventsQuery,
    ZListInvoicesQuery,
    ZListManifestsQuery,
    ZListPackagesQuery,
    ZManifestPackagesQuery,
    ZScanBatch,
    ZSimulateRequest,
    ZPackageSelection,
    ZListRequestsQuery,
    ZListWebhookDeliveriesQuery,
    ZRotateWebhookSecretRequest,
    ZUpdateWebhookRequest,
    ZSignInRequest,
    ZSignUpRequest,
    ZCreateTokenRequest,
  });
  const queryText = fc.oneof(
    fc.constantFrom('', '0', '1', '-1', '50', '101', 'true', 'false', 'abc', '2026-11-23', '2026-11-23T08:00:00Z', 'live'),
    fc.constantFrom('received', 'delivered', 'package.sorting', 'evt_x', 'AirSkip', 'created_at', 'a,b', ' 5 '),
  );
  for (const [name, schema] of others) {
    it(`answer as the runtime parser: ${name}`, () => {
      const own = keysOf(schema);
      expect(own.length).toBeGreaterThan(0);
      const keys = [...own, 'unknownField'];
      const value = fc.oneof(queryText, odd, fc.array(fc.oneof(queryText, odd), { maxLength: 3 }));
      fc.assert(
        fc.property(fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: keys.length }), (input) => same(schema, input)),
        { numRuns: 300 },
      );
    });
  }

  it('are compiled once per schema, and stay the runtime parser where the runtime is not Node', () => {
    expect(compiled(ZRateRequest)).toBe(compiled(ZRateRequest));
    expect(compiled(ZRateRequest)).not.toBe(ZRateRequest);
  });
});
