import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, expectError, newAccount, pathFor, tracking, type TestAccount } from './support/api';
import { euContainerSample } from './support/samples';

// `customs_not_ready=<regime>` on GET /packages (with manifest_id) and GET /manifests/{id}/packages: the manifest's
// houses with a problem of their own for the regime, exactly those its readiness counts in `houses_not_ready`.

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

  it('refuses an unknown regime, a repeated one, or one without manifest_id, naming customs_not_ready', async () => {
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
    const alone = expectError(
      await call('/packages?customs_not_ready=eu_ics2_placi', { ...GET, token: acme.tokens.test }),
      422,
      'validation_failed',
    );
    expect(alone.details).toEqual([
      expect.objectContaining({ path: 'customs_not_ready', message: expect.stringMatching(/manifest_id/) }),
    ]);
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
