import { expect, test, type APIRequestContext, type APIResponse } from '@playwright/test';
import { signUpThroughApi, uniqueUser } from '../fixtures';

// Issue 10, findings 1-4 as they reach the portal's JSON endpoints: huge arrays, NUL and lone
// surrogates in every body's text, impossible dates in the container builder and in the list
// filters. Each is a small 4xx envelope naming the field or parameter, never a 500.

interface Envelope {
  error: { code: string; message: string; details?: { path: string; message: string }[]; details_truncated?: number };
}

// Every portal-api request names the page's environment, as the portal's fetcher does.
test.use({ extraHTTPHeaders: { 'x-carrier-environment': 'test' } });

const NUL = 'a\u0000b';
const LONE = 'a\ud800b';
const TEXT_RULE = /^must (not contain control characters|be valid Unicode text)/;

async function expect422(response: APIResponse, paths: string[]): Promise<Envelope> {
  expect(response.status(), await response.text()).toBe(422);
  const body = (await response.json()) as Envelope;
  expect(body.error.code).toBe('validation_failed');
  expect(body.error.details?.map((d) => d.path)).toEqual(paths);
  return body;
}

/** Signs up a fresh shipper in this request context and returns its CSRF token (from the portal layout). */
async function session(request: APIRequestContext): Promise<string> {
  await signUpThroughApi(request, uniqueUser('bounded'));
  const html = await (await request.get('/test/dashboard')).text();
  const token = /<meta name="csrf-token" content="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error('no csrf-token meta on /dashboard');
  return token;
}

function send(request: APIRequestContext, csrf: string, method: string, path: string, body: unknown) {
  return request.fetch(path, {
    method,
    headers: { 'x-csrf-token': csrf, 'content-type': 'application/json' },
    data: JSON.stringify(body),
  });
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

test.describe('portal bodies', () => {
  test('sign-up and sign-in: NUL and lone surrogates are a 422 naming the field', async ({ request }) => {
    const user = uniqueUser('text');
    for (const bad of [NUL, LONE]) {
      for (const field of ['company', 'email', 'password'] as const) {
        const response = await request.post('/portal-api/auth/sign-up', { data: { ...user, [field]: `${user[field]}${bad}` } });
        const body = await expect422(response, [field]);
        expect(body.error.details![0].message).toMatch(TEXT_RULE);
      }
      for (const field of ['email', 'password'] as const) {
        const response = await request.post('/portal-api/auth/sign-in', {
          data: { email: user.email, password: user.password, [field]: bad },
        });
        await expect422(response, [field]);
      }
    }
  });

  test('the container builder: 500,000 numbers are one small 422, quickly', async ({ request }) => {
    const csrf = await session(request);
    const body = { ...container(`ULD-${Date.now()}`), ContainerDetails: Array(500_000).fill(1) };
    const started = Date.now();
    const response = await send(request, csrf, 'POST', '/portal-api/manifests', body);
    const elapsed = Date.now() - started;
    const envelope = await expect422(response, ['ContainerDetails']);
    expect(envelope.error.details![0].message).toBe('must hold at most 5000 packages (got 500000)');
    expect((await response.body()).length).toBeLessThan(1_000);
    expect(elapsed).toBeLessThan(2_000);

    const allBad = await send(request, csrf, 'POST', '/portal-api/manifests', {
      ...container(`ULD-${Date.now()}`),
      ContainerDetails: Array(5_000).fill(1),
    });
    expect(allBad.status()).toBe(422);
    const capped = (await allBad.json()) as Envelope;
    expect(capped.error.details).toHaveLength(100);
    expect(capped.error.details_truncated).toBe(4900);
    expect(capped.error.message).toBe('5000 fields are invalid; the first 100 are listed.');
  });

  test('the container builder: unstorable text and impossible dates are a 422 naming the field', async ({ request }) => {
    const csrf = await session(request);
    for (const [field, value] of [
      ['FromCompany', NUL],
      ['ShipmentDescription', LONE],
      ['ContainerID', 'ULD\u0085'],
      ['ManifestDate', '0000-01-01'],
      ['ManifestDate', '2026-02-30'],
      ['ManifestDate', '2026-11-23T24:00'],
    ] as const) {
      const response = await send(request, csrf, 'POST', '/portal-api/manifests', {
        ...container(`ULD-${Date.now()}`),
        [field]: value,
      });
      await expect422(response, [field]);
    }
    // The list still answers: nothing with a year 0000 was stored.
    expect((await request.get('/portal-api/manifests')).status()).toBe(200);
  });

  test('tokens, webhooks and rates: NUL and lone surrogates are a 422 naming the field; huge events one error', async ({
    request,
  }) => {
    const csrf = await session(request);
    for (const bad of [NUL, LONE]) {
      await expect422(await send(request, csrf, 'POST', '/portal-api/tokens', { name: bad }), ['name']);
      await expect422(
        await send(request, csrf, 'POST', '/portal-api/webhooks', {
          url: 'https://example.com/hook',
          events: ['package.sorting'],
          description: bad,
        }),
        ['description'],
      );
      await expect422(
        await send(request, csrf, 'POST', '/portal-api/webhooks', {
          url: `https://example.com/${bad}`,
          events: ['package.sorting'],
        }),
        ['url'],
      );
      await expect422(
        await send(request, csrf, 'POST', '/portal-api/rates', { weight: 1, weight_unit: bad, lenght: 1, width: 1, height: 1 }),
        ['weight_unit'],
      );
    }
    const huge = await send(request, csrf, 'POST', '/portal-api/webhooks', {
      url: 'https://example.com/hook',
      events: Array(400_000).fill(1),
    });
    const envelope = await expect422(huge, ['events']);
    expect(envelope.error.details![0].message).toBe('must name at most 20 events (got 400000)');
    expect((await huge.body()).length).toBeLessThan(1_000);
  });
});

test.describe('portal list filters', () => {
  test('bad days and unstorable text in /portal-api/manifests filters are a 422 naming the parameter', async ({ request }) => {
    await session(request);
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
      const response = await request.get(`/portal-api/manifests?${query}`);
      await expect422(response, [parameter]);
    }
    const ok = await request.get('/portal-api/manifests?from=2000-01-01&to=2099-12-31&q=ULD&service=AirSkip');
    expect(ok.status()).toBe(200);
  });

  test('/portal-api/packages?tracking_number=%00 is a 422 naming tracking_number', async ({ request }) => {
    await session(request);
    const response = await request.get('/portal-api/packages?tracking_number=%00');
    const body = await expect422(response, ['tracking_number']);
    expect(body.error.details![0].message).toMatch(TEXT_RULE);
    expect((await request.get('/portal-api/packages?tracking_number=NOPE1')).status()).toBe(200);
  });
});
