import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NEXT_START,
  api,
  auth,
  count,
  envelope,
  fill,
  ok,
  owned,
  ownerLive,
  ownerTest,
  raw,
  reportAttacks,
  setUpAttackedAccounts,
  strangerTest,
} from './support/hostile-shipments';

// Hostile query parameters on the API's lists (/manifests, /packages, a manifest's packages): limit, status and every
// filter, undecodable escapes, impossible dates, forged cursors and cursors from another account, environment or list.
// support/hostile-shipments.ts has the raw HTTP and the attacked accounts.

beforeAll(setUpAttackedAccounts);
afterAll(() => reportAttacks('hostile-list-queries'));

describe('hostile query parameters on the lists', () => {
  const LISTS = ['/manifests', '/packages', `/manifests/:id/packages`];

  it('limit: 0, 101, -1, 1e3, NaN, 1.5, 0x10, " 5", repeated and array forms are 422 naming limit', async () => {
    for (const list of LISTS) {
      for (const value of [
        '0',
        '101',
        '-1',
        '1e3',
        'NaN',
        '1.5',
        '0x10',
        'Infinity',
        '99999999999999999999',
        '%00',
        'abc',
        '%ED%A0%80',
      ]) {
        const answer = await raw('GET', `${api('test', fill(list))}?limit=${value}`, { headers: auth(ownerTest.get()) });
        count('query');
        envelope(answer, 422, 'validation_failed', 'limit');
      }
      envelope(
        await raw('GET', `${api('test', fill(list))}?limit=1&limit=2`, { headers: auth(ownerTest.get()) }),
        422,
        'validation_failed',
        'limit',
      );
      envelope(
        await raw('GET', `${api('test', fill(list))}?limit[]=1`, { headers: auth(ownerTest.get()) }),
        422,
        'validation_failed',
        'limit[]',
      );
      envelope(
        await raw('GET', `${api('test', fill(list))}?limit[0]=1`, { headers: auth(ownerTest.get()) }),
        422,
        'validation_failed',
        'limit[0]',
      );
      count('query', 3);
      // Empty is "not given"; 1 and 100 are the bounds; a whole number with spaces or a sign is that number.
      for (const value of ['', '1', '100', '%205', '+5', '05']) {
        const page = ok(await raw('GET', `${api('test', fill(list))}?limit=${value}`, { headers: auth(ownerTest.get()) }));
        count('query');
        expect(page.object).toBe('list');
      }
    }
  });

  it('status and every filter: repeated, unknown, prototype keys and undecodable escapes are 422 naming the parameter', async () => {
    const token = () => auth(ownerTest.get());
    const REENCODED = new Set([
      '/packages?manifest_id=%ED%A0%80',
      '/packages?tracking_number=%25',
      '/manifests?q=%E0%A4',
      '/packages?tracking_number=%ZZ',
    ]);
    const cases: [string, string][] = [
      ['/packages?status=manifested&status=cancelled', 'status'],
      ['/manifests?status=manifested&status=cancelled', 'status'],
      ['/packages?status=lost', 'status'],
      ['/packages?status=%00', 'status'],
      ['/packages?status[]=manifested', 'status[]'],
      ['/packages?__proto__=1', '__proto__'],
      ['/packages?constructor=1', 'constructor'],
      ['/manifests?toString=1', 'toString'],
      ['/packages?tracking_number=a%00b', 'tracking_number'],
      ['/packages?service=%00', 'service'],
      ['/packages?to_postal_code=%00', 'to_postal_code'],
      ['/packages?tracking_number=' + 'x'.repeat(10_000), 'tracking_number'],
      ['/manifests?q=%00', 'q'],
      ['/manifests?container_id=a%00', 'container_id'],
      ['/manifests?type=container&type=daily', 'type'],
      ['/manifests?type=box', 'type'],
      ['/manifests?offset=10', 'offset'],
      ['/manifests?page=2', 'page'],
      // Escapes that do not decode (a cut one, one that decodes to a lone surrogate, `%ZZ`), and a `%` where a
      // tracking number cannot hold one: one query reader for the API and the portal (lib/api/query.ts).
      ['/packages?manifest_id=%ED%A0%80', 'manifest_id'],
      ['/packages?tracking_number=%25', 'tracking_number'],
      ['/manifests?q=%E0%A4', 'q'],
      ['/packages?tracking_number=%ZZ', 'tracking_number'],
    ];
    for (const [path, field] of cases) {
      const answer = await raw('GET', api('test', path), { headers: token() });
      count('query');
      if (NEXT_START && field === '__proto__') {
        // `next start` drops a `__proto__` parameter from the URL it hands its route handlers (it parses the query
        // into a plain object first): the service never sees it, so the list answers as if it had not been sent.
        expect(answer.status, answer.text.slice(0, 200)).toBe(200);
        continue;
      }
      if (NEXT_START && REENCODED.has(path) && answer.status === 200) {
        // `next start` hands its route handlers a URL whose bad escapes it has already re-encoded (or decoded to
        // U+FFFD): the service sees well-formed text, and a filter with no alphabet of its own searches for it.
        expect(ok(answer).data, path).toEqual([]);
        continue;
      }
      const error = envelope(answer, 422, 'validation_failed', field);
      expect(error.message.length).toBeLessThan(2_000);
    }
    // Text that decodes to something no row holds (LIKE's own wildcards): a search that finds nothing, never a
    // pattern and never a 5xx.
    for (const path of ['/packages?tracking_number=%5F', '/manifests?q=%25%5F', '/manifests?q=100%25']) {
      const found = ok(await raw('GET', api('test', path), { headers: token() }));
      count('query');
      expect(found, path).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
    }
    // A key of 10 KB is named by a prefix, never echoed whole.
    const long = await raw('GET', api('test', `/packages?${'k'.repeat(10_000)}=1`), { headers: token() });
    count('query');
    const error = envelope(long, 422, 'validation_failed');
    expect(long.text.length).toBeLessThan(2_000);
    expect(error.details?.[0]?.path.length).toBeLessThanOrEqual(100);
  });

  it('undecodable escapes in the query (%ZZ, a cut escape): 422 naming the parameter; text that decodes is a search that finds nothing', async () => {
    const cases: [string, string, string | null][] = [
      ['/packages', 'status=%ZZ', 'status'],
      ['/packages', 'cursor=%', 'cursor'],
      ['/packages', 'tracking_number=%ZZ', 'tracking_number'],
      ['/packages', 'tracking_number=1Z_9', null],
      ['/packages', '%ZZ=1', '%ZZ'],
      ['/manifests', 'status=%ZZ', 'status'],
      ['/manifests', 'cursor=%E0%A4', 'cursor'],
      ['/manifests', 'q=%E0%A4', 'q'],
      ['/manifests', 'q=%25', null],
      ['/manifests', 'tracking_number=%ZZ', 'tracking_number'],
      ['/manifests/:id/packages', 'status=%ZZ', 'status'],
      ['/manifests/:id/packages', 'cursor=%', 'cursor'],
      ['/manifests/:id/packages', '%ZZ=1', '%ZZ'],
    ];
    for (const [list, query, field] of cases) {
      const answer = await raw('GET', `${api('test', fill(list))}?${query}`, { headers: auth(ownerTest.get()) });
      count('query');
      // As above: behind `next start` the service may see a re-encoded escape as text.
      if (field === null || (NEXT_START && answer.status === 200 && field !== '%ZZ'))
        expect(ok(answer).data, `${list}?${query}`).toEqual([]);
      else envelope(answer, 422, 'validation_failed', field);
    }
  });

  it('impossible and out-of-range dates in from/to are 422 naming the field; from after to is an empty page', async () => {
    for (const list of ['/manifests', '/packages']) {
      for (const field of ['from', 'to']) {
        for (const value of [
          '2026-02-30',
          '0000-01-01',
          '9999-12-31',
          '2026-13-01',
          '2026-11-23T00:00:00Z',
          '1e10',
          '%00',
          '2026-1-1',
          '-2026-01-01',
          '+02026-01-01',
        ]) {
          const answer = await raw('GET', `${api('test', list)}?${field}=${value}`, { headers: auth(ownerTest.get()) });
          count('query');
          envelope(answer, 422, 'validation_failed', field);
        }
      }
      // A range that ends before it starts is a mistake in the request, not an empty page.
      envelope(
        await raw('GET', `${api('test', list)}?from=2026-12-31&to=2026-01-01`, { headers: auth(ownerTest.get()) }),
        422,
        'validation_failed',
        'to',
      );
      count('query');
      const oneDay = ok(
        await raw('GET', `${api('test', list)}?from=2026-01-01&to=2026-01-01`, { headers: auth(ownerTest.get()) }),
      );
      count('query');
      expect(oneDay.object).toBe('list');
      // The widest legal range is a page of the owner's own.
      const wide = ok(await raw('GET', `${api('test', list)}?from=2000-01-01&to=2099-12-31`, { headers: auth(ownerTest.get()) }));
      count('query');
      expect(wide.data.length).toBeGreaterThan(0);
    }
  });

  it('cursors: garbage, truncated, base64 of other JSON, huge, NUL: 422 naming cursor', async () => {
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const real = ok(await raw('GET', `${api('test', '/packages')}?limit=1`, { headers: auth(ownerTest.get()) }));
    expect(real.next_cursor).toEqual(expect.any(String));
    const cursors = [
      'garbage',
      '!!!!',
      '%00',
      (real.next_cursor as string).slice(0, 10),
      (real.next_cursor as string).slice(0, -3),
      `${real.next_cursor}x`,
      b64({ t: '2026-01-01T00:00:00.000Z', k: 0, i: '1' }),
      b64(['2026-01-01T00:00:00.000Z', 2, '1']),
      b64(['2026-01-01T00:00:00.000Z', 0, "1' OR '1'='1"]),
      b64(['2026-02-30T00:00:00.000Z', 0, '1']),
      b64(['9999-12-31T00:00:00.000Z', 0, '1']),
      b64(['2026-01-01T00:00:00.000Z', 0, 'a\u0000b']),
      b64(['2026-01-01T00:00:00.000Z', 0, '\ud800']),
      b64(['2026-01-01T00:00:00.000Z', 0, '1', 'extra']),
      b64(null),
      b64('string'),
      b64([]),
      'A'.repeat(201),
      'A'.repeat(10_000),
      Buffer.from('\u0000\u0000\u0000').toString('base64url'),
    ];
    for (const list of LISTS) {
      for (const cursor of cursors) {
        const answer = await raw('GET', `${api('test', fill(list))}?cursor=${cursor}`, { headers: auth(ownerTest.get()) });
        count('cursor');
        envelope(answer, 422, 'validation_failed', 'cursor');
      }
    }
  });

  it("a cursor from another account, the other environment or another list never leaks the cursor's rows and never 5xx", async () => {
    // The stranger's own list with the owner's cursor: only the stranger's rows (none), whatever the position.
    const ownerPage = ok(await raw('GET', `${api('test', '/packages')}?limit=1`, { headers: auth(ownerTest.get()) }));
    const ownerManifests = ok(await raw('GET', `${api('test', '/manifests')}?limit=1`, { headers: auth(ownerTest.get()) }));
    const livePage = ok(await raw('GET', `${api('live', '/packages')}?limit=1`, { headers: auth(ownerLive.get()) }));
    const manifestPackages = ok(
      await raw('GET', `${api('test', `/manifests/${owned.containerManifest}/packages`)}?limit=1`, {
        headers: auth(ownerTest.get()),
      }),
    );
    const cursors = [
      ownerPage.next_cursor,
      ownerManifests.next_cursor,
      livePage.next_cursor ?? ownerPage.next_cursor,
      manifestPackages.next_cursor,
    ].filter(Boolean) as string[];
    expect(cursors.length).toBe(4);
    const ownerNumbers = [...owned.containerNumbers, owned.dailyNumber, owned.liveNumber];
    for (const cursor of cursors) {
      for (const list of ['/packages', '/manifests']) {
        const answer = await raw('GET', `${api('test', list)}?cursor=${cursor}`, { headers: auth(strangerTest.get()) });
        count('cursor');
        expect([200, 422], answer.text).toContain(answer.status);
        if (answer.status === 200) expect(answer.json).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
        else envelope(answer, 422, 'validation_failed', 'cursor');
        for (const n of ownerNumbers) expect(answer.text).not.toContain(n);
      }
      // The owner's test cursor on the live list, and another list's cursor on this one: the owner's own rows of that list, or 422.
      for (const [env, list] of [
        ['live', '/packages'],
        ['live', '/manifests'],
        ['test', '/packages'],
        ['test', '/manifests'],
      ] as const) {
        const answer = await raw('GET', `${api(env, list)}?cursor=${cursor}`, {
          headers: auth(env === 'test' ? ownerTest.get() : ownerLive.get()),
        });
        count('cursor');
        expect([200, 422], answer.text).toContain(answer.status);
        if (env === 'live') for (const n of [...owned.containerNumbers, owned.dailyNumber]) expect(answer.text).not.toContain(n);
      }
      // Another manifest's packages with this cursor: the stranger has none.
      const other = await raw('GET', `${api('test', `/manifests/${owned.containerManifest}/packages`)}?cursor=${cursor}`, {
        headers: auth(strangerTest.get()),
      });
      count('cursor');
      expect([404, 422]).toContain(other.status);
      envelope(other, other.status, other.status === 404 ? 'not_found' : 'validation_failed');
    }
  });
});
