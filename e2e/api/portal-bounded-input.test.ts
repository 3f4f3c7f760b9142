import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { baseUrl } from './support/api';
import { portalCall, signUpAndVerify, type PortalAnswer, type Shipper } from './support/portal';

// Bounded input as it reaches the portal's JSON endpoints (the API's own is e2e/api/bounded-input.test.ts): huge
// arrays, NUL and lone surrogates in every body's text, impossible dates in the container builder and in the list
// filters. Each is a small 4xx envelope naming the field or parameter, never a 500. Every request names the test
// environment, as the portal's fetcher does (support/portal.ts portalCall).

interface Envelope {
  error: { code: string; message: string; details?: { path: string; message: string }[]; details_truncated?: number };
}

const NUL = 'a\u0000b';
const LONE = 'a\ud800b';
const TEXT_RULE = /^must (not contain control characters|be valid Unicode text)/;

function newUser(label: string) {
  const id = randomUUID().slice(0, 8);
  return {
    company: `Bounded ${label} ${id}`,
    email: `${label.toLowerCase()}-${id}@example.com`,
    password: `pw-${id}-correct-horse`,
  };
}

function expect422(answer: PortalAnswer, paths: string[]): Envelope {
  expect(answer.status, answer.text).toBe(422);
  const body = answer.json as Envelope;
  expect(body.error.code).toBe('validation_failed');
  expect(body.error.details?.map((d) => d.path)).toEqual(paths);
  return body;
}

/** A fresh shipper signed in, with the CSRF token the portal layout publishes (read from the dashboard's page). */
async function session(): Promise<Shipper> {
  const cookie = await signUpAndVerify(newUser('Session'));
  const html = await (await fetch(`${baseUrl}/test/dashboard`, { headers: { cookie } })).text();
  const csrf = /<meta name="csrf-token" content="([^"]+)"/.exec(html)?.[1];
  if (!csrf) throw new Error('no csrf-token meta on /dashboard');
  return { cookie, csrf, accountId: '', name: '', tokens: { test: '', live: '' } };
}

const container = (containerId: string) => ({
  ManifestDate: '2026-11-23',
  ServiceName: 'AirSkip',
  FromCompany: 'Acme Parcels',
  ContainerID: containerId,
  ContainerLength: 48,
  ContainerWidth: 40,
  ContainerHeight: 36,
  ShipmentDescription: 'Apparel',
  ContainerDetails: [{ TrackingNumber: `T${Date.now()}`, PackageWeight: 2.5, PackageWeightUnit: 'lb' }],
});

describe('portal bodies', () => {
  it('sign-up and sign-in: NUL and lone surrogates are a 422 naming the field', async () => {
    const user = newUser('Text');
    for (const bad of [NUL, LONE]) {
      for (const field of ['company', 'email', 'password'] as const) {
        const answer = await portalCall(null, 'POST', '/portal-api/auth/sign-up', {
          body: { ...user, [field]: `${user[field]}${bad}` },
        });
        const body = expect422(answer, [field]);
        expect(body.error.details![0].message).toMatch(TEXT_RULE);
      }
      for (const field of ['email', 'password'] as const) {
        const answer = await portalCall(null, 'POST', '/portal-api/auth/sign-in', {
          body: { email: user.email, password: user.password, [field]: bad },
        });
        expect422(answer, [field]);
      }
    }
  });

  it('the container builder: 500,000 numbers are one small 422, quickly', async () => {
    const who = await session();
    const body = { ...container(`ULD-${Date.now()}`), ContainerDetails: Array(500_000).fill(1) };
    const started = Date.now();
    const answer = await portalCall(who, 'POST', '/portal-api/manifests', { body });
    const elapsed = Date.now() - started;
    const envelope = expect422(answer, ['ContainerDetails']);
    expect(envelope.error.details![0].message).toBe('must hold at most 5000 packages (got 500000)');
    expect(Buffer.byteLength(answer.text)).toBeLessThan(1_000);
    expect(elapsed).toBeLessThan(2_000);

    const allBad = await portalCall(who, 'POST', '/portal-api/manifests', {
      body: { ...container(`ULD-${Date.now()}`), ContainerDetails: Array(5_000).fill(1) },
    });
    expect(allBad.status).toBe(422);
    const capped = allBad.json as Envelope;
    expect(capped.error.details).toHaveLength(100);
    expect(capped.error.details_truncated).toBe(4900);
    expect(capped.error.message).toBe('5000 fields are invalid; the first 100 are listed.');
  });

  it('the container builder: unstorable text and impossible dates are a 422 naming the field', async () => {
    const who = await session();
    for (const [field, value] of [
      ['FromCompany', NUL],
      ['ShipmentDescription', LONE],
      ['ContainerID', 'ULD\u0085'],
      ['ManifestDate', '0000-01-01'],
      ['ManifestDate', '2026-02-30'],
      ['ManifestDate', '2026-11-23T24:00'],
    ] as const) {
      const answer = await portalCall(who, 'POST', '/portal-api/manifests', {
        body: { ...container(`ULD-${Date.now()}`), [field]: value },
      });
      expect422(answer, [field]);
    }
    // The list still answers: nothing with a year 0000 was stored.
    expect((await portalCall(who, 'GET', '/portal-api/manifests')).status).toBe(200);
  });

  it('tokens, webhooks and rates: NUL and lone surrogates are a 422 naming the field; huge events one error', async () => {
    const who = await session();
    for (const bad of [NUL, LONE]) {
      expect422(await portalCall(who, 'POST', '/portal-api/tokens', { body: { name: bad } }), ['name']);
      expect422(
        await portalCall(who, 'POST', '/portal-api/webhooks', {
          body: { url: 'https://example.com/hook', events: ['package.sorting'], description: bad },
        }),
        ['description'],
      );
      expect422(
        await portalCall(who, 'POST', '/portal-api/webhooks', {
          body: { url: `https://example.com/${bad}`, events: ['package.sorting'] },
        }),
        ['url'],
      );
      expect422(
        await portalCall(who, 'POST', '/portal-api/rates', {
          body: { weight: 1, weight_unit: bad, lenght: 1, width: 1, height: 1 },
        }),
        ['weight_unit'],
      );
    }
    const huge = await portalCall(who, 'POST', '/portal-api/webhooks', {
      body: { url: 'https://example.com/hook', events: Array(400_000).fill(1) },
    });
    const envelope = expect422(huge, ['events']);
    expect(envelope.error.details![0].message).toBe('must name at most 40 events (got 400000)');
    expect(Buffer.byteLength(huge.text)).toBeLessThan(1_000);
  });
});

describe('portal list filters', () => {
  it('bad days and unstorable text in /portal-api/manifests filters are a 422 naming the parameter', async () => {
    const who = await session();
    for (const [query, parameter] of [
      ['from=2026-02-30', 'from'],
      ['to=0000-00-00', 'to'],
      ['from=9999-99-99', 'from'],
      ['from=0000-01-01', 'from'],
      ['to=2100-01-01', 'to'],
      ['q=%00', 'q'],
      ['service=%00', 'service'],
      ['q=a%00b&service=AirSkip', 'q'],
    ] as const) {
      expect422(await portalCall(who, 'GET', `/portal-api/manifests?${query}`), [parameter]);
    }
    const ok = await portalCall(who, 'GET', '/portal-api/manifests?from=2000-01-01&to=2099-12-31&q=ULD&service=AirSkip');
    expect(ok.status).toBe(200);
  });

  it('/portal-api/packages?tracking_number=%00 is a 422 naming tracking_number', async () => {
    const who = await session();
    const body = expect422(await portalCall(who, 'GET', '/portal-api/packages?tracking_number=%00'), ['tracking_number']);
    expect(body.error.details![0].message).toMatch(TEXT_RULE);
    expect((await portalCall(who, 'GET', '/portal-api/packages?tracking_number=NOPE1')).status).toBe(200);
  });
});
