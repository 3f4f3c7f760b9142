import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { regimeBit } from '@/lib/customs/readiness';
import { pgPool } from '@/lib/db';
import { queryRows, sql } from '@/lib/sql';
import { baseUrl, call, expectError, newAccount, pathFor, tracking, type TestAccount } from './support/api';
import { containerDetail, CUSTOMS_ITEM, euContainerSample, packageSample } from './support/samples';

// `customs_not_ready=<regime>` on GET /packages (across the account, or with manifest_id) and GET /manifests/{id}/packages:
// the houses with a problem of their own for the regime, exactly those their manifest's readiness counts in
// `houses_not_ready`, each judged on its own container (or, a daily package, on its own data).

const GET = { method: 'GET' } as const;

let acme: TestAccount;
let other: TestAccount;
beforeAll(async () => {
  [acme, other] = await Promise.all([newAccount('Not ready'), newAccount('Not ready other')]);
});

/** JFK → FRA to Berlin: houses 1 and 3 lack the consignee's name (not ready for ICS2 PLACI), house 0 and 2 are whole. */
async function euContainer(env: 'test' | 'live' = 'test') {
  const numbers = [0, 1, 2, 3].map(() => tracking('NR'));
  const body = euContainerSample(`ULD-${randomUUID().slice(0, 8)}`, numbers, (_tn, i) => (i % 2 === 1 ? { ToName: '' } : {}));
  const accepted = await call('/wf/manifest', { env, token: acme.tokens[env], body });
  expect(accepted.status, accepted.text).toBe(200);
  return { numbers, manifestId: accepted.json.ManifestID as string };
}

const numbersOf = (answer: { json: { data: { TrackingNumber: string }[] } }) => answer.json.data.map((p) => p.TrackingNumber);

describe('customs_not_ready', () => {
  it('lists the houses not ready for a regime, as readiness counts them, on both lists', async () => {
    const { numbers, manifestId } = await euContainer();
    const readiness = await call(`/manifests/${manifestId}/customs`, { ...GET, token: acme.tokens.test });
    const placi = readiness.json.regimes.find((r: { regime: string }) => r.regime === 'eu_ics2_placi');
    expect(placi).toMatchObject({ applies: true, ready: false, houses_not_ready: 2 });
    const acas = readiness.json.regimes.find((r: { regime: string }) => r.regime === 'us_acas');
    expect(acas).toMatchObject({ applies: false, houses_not_ready: 0 });

    const all = await call(`/packages?manifest_id=${manifestId}&customs_not_ready=eu_ics2_placi`, {
      ...GET,
      token: acme.tokens.test,
    });
    expect(all.status, all.text).toBe(200);
    expect(numbersOf(all).sort()).toEqual([numbers[1], numbers[3]].sort());

    const ordered = await call(`/manifests/${manifestId}/packages?customs_not_ready=eu_ics2_placi`, {
      ...GET,
      token: acme.tokens.test,
    });
    expect(ordered.status, ordered.text).toBe(200);
    expect(numbersOf(ordered)).toEqual([numbers[1], numbers[3]]);

    // Case-insensitive, as every list enum; a regime that does not apply lists none.
    const upper = await call(`/packages?manifest_id=${manifestId}&customs_not_ready=EU_ICS2_PLACI`, {
      ...GET,
      token: acme.tokens.test,
    });
    expect(numbersOf(upper).sort()).toEqual([numbers[1], numbers[3]].sort());
    const none = await call(`/manifests/${manifestId}/packages?customs_not_ready=us_acas`, { ...GET, token: acme.tokens.test });
    expect(none.json).toMatchObject({ data: [], has_more: false });
  });

  it('pages the filtered houses in manifest order and combines with the other filters', async () => {
    const { numbers, manifestId } = await euContainer();
    const first = await call(`/manifests/${manifestId}/packages?customs_not_ready=eu_ics2_placi&limit=1`, {
      ...GET,
      token: acme.tokens.test,
    });
    expect(numbersOf(first)).toEqual([numbers[1]]);
    expect(first.json.has_more).toBe(true);
    const second = await call(
      `/manifests/${manifestId}/packages?customs_not_ready=eu_ics2_placi&limit=1&cursor=${encodeURIComponent(first.json.next_cursor)}`,
      { ...GET, token: acme.tokens.test },
    );
    expect(numbersOf(second)).toEqual([numbers[3]]);
    expect(second.json.has_more).toBe(false);

    const byNumber = await call(
      `/packages?manifest_id=${manifestId}&customs_not_ready=eu_ics2_placi&tracking_number=${numbers[3]}`,
      { ...GET, token: acme.tokens.test },
    );
    expect(numbersOf(byNumber)).toEqual([numbers[3]]);
    const byStatus = await call(`/packages?manifest_id=${manifestId}&customs_not_ready=eu_ics2_placi&status=delivered`, {
      ...GET,
      token: acme.tokens.test,
    });
    expect(byStatus.json.data).toEqual([]);
  });

  it('follows an amendment: a house given what it lacked leaves the list', async () => {
    const { numbers, manifestId } = await euContainer();
    const amended = await call(`/packages/${numbers[1]}`, {
      method: 'PATCH',
      token: acme.tokens.test,
      body: { ToName: 'Max Mustermann' },
    });
    expect(amended.status, amended.text).toBe(200);
    const after = await call(`/packages?manifest_id=${manifestId}&customs_not_ready=eu_ics2_placi`, {
      ...GET,
      token: acme.tokens.test,
    });
    expect(numbersOf(after)).toEqual([numbers[3]]);
  });

  it('refuses an unknown regime or a repeated one, naming customs_not_ready', async () => {
    const { manifestId } = await euContainer();
    for (const value of ['ics2', 'eu_ics2_placi ', '%00', '%ED%A0%80', 'x'.repeat(10_000), '', 'eu_ics2_placi%00']) {
      for (const path of [`/packages?manifest_id=${manifestId}&`, `/manifests/${manifestId}/packages?`]) {
        const answer = await call(`${path}customs_not_ready=${value}`, { ...GET, token: acme.tokens.test });
        if (value === '') {
          // Empty is no filter, as for every list filter.
          expect(answer.status, answer.text).toBe(200);
          continue;
        }
        if (value === 'eu_ics2_placi ') {
          // Trimmed, as every list filter's text.
          expect(answer.status, answer.text).toBe(200);
          continue;
        }
        const error = expectError(answer, 422, 'validation_failed');
        expect(error.details?.map((d) => d.path)).toContain('customs_not_ready');
      }
    }
    for (const value of ['ics2', 'x'.repeat(10_000), '%00']) {
      const alone = expectError(
        await call(`/packages?customs_not_ready=${value}`, { ...GET, token: acme.tokens.test }),
        422,
        'validation_failed',
      );
      expect(alone.details?.map((d) => d.path)).toEqual(['customs_not_ready']);
    }
    const twice = expectError(
      await call(`/manifests/${manifestId}/packages?customs_not_ready=us_acas&customs_not_ready=eu_ics2_placi`, {
        ...GET,
        token: acme.tokens.test,
      }),
      422,
      'validation_failed',
    );
    expect(twice.details?.map((d) => d.path)).toContain('customs_not_ready');
  });

  it("answers another account's or environment's manifest as not found, or with nothing", async () => {
    const { manifestId } = await euContainer();
    const query = `manifest_id=${manifestId}&customs_not_ready=eu_ics2_placi`;
    for (const [token, env] of [
      [other.tokens.test, 'test'],
      [acme.tokens.live, 'live'],
    ] as const) {
      const listed = await call(`/packages?${query}`, { ...GET, token, env });
      expect(listed.status, listed.text).toBe(200);
      expect(listed.json.data).toEqual([]);
      expectError(
        await call(`/manifests/${manifestId}/packages?customs_not_ready=eu_ics2_placi`, { ...GET, token, env }),
        404,
        'not_found',
      );
    }
  });

  it('answers concurrent requests alike', async () => {
    const { numbers, manifestId } = await euContainer();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        fetch(`${baseUrl}${pathFor('test', `/packages?manifest_id=${manifestId}&customs_not_ready=eu_ics2_placi`)}`, {
          headers: { authorization: `Token ${acme.tokens.test}` },
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as { data: { TrackingNumber: string }[] } })),
      ),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body.data.map((p) => p.TrackingNumber).sort()).toEqual([numbers[1], numbers[3]].sort());
    }
  });
});

describe('customs_not_ready across the account', () => {
  let wide: TestAccount;
  beforeAll(async () => {
    wide = await newAccount('Not ready wide');
  });

  /** Every page of `query` at `limit` a page, in order. */
  async function everyPage(account: TestAccount, env: 'test' | 'live', query: string, limit: number) {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 50; pages++) {
      const answer = await call(`/packages?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
        ...GET,
        env,
        token: account.tokens[env],
      });
      expect(answer.status, answer.text).toBe(200);
      seen.push(...numbersOf(answer));
      cursor = answer.json.next_cursor;
      if (!cursor) return seen;
    }
    throw new Error('more pages than houses');
  }

  /** FRA → ORD, houses in the US: `gaps` lack the consignee's name (not ready for US ACAS). */
  async function usContainer(account: TestAccount, env: 'test' | 'live', gaps: number[], count = 3) {
    const numbers = Array.from({ length: count }, () => tracking('NRUS'));
    const body = {
      ...euContainerSample(`ULD-${randomUUID().slice(0, 8)}`, numbers, (tn, i) => ({
        ...containerDetail(tn),
        Customs: { Currency: 'USD', Items: [CUSTOMS_ITEM] },
        ...(gaps.includes(i) ? { ToName: '' } : {}),
      })),
      OriginAirport: 'FRA',
      DestinationAirport: 'ORD',
      FromCountry: 'DE',
      FromCity: 'Frankfurt',
      FromPostalCode: '60549',
    };
    const accepted = await call('/wf/manifest', { env, token: account.tokens[env], body });
    expect(accepted.status, accepted.text).toBe(200);
    return { numbers, manifestId: accepted.json.ManifestID as string };
  }

  async function berlinContainer(account: TestAccount, env: 'test' | 'live', gaps: number[], count = 3) {
    const numbers = Array.from({ length: count }, () => tracking('NREU'));
    const body = euContainerSample(`ULD-${randomUUID().slice(0, 8)}`, numbers, (_tn, i) =>
      gaps.includes(i) ? { ToName: '' } : {},
    );
    const accepted = await call('/wf/manifest', { env, token: account.tokens[env], body });
    expect(accepted.status, accepted.text).toBe(200);
    return { numbers, manifestId: accepted.json.ManifestID as string };
  }

  it("lists each house not ready on its own container, daily packages too, never another account's or environment's", async () => {
    const berlin = await berlinContainer(wide, 'test', [0, 2]);
    const chicago = await usContainer(wide, 'test', [1]);
    // Toronto to Beverly Hills: US ACAS applies to a daily package on its own data; described by one word ("Books")
    // and no declared items, it is not ready.
    const daily = tracking('NRDAY');
    const created = await call('/wf/package', { token: wide.tokens.test, body: packageSample(daily) });
    expect(created.status, created.text).toBe(200);
    // Not ready too, elsewhere: another account's, and this account's live houses.
    const foreign = await berlinContainer(other, 'test', [0, 1, 2]);
    const live = await berlinContainer(wide, 'live', [1]);

    const placi = await call('/packages?customs_not_ready=eu_ics2_placi', { ...GET, token: wide.tokens.test });
    expect(placi.status, placi.text).toBe(200);
    expect(numbersOf(placi).sort()).toEqual([berlin.numbers[0], berlin.numbers[2]].sort());
    const acas = await call('/packages?customs_not_ready=us_acas', { ...GET, token: wide.tokens.test });
    expect(numbersOf(acas).sort()).toEqual([chicago.numbers[1], daily].sort());
    // Each the same as its manifest's own list.
    const perManifest = await call(`/manifests/${chicago.manifestId}/packages?customs_not_ready=us_acas`, {
      ...GET,
      token: wide.tokens.test,
    });
    expect(numbersOf(perManifest)).toEqual([chicago.numbers[1]]);

    const liveList = await call('/packages?customs_not_ready=eu_ics2_placi', { ...GET, env: 'live', token: wide.tokens.live });
    expect(numbersOf(liveList)).toEqual([live.numbers[1]]);
    const otherList = await call('/packages?customs_not_ready=eu_ics2_placi', { ...GET, token: other.tokens.test });
    expect(numbersOf(otherList)).toEqual(expect.arrayContaining(foreign.numbers));
    expect(numbersOf(otherList)).not.toEqual(expect.arrayContaining([berlin.numbers[0]]));

    // Combined with the other filters; a regime that applies to none of them lists none.
    const combined = await call(`/packages?customs_not_ready=us_acas&tracking_number=${daily}`, {
      ...GET,
      token: wide.tokens.test,
    });
    expect(numbersOf(combined)).toEqual([daily]);
    const delivered = await call('/packages?customs_not_ready=us_acas&status=delivered', { ...GET, token: wide.tokens.test });
    expect(delivered.json.data).toEqual([]);
    const canada = await call('/packages?customs_not_ready=ca_emanifest', { ...GET, token: wide.tokens.test });
    expect(canada.json.data).toEqual([]);
  });

  it("follows a container's new destination, a house's amendment and a daily package's amendment", async () => {
    const account = await newAccount('Not ready follows');
    const berlin = await berlinContainer(account, 'test', [1]);
    const placi = async () =>
      numbersOf(await call('/packages?customs_not_ready=eu_ics2_placi', { ...GET, token: account.tokens.test }));
    expect(await placi()).toEqual([berlin.numbers[1]]);

    // The container now flies Frankfurt to Chicago: its houses (consignees in Berlin) are judged for the US, not the EU.
    const moved = await call(`/manifests/${berlin.manifestId}`, {
      method: 'PATCH',
      token: account.tokens.test,
      body: { OriginAirport: 'FRA', DestinationAirport: 'ORD' },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(await placi()).toEqual([]);
    const acas = await call('/packages?customs_not_ready=us_acas', { ...GET, token: account.tokens.test });
    expect(numbersOf(acas)).toEqual([berlin.numbers[1]]);
    const readiness = await call(`/manifests/${berlin.manifestId}/customs`, { ...GET, token: account.tokens.test });
    const us = readiness.json.regimes.find((r: { regime: string }) => r.regime === 'us_acas');
    expect(us).toMatchObject({ applies: true, houses_not_ready: 1 });

    const fixed = await call(`/packages/${berlin.numbers[1]}`, {
      method: 'PATCH',
      token: account.tokens.test,
      body: { ToName: 'Max Mustermann' },
    });
    expect(fixed.status, fixed.text).toBe(200);
    expect((await call('/packages?customs_not_ready=us_acas', { ...GET, token: account.tokens.test })).json.data).toEqual([]);

    const daily = tracking('NRDAY');
    const created = await call('/wf/package', { token: account.tokens.test, body: packageSample(daily) });
    expect(created.status, created.text).toBe(200);
    const acasNumbers = async () =>
      numbersOf(await call('/packages?customs_not_ready=us_acas', { ...GET, token: account.tokens.test }));
    expect(await acasNumbers()).toEqual([daily]);
    // Declared items describe the goods: the daily package is ready, and leaves the list.
    const declared = await call(`/packages/${daily}`, {
      method: 'PATCH',
      token: account.tokens.test,
      body: { Customs: { Currency: 'USD', Items: [CUSTOMS_ITEM] } },
    });
    expect(declared.status, declared.text).toBe(200);
    expect(await acasNumbers()).toEqual([]);
  });

  it('answers concurrent requests alike while a house is amended, and then lists it', async () => {
    const account = await newAccount('Not ready race');
    const containers = await Promise.all([0, 1, 2].map(() => berlinContainer(account, 'test', [0])));
    const before = containers.map((c) => c.numbers[0]).sort();
    const amendedHouse = containers[0]?.numbers[1];
    const list = () => call('/packages?customs_not_ready=eu_ics2_placi', { ...GET, token: account.tokens.test });
    const [answers, amended] = await Promise.all([
      Promise.all(Array.from({ length: 6 }, list)),
      call(`/packages/${amendedHouse}`, { method: 'PATCH', token: account.tokens.test, body: { ToName: '' } }),
    ]);
    expect(amended.status, amended.text).toBe(200);
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(200);
      // Before the amendment or after it, never anything else.
      expect([before, [...before, amendedHouse].sort()]).toContainEqual(numbersOf(answer).sort());
    }
    expect(numbersOf(await list()).sort()).toEqual([...before, amendedHouse].sort());
  });

  it('stores the masks at acceptance: nothing is stale after it, and they are what a recomputation gives', async () => {
    const account = await newAccount('Not ready at acceptance');
    const berlin = await berlinContainer(account, 'test', [1]);
    // Toronto to Beverly Hills described by one word and no declared items: not ready for US ACAS; with them, ready.
    const [vague, declared] = [tracking('NRACC'), tracking('NRACC')];
    for (const [number, customs] of [
      [vague, undefined],
      [declared, { Currency: 'USD', Items: [CUSTOMS_ITEM] }],
    ] as const) {
      const sample = packageSample(number);
      const created = await call('/wf/package', {
        token: account.tokens.test,
        body: { package: { ...sample.package, ...(customs ? { Customs: customs } : {}) } },
      });
      expect(created.status, created.text).toBe(200);
    }

    const stored = async () => {
      const versions = await queryRows(
        pgPool(),
        sql<{ version: string; checked: string }>`SELECT customs_version::text AS version,
            customs_checked_version::text AS checked FROM container_manifests WHERE id = ${berlin.manifestId}`,
      );
      const masks = await queryRows(
        pgPool(),
        sql<{ tracking_number: string; mask: number | null }>`
          SELECT tracking_number, customs_not_ready AS mask FROM container_packages WHERE manifest_id = ${berlin.manifestId}
          UNION ALL SELECT tracking_number, customs_not_ready FROM packages
            WHERE lower(tracking_number) = ANY(${[vague, declared].map((n) => n.toLowerCase())}::text[])`,
      );
      return { versions, masks: Object.fromEntries(masks.map((m) => [m.tracking_number, m.mask])) };
    };
    // Before any read: the container is current and each house holds its mask (a container's ready house none).
    const accepted = await stored();
    expect(accepted.versions).toHaveLength(1);
    expect(accepted.versions[0]?.checked).toBe(accepted.versions[0]?.version);
    const placi = regimeBit('eu_ics2_placi');
    expect((accepted.masks[berlin.numbers[1] ?? ''] ?? 0) & placi).toBe(placi);
    for (const i of [0, 2]) expect(accepted.masks[berlin.numbers[i] ?? '']).toBeNull();
    const acas = regimeBit('us_acas');
    expect((accepted.masks[vague] ?? 0) & acas).toBe(acas);
    expect(accepted.masks[declared]).not.toBeNull();
    expect((accepted.masks[declared] ?? 0) & acas).toBe(0);

    expect(numbersOf(await call('/packages?customs_not_ready=eu_ics2_placi', { ...GET, token: account.tokens.test }))).toEqual([
      berlin.numbers[1],
    ]);
    expect(numbersOf(await call('/packages?customs_not_ready=us_acas', { ...GET, token: account.tokens.test }))).toEqual([vague]);

    // Made stale by hand, the read recomputes them: the same masks as acceptance stored.
    await queryRows(pgPool(), sql`UPDATE container_manifests SET customs_checked_version = 0 WHERE id = ${berlin.manifestId}`);
    await queryRows(
      pgPool(),
      sql`UPDATE container_packages SET customs_not_ready = NULL WHERE manifest_id = ${berlin.manifestId}`,
    );
    await queryRows(
      pgPool(),
      sql`UPDATE packages SET customs_not_ready = NULL
        WHERE lower(tracking_number) = ANY(${[vague, declared].map((n) => n.toLowerCase())}::text[])`,
    );
    expect((await call('/packages?customs_not_ready=us_acas', { ...GET, token: account.tokens.test })).status).toBe(200);
    expect(await stored()).toEqual(accepted);
  });

  it('pages every house once, newest first, through houses accepted at the same time', async () => {
    const account = await newAccount('Not ready pages');
    // One container's houses are inserted by one statement: they share their created time, the keyset's tie.
    const first = await berlinContainer(account, 'test', [0, 1, 2, 3, 4, 6], 8);
    const second = await usContainer(account, 'test', [0, 2], 3);
    const third = await berlinContainer(account, 'test', [1, 2], 3);
    const expected = [...[0, 1, 2, 3, 4, 6].map((i) => first.numbers[i]), ...[1, 2].map((i) => third.numbers[i])] as string[];
    const whole = await everyPage(account, 'test', 'customs_not_ready=eu_ics2_placi', 100);
    expect([...whole].sort()).toEqual([...expected].sort());
    for (const limit of [1, 2, 3]) {
      const paged = await everyPage(account, 'test', 'customs_not_ready=eu_ics2_placi', limit);
      expect(paged).toEqual(whole);
    }
    // The newer container's houses come first.
    expect(whole.slice(0, 2).sort()).toEqual([third.numbers[1], third.numbers[2]].sort());
    const us = await everyPage(account, 'test', 'customs_not_ready=us_acas', 1);
    expect(us.sort()).toEqual([second.numbers[0], second.numbers[2]].sort());
  });
});
