import { apiBase, authed, createToken, expect, portalApi, test } from '../fixtures';

const SECTIONS = [
  '/dashboard',
  '/rates',
  '/tokens',
  '/rate-cards',
  '/settings',
  '/docs',
  '/manifests',
  '/manifests/new',
  '/packages',
  '/webhooks',
  '/logs',
];
// Each page in both environments, the bare (pre-environment) URLs that redirect, and the front doors.
const PORTAL_PAGES = [
  '/',
  '/test',
  '/live',
  ...SECTIONS,
  ...SECTIONS.map((p) => `/test${p}`),
  ...SECTIONS.map((p) => `/live${p}`),
];

test.describe('access control', () => {
  // One test per page: 36 first renders in one test's minute failed on a machine busy with the cluster test beside it.
  for (const path of PORTAL_PAGES) {
    test(`${path} redirects to /sign-in without a session`, async ({ page }) => {
      await page.goto(path);
      await expect(page, path).toHaveURL(/\/sign-in$/);
      await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    });
  }

  test('a first segment other than test or live is not a portal page', async ({ signedInPage: page }) => {
    for (const path of ['/prod/dashboard', '/TEST/dashboard', '/Live/manifests/new', '/testing/tokens', '/x/webhooks']) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByTestId('env-test'), path).toHaveCount(0);
    }
    // A malformed percent-escape names no page either: 400, never a 500.
    for (const path of ['/test/manifests/%E0%A4%A', '/manifests/%E0%A4%A', '/live/webhooks/%ZZ']) {
      expect((await page.request.get(path, { maxRedirects: 0 })).status(), path).toBe(400);
    }
  });

  test('portal-api answers 401 without a session', async ({ request }) => {
    for (const [method, path] of [
      ['GET', '/portal-api/session'],
      ['GET', '/portal-api/tokens'],
      ['POST', '/portal-api/tokens'],
      ['DELETE', '/portal-api/tokens/00000000-0000-0000-0000-000000000000'],
      ['GET', '/portal-api/dashboard'],
      ['GET', '/portal-api/rate-cards'],
      ['GET', '/portal-api/airports?q=jfk'],
      ['POST', '/portal-api/rates'],
    ] as const) {
      const response = await request.fetch(path, { method, data: method === 'GET' || method === 'DELETE' ? undefined : {} });
      expect(response.status(), `${method} ${path}`).toBe(401);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    }
  });

  test('portal-api mutations answer 403 without the CSRF header', async ({ signedInPage: page }) => {
    for (const headers of [{}, { 'x-csrf-token': 'not-the-token' }] as Record<string, string>[]) {
      const create = await page.request.post('/portal-api/tokens', { headers, data: { name: 'csrf' } });
      expect(create.status()).toBe(403);
      expect(((await create.json()) as { error: { code: string } }).error.code).toBe('forbidden');
      expect((await page.request.delete('/portal-api/session', { headers })).status()).toBe(403);
    }
    // Reads need no token, and the session survived the refused sign-out.
    expect((await page.request.get('/portal-api/tokens', { headers: { 'x-carrier-environment': 'test' } })).status()).toBe(200);
    expect((await portalApi(page, 'POST', '/portal-api/tokens', { name: 'with csrf' })).status()).toBe(201);
  });

  test('one account cannot read or revoke another account’s tokens', async ({
    signedInPage: mine,
    freshPage: theirs,
    request,
  }) => {
    const token = await createToken(mine, 'mine, not theirs');
    const list = (await (await portalApi(mine, 'GET', '/portal-api/tokens')).json()) as {
      tokens: { id: string; name: string }[];
    };
    const row = list.tokens.find((t) => t.name === 'mine, not theirs')!;
    expect(row).toBeTruthy();

    const theirList = (await (await portalApi(theirs, 'GET', '/portal-api/tokens')).json()) as { tokens: { id: string }[] };
    expect(theirList.tokens.map((t) => t.id)).not.toContain(row.id);
    const revoke = await portalApi(theirs, 'DELETE', `/portal-api/tokens/${row.id}`);
    expect(revoke.status()).toBe(404);

    // Still working for its owner.
    const rate = await authed(request, token).post(`${apiBase.test}/wf/rate`, {
      weight: 1,
      weight_unit: 'lb',
      from_zip: '10001',
      to_zip: '10002',
      service: 'Carrier Ground',
      length: 5,
      width: 5,
      height: 5,
    });
    expect(rate.status()).toBe(200);
  });
});
