import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '@/lib/errors/app-error';
import { ZCreateTokenRequest, ZSignInRequest, ZSignUpRequest } from '@/lib/schemas/portal';
import { ZFindPackageQuery } from '@/lib/spreadsheets/list-params';
import { ZListManifestsQuery } from './lifecycle';
import {
  containerDetail,
  containerSample,
  packageSample,
  rateSampleAll,
  rateSampleAirSkip,
  rateSampleExpress,
} from '@/e2e/api/support/samples';
import {
  CONTAINER_MANIFEST_ALIASES,
  MAX_CONTAINER_PACKAGES,
  ZContainerDetail,
  ZContainerManifestRequest,
} from './container-manifest';
import { PACKAGE_MANIFEST_ALIASES, ZPackage, ZPackageManifestRequest } from './package-manifest';
import { MAX_ERROR_DETAILS, parseOperation, type Aliases } from './parse';
import { RATE_ALIASES, ZRateRequest } from './rate';
import { WEBHOOK_EVENTS_MAX, ZCreateWebhookRequest, ZUpdateWebhookRequest } from './webhooks';
import { defined } from '@/lib/test-support/defined';

// The memory budget and the text rule, at the level every API and portal body goes through.

function failure(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a validation error');
}

const container = (details: unknown) => ({ ...containerSample('ULD-1'), ContainerDetails: details });
const parseContainer = (body: unknown) =>
  parseOperation(ZContainerManifestRequest, body, { aliases: CONTAINER_MANIFEST_ALIASES });
const parsePackage = (body: unknown) =>
  parseOperation(ZPackageManifestRequest, body, { aliases: PACKAGE_MANIFEST_ALIASES, at: 'package' });
const NUL = 'a\u0000b';

/** Sets `field`, removing the published alias the sample uses for it (`Container Weight`, `lenght`). */
function withField(body: Record<string, unknown>, field: string, value: unknown, aliases: Aliases) {
  const out = { ...body };
  for (const alias of aliases[field] ?? []) delete out[alias];
  return { ...out, [field]: value };
}
const LONE = 'a\ud800b';

describe('arrays are measured before their elements', () => {
  it(`accepts ${MAX_CONTAINER_PACKAGES} packages and refuses one more with one error`, () => {
    const ok = Array.from({ length: MAX_CONTAINER_PACKAGES }, (_, i) => containerDetail(`TN${i}`));
    expect(parseContainer(container(ok)).packages).toHaveLength(MAX_CONTAINER_PACKAGES);
    const error = failure(() => parseContainer(container([...ok, containerDetail('TN-extra')])));
    expect(error.details).toEqual([{ path: 'ContainerDetails', message: 'must hold at most 5000 packages (got 5001)' }]);
  });

  it('refuses 500,000 numbers with one error, without validating any of them', () => {
    const started = performance.now();
    const error = failure(() => parseContainer(container(Array(500_000).fill(1))));
    // Validating each element took seconds (and the heap); counting first takes microseconds.
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(error.code).toBe('validation_failed');
    expect(error.message).toBe('ContainerDetails: must hold at most 5000 packages (got 500000)');
    expect(error.details).toEqual([{ path: 'ContainerDetails', message: 'must hold at most 5000 packages (got 500000)' }]);
  });

  it(`accepts ${WEBHOOK_EVENTS_MAX} webhook events and refuses one more, or a million, with one error`, () => {
    const body = (events: unknown[]) => ({ url: 'https://example.com/hook', events });
    expect(parseOperation(ZCreateWebhookRequest, body(Array(WEBHOOK_EVENTS_MAX).fill('package.sorting'))).events).toEqual([
      'package.sorting',
    ]);
    for (const n of [WEBHOOK_EVENTS_MAX + 1, 1_000_000]) {
      const error = failure(() => parseOperation(ZCreateWebhookRequest, body(Array(n).fill(1))));
      expect(error.details).toEqual([{ path: 'events', message: `must name at most ${WEBHOOK_EVENTS_MAX} events (got ${n})` }]);
      const update = failure(() => parseOperation(ZUpdateWebhookRequest, { events: Array(n).fill('x') }));
      expect(update.details).toEqual([{ path: 'events', message: `must name at most ${WEBHOOK_EVENTS_MAX} events (got ${n})` }]);
    }
  });

  it('names ten unknown webhook fields and counts the rest', () => {
    const body: Record<string, unknown> = { url: 'https://example.com/hook', events: ['package.sorting'] };
    for (let i = 0; i < 100_000; i++) body[`k${i}`] = i;
    const error = failure(() => parseOperation(ZCreateWebhookRequest, body));
    expect(error.details).toHaveLength(11);
    expect(error.details[0]).toEqual({ path: 'k0', message: 'is not a known field' });
    expect(error.details[10]).toEqual({ path: '(body)', message: 'has 100000 unknown fields; the first 10 are named' });
    // A typo is still named beside a bad known field, as before.
    const typo = failure(() => parseOperation(ZUpdateWebhookRequest, { event: ['package.sorting'], enabled: 'maybe' }));
    expect(typo.details).toEqual([
      { path: 'enabled', message: 'must be true or false' },
      { path: 'event', message: 'is not a known field' },
    ]);
  });
});

describe('the error list is capped', () => {
  it(`lists the first ${MAX_ERROR_DETAILS} failing fields and counts the rest`, () => {
    const error = failure(() => parseContainer(container(Array(MAX_CONTAINER_PACKAGES).fill(1))));
    expect(error.message).toBe('5000 fields are invalid; the first 100 are listed.');
    expect(error.details).toHaveLength(MAX_ERROR_DETAILS);
    expect(error.details[0]).toEqual({ path: 'ContainerDetails[0]', message: 'must be an object' });
    expect(error.details[99]).toEqual({ path: 'ContainerDetails[99]', message: 'must be an object' });
    expect(error.extra).toEqual({ details_truncated: 4900 });
    expect(JSON.stringify({ details: error.details, ...error.extra }).length).toBeLessThan(10_000);
  });

  it('keeps at most 100 package errors in memory however many fields fail, and counts them all', () => {
    const bad = Object.fromEntries(Object.keys(ZContainerDetail.shape).map((f) => [f, { not: 'text' }]));
    const body = container(Array.from({ length: MAX_CONTAINER_PACKAGES }, () => bad));
    // What Zod itself holds: 100 package errors and one issue counting the rest, not 75,000.
    const raw = ZContainerManifestRequest.safeParse(body);
    expect(raw.error?.issues).toHaveLength(MAX_ERROR_DETAILS + 1);
    const error = failure(() => parseContainer(body));
    expect(error.message).toBe('75000 fields are invalid; the first 100 are listed.');
    expect(error.details).toHaveLength(MAX_ERROR_DETAILS);
    expect(error.details[0]).toEqual({
      path: 'ContainerDetails[0].TrackingNumber',
      message: 'must be 1 to 64 characters: letters, digits, "-", "_" or "."',
    });
    expect(error.extra).toEqual({ details_truncated: 74_900 });
  });

  it("still reports a duplicate tracking number beside the item's other errors", () => {
    const error = failure(() =>
      parseContainer(container([containerDetail('TN1'), { ...containerDetail('TN1'), PackageWeight: 'heavy' }])),
    );
    expect(error.details).toEqual([
      { path: 'ContainerDetails[1].PackageWeight', message: 'must be a number' },
      { path: 'ContainerDetails[1].TrackingNumber', message: 'duplicates ContainerDetails[0].TrackingNumber' },
    ]);
    expect(failure(() => parseContainer(container('nope'))).details).toEqual([
      { path: 'ContainerDetails', message: 'must be an array of packages' },
    ]);
  });

  it('lists exactly 100 without a count, and 101 with a count of one', () => {
    const hundred = failure(() => parseContainer(container(Array(100).fill(1))));
    expect(hundred.details).toHaveLength(100);
    expect(hundred.extra).toEqual({});
    expect(hundred.message).toBe('100 fields are invalid.');
    const more = failure(() => parseContainer(container(Array(101).fill(1))));
    expect(more.details).toHaveLength(100);
    expect(more.extra).toEqual({ details_truncated: 1 });
  });

  it('names a megabyte-long unknown key by its beginning', () => {
    const key = 'k'.repeat(1_000_000);
    const error = failure(() =>
      parseOperation(ZCreateWebhookRequest, { url: 'https://example.com/', events: ['package.sorting'], [key]: 1 }),
    );
    expect(error.details).toEqual([{ path: `${'k'.repeat(100)}…`, message: 'is not a known field' }]);
  });
});

// Every text field of every body: a NUL and a lone surrogate are each a 422 naming that field.
function stringFields(schema: z.ZodObject): string[] {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties: Record<string, { type?: string | string[] }>;
  };
  // A field's documented types: a number field also takes numeric text, an optional one null (fields.ts accepted()).
  return Object.entries(json.properties)
    .filter(([, p]) =>
      ([] as (string | undefined)[]).concat(p.type).some((t) => t === 'string' || t === 'number' || t === 'integer'),
    )
    .map(([name]) => name);
}

describe('the text rule reaches every field', () => {
  const containerFields = stringFields(ZContainerManifestRequest as unknown as z.ZodObject).filter(
    (f) => f !== 'ContainerDetails',
  );
  const detailFields = stringFields(ZContainerDetail);
  const packageFields = stringFields(ZPackage);
  const rateFields = stringFields(ZRateRequest as unknown as z.ZodObject);

  it('covers the whole field lists', () => {
    expect(containerFields.length).toBeGreaterThan(25);
    expect(detailFields).toHaveLength(16); // QuoteID included
    expect(packageFields).toHaveLength(46); // QuoteID included
    expect(rateFields).toHaveLength(10);
  });

  for (const [bad, label] of [
    [NUL, 'NUL'],
    [LONE, 'lone surrogate'],
    ['a\u0085b', 'C1 control'],
    ['a\u007Fb', 'DEL'],
  ] as const) {
    it(`container manifest header and details: ${label} -> the field is named`, () => {
      for (const field of containerFields) {
        const error = failure(() =>
          parseContainer(withField(container([containerDetail('TN1')]), field, bad, CONTAINER_MANIFEST_ALIASES)),
        );
        expect(
          error.details.map((d) => d.path),
          field,
        ).toEqual([field]);
      }
      for (const field of detailFields) {
        const error = failure(() => parseContainer(container([{ ...containerDetail('TN1'), [field]: bad }])));
        expect(
          error.details.map((d) => d.path),
          field,
        ).toEqual([`ContainerDetails[0].${field}`]);
      }
    });

    it(`package manifest: ${label} -> the field is named`, () => {
      for (const field of packageFields) {
        const body = packageSample('PKG1');
        const error = failure(() => parsePackage({ package: withField(body.package, field, bad, PACKAGE_MANIFEST_ALIASES) }));
        expect(
          error.details.map((d) => d.path),
          field,
        ).toEqual([`package.${field}`]);
      }
    });

    it(`rate, webhooks and portal bodies: ${label} -> the field is named`, () => {
      for (const field of rateFields) {
        const error = failure(() =>
          parseOperation(ZRateRequest, withField(rateSampleAll(), field, bad, RATE_ALIASES), { aliases: RATE_ALIASES }),
        );
        expect(
          error.details.map((d) => d.path),
          field,
        ).toEqual([field]);
      }
      const hook = { url: 'https://example.com/hook', events: ['package.sorting'], description: 'Orders' };
      for (const field of ['url', 'description'] as const) {
        expect(
          failure(() => parseOperation(ZCreateWebhookRequest, { ...hook, [field]: bad })).details.map((d) => d.path),
        ).toEqual([field]);
        expect(failure(() => parseOperation(ZUpdateWebhookRequest, { [field]: bad })).details.map((d) => d.path)).toEqual([
          field,
        ]);
      }
      const signUp = { company: 'Acme Parcels', email: 'ops@acme.example', password: 'correct horse battery' };
      for (const field of ['company', 'email', 'password'] as const) {
        expect(
          failure(() => parseOperation(ZSignUpRequest, { ...signUp, [field]: `${bad}xxxxxxxxxx` })).details.map((d) => d.path),
        ).toEqual([field]);
      }
      for (const field of ['email', 'password'] as const) {
        expect(
          failure(() => parseOperation(ZSignInRequest, { email: 'ops@acme.example', password: 'x', [field]: bad })).details.map(
            (d) => d.path,
          ),
        ).toEqual([field]);
      }
      expect(failure(() => parseOperation(ZCreateTokenRequest, { name: bad })).details).toEqual([
        { path: 'name', message: expect.stringMatching(/^must (not contain control characters|be valid Unicode text)/) },
      ]);
    });
  }

  it('lets a shipment description hold lines, and no other field', () => {
    const { header } = parseContainer({ ...container([]), ShipmentDescription: 'Apparel\r\n\tboxed' });
    expect(header.ShipmentDescription).toBe('Apparel\r\n\tboxed');
    expect(
      parsePackage({ package: { ...packageSample('P').package, ShipmentDescription: 'Books\nand maps' } }).ShipmentDescription,
    ).toBe('Books\nand maps');
    const error = failure(() => parseContainer({ ...container([]), FromCompany: 'Acme\nParcels' }));
    expect(error.details).toEqual([
      { path: 'FromCompany', message: 'must not contain control characters (found U+000A at position 4)' },
    ]);
  });

  it('drops unknown keys, whatever they hold, so they can never reach a jsonb column', () => {
    const body = {
      ...container([{ ...containerDetail('TN1'), ['x\u0000']: 1, y: 'a\ud800' }]),
      ['k\ud800']: 'v\u0000',
      extra: { nested: '\u0000' },
    };
    const parsed = parseContainer(body);
    expect(JSON.stringify(parsed)).not.toMatch(/\\u0000|\\ud800/);
    expect(Object.keys(defined(parsed.packages[0], 'a package'))).not.toContain('x\u0000');
    const pkg = parsePackage({ package: { ...packageSample('P').package, ['x\u0000']: 'y\u0000' }, ['z\ud800']: 1 });
    expect(Object.keys(pkg)).not.toContain('x\u0000');
  });

  it('refuses, as a last line of defence, any schema output that still holds unstorable text', () => {
    const careless = z.looseObject({ name: z.string() });
    expect(failure(() => parseOperation(careless, { name: 'ok', ['x\u0000']: 1 })).details).toEqual([
      { path: 'x\u0000', message: 'has a field name that must not contain control characters (found NUL at position 1)' },
    ]);
    expect(failure(() => parseOperation(careless, { name: 'ok', other: ['fine', 'a\ud800'] })).details).toEqual([
      { path: 'other[1]', message: 'must be valid Unicode text (it contains an unpaired surrogate)' },
    ]);
    expect(
      failure(() => parseOperation(careless, { name: 'ok', deep: [{ fine: '📦' }, { a: { b: ['x', 'tab\there\u0001'] } }] }))
        .details,
    ).toEqual([{ path: 'deep[1].a.b[1]', message: 'must not contain control characters (found U+0001 at position 8)' }]);
  });
});

describe('published samples are still accepted', () => {
  it('rates, container and package manifests', () => {
    for (const body of [rateSampleAll(), rateSampleExpress(), rateSampleAirSkip()]) {
      expect(() => parseOperation(ZRateRequest, body, { aliases: RATE_ALIASES })).not.toThrow();
    }
    expect(parseContainer(containerSample('ULD-0001', ['1Z0001', '1Z0002'])).packages).toHaveLength(2);
    expect(parsePackage(packageSample('PKG0001')).ManifestDate.day).toBe('2026-11-23');
  });
});

describe('the manifests list filters (GET /manifests and the portal, one schema)', () => {
  const query = (q: Record<string, string>) => parseOperation(ZListManifestsQuery, q);

  it('takes real days in 2000-2099 and plain text, up to a ServiceName and a search of the longest', () => {
    expect(query({ from: '2000-01-01', to: '2099-12-31', q: 'ULD', service: 'AirSkip' })).toMatchObject({
      limit: 25,
      from: '2000-01-01',
      to: '2099-12-31',
      q: 'ULD',
      service: 'AirSkip',
    });
    // A ServiceName is up to 100 characters (the manifest operations'): the filter takes one that long.
    expect(query({ service: 'S'.repeat(100), q: 'q'.repeat(128) })).toMatchObject({
      service: 'S'.repeat(100),
      q: 'q'.repeat(128),
    });
  });

  it("paging is the API's: a bad limit, type or cursor is a 422 naming it, never the first page in silence", () => {
    expect(failure(() => query({ limit: '0' })).details).toEqual([{ path: 'limit', message: 'must be between 1 and 100' }]);
    expect(failure(() => query({ type: 'nope' })).details).toEqual([
      { path: 'type', message: 'must be one of: container, daily' },
    ]);
    expect(failure(() => query({ cursor: 'x'.repeat(201) })).details).toEqual([
      { path: 'cursor', message: 'must be at most 200 characters' },
    ]);
  });

  it.each([
    ['from', '2026-02-30', 'is not a calendar date'],
    ['to', '0000-00-00', 'must be a day YYYY-MM-DD in the years 2000 to 2099'],
    ['from', '9999-99-99', 'must be a day YYYY-MM-DD in the years 2000 to 2099'],
    ['from', '0000-01-01', 'must be a day YYYY-MM-DD in the years 2000 to 2099'],
    ['to', '1999-12-31', 'must be a day YYYY-MM-DD in the years 2000 to 2099'],
    ['to', '2100-01-01', 'must be a day YYYY-MM-DD in the years 2000 to 2099'],
    ['from', '2026-1-1', 'must be a day YYYY-MM-DD in the years 2000 to 2099'],
    ['q', '\u0000', 'must not contain control characters (found NUL at position 0)'],
    ['service', '\u0000', 'must not contain control characters (found NUL at position 0)'],
    ['q', 'a\ud800', 'must be valid Unicode text (it contains an unpaired surrogate)'],
    ['q', 'x'.repeat(129), 'must be at most 128 characters'],
    ['service', 'x'.repeat(101), 'must be at most 100 characters'],
  ])('%s=%j -> 422 naming it', (name, value, message) => {
    const error = failure(() => query({ [name]: value }));
    expect(error.code).toBe('validation_failed');
    expect(error.details).toEqual([{ path: name, message }]);
  });

  it('a To before the From is a 422 naming to', () => {
    expect(failure(() => query({ from: '2026-11-20', to: '2026-11-19' })).details).toEqual([
      { path: 'to', message: 'must not be before from (2026-11-20)' },
    ]);
  });
});

describe('portal lookups', () => {
  it('tracking: the text rule and 64 characters', () => {
    expect(parseOperation(ZFindPackageQuery, { tracking: ' 1Z0001 ' })).toEqual({ tracking: '1Z0001' });
    expect(failure(() => parseOperation(ZFindPackageQuery, { tracking: '\u0000' })).details).toEqual([
      { path: 'tracking', message: 'must not contain control characters (found NUL at position 0)' },
    ]);
    expect(failure(() => parseOperation(ZFindPackageQuery, { tracking: 'x'.repeat(65) })).details).toEqual([
      { path: 'tracking', message: 'must be at most 64 characters' },
    ]);
  });
});
