import { apiBase, authed, expect, screenshots, switchEnvironment, test } from '../fixtures';
import { axeFindings } from '../axe';

const rateBody = {
  weight: '2',
  weight_unit: 'lb',
  from_zip: '10001',
  to_zip: '60601',
  service: 'Carrier Express',
  length: '10',
  width: '8',
  height: '4',
};

test.describe('API tokens', () => {
  test('create → shown once → works against the API → revoke → 401', async ({ freshPage: page, request }, testInfo) => {
    await page.goto('/test/tokens');
    await expect(page.getByText('No test tokens yet')).toBeVisible();
    await screenshots(page, testInfo, 'tokens-empty');

    // Client-side validation first.
    await page.getByRole('button', { name: 'Create test token' }).click();
    await expect(page.getByLabel('Token name')).toHaveAttribute('aria-invalid', 'true');

    await page.getByLabel('Token name').fill('Warehouse WMS');
    await page.getByRole('button', { name: 'Create test token' }).click();
    const shown = page.getByTestId('new-token-value');
    await expect(shown).toHaveText(/^ck_test_[A-Za-z0-9_-]{43}$/);
    const token = (await shown.textContent())!.trim();
    // Focus moved to the token, the submit's result.
    await expect(page.locator(':focus')).toContainText(token);
    await expect(page.getByRole('button', { name: 'Copy token' })).toBeVisible();
    const row = page.getByTestId('token-row').filter({ hasText: 'Warehouse WMS' });
    await expect(row).toContainText(token.slice(0, 12));
    await expect(row).toContainText('Never');
    await screenshots(page, testInfo, 'tokens-created');

    // Shown once: after a reload only the prefix remains.
    await page.reload();
    await expect(page.getByTestId('new-token-value')).toHaveCount(0);
    await expect(page.getByText(token)).toHaveCount(0);
    await expect(page.getByTestId('token-row').filter({ hasText: 'Warehouse WMS' })).toBeVisible();

    // It works against the real API, in its own environment only.
    const api = authed(request, token);
    const ok = await api.post(`${apiBase.test}/wf/rate`, rateBody);
    expect(ok.status()).toBe(200);
    expect(((await ok.json()) as { rates: unknown[] }).rates).toHaveLength(1);
    const wrongEnv = await api.post(`${apiBase.live}/wf/rate`, rateBody);
    expect(wrongEnv.status()).toBe(401);

    await page.reload();
    await expect(page.getByTestId('token-row').filter({ hasText: 'Warehouse WMS' })).not.toContainText('Never');

    // Revoke, with a confirmation step.
    await page.getByRole('button', { name: 'Revoke token Warehouse WMS' }).click();
    await page.getByRole('button', { name: 'Confirm revoke' }).click();
    await expect(page.getByTestId('token-row').filter({ hasText: 'Warehouse WMS' })).toContainText('Revoked');

    await expect.poll(async () => (await api.post(`${apiBase.test}/wf/rate`, rateBody)).status(), { timeout: 15_000 }).toBe(401);
  });

  test('a token with chosen scopes: listed with them and its creator, and held to them by the API', async ({
    freshPage: page,
    request,
  }, testInfo) => {
    await page.goto('/test/tokens');
    await page.getByLabel('Token name').fill('Rate shop');
    await expect(page.getByRole('radio', { name: /Full access/ })).toBeChecked();
    await page.getByRole('radio', { name: /Only the scopes I choose/ }).check();
    // None ticked: the shared schema refuses it before anything is sent.
    await page.getByRole('button', { name: 'Create test token' }).click();
    await expect(page.getByText('choose at least one scope, or full access')).toBeVisible();
    await page.getByRole('checkbox', { name: /^rates/ }).check();
    await page.getByRole('checkbox', { name: /^manifests:read/ }).check();
    await expect(page.getByText('choose at least one scope, or full access')).toHaveCount(0);
    await screenshots(page, testInfo, 'tokens-scopes-chosen');
    // The scope choice as accessibility.spec.ts holds every page (that spec sees the form with full access only).
    expect(await axeFindings(page, 'tokens, scopes chosen', [page.viewportSize()!.width])).toEqual([]);
    await page.getByRole('button', { name: 'Create test token' }).click();

    const shown = page.getByTestId('new-token-value');
    await expect(shown).toHaveText(/^ck_test_/);
    const token = (await shown.textContent())!.trim();
    await expect(page.getByTestId('new-token')).toContainText('rates');
    const row = page.getByTestId('token-row').filter({ hasText: 'Rate shop' });
    await expect(row.getByTestId('token-scopes')).toHaveText(/rates\s*manifests:read/);
    await expect(row).toContainText(/by .+@/);
    // The form is back to full access for the next token.
    await expect(page.getByRole('radio', { name: /Full access/ })).toBeChecked();
    await screenshots(page, testInfo, 'tokens-scoped-created');

    const api = authed(request, token);
    expect((await api.post(`${apiBase.test}/wf/rate`, rateBody)).status()).toBe(200);
    expect((await api.get(`${apiBase.test}/manifests`)).status()).toBe(200);
    const refused = await api.post(`${apiBase.test}/webhooks`, { url: 'https://example.com/hook', events: ['package.sorting'] });
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: 'insufficient_scope', required_scope: 'webhooks' } });

    // A full-access token says so in the list.
    await page.getByLabel('Token name').fill('Everything');
    await page.getByRole('button', { name: 'Create test token' }).click();
    await expect(page.getByTestId('token-row').filter({ hasText: 'Everything' })).toContainText('Full access');
  });

  test('a token created in live is not listed in test', async ({ signedInPage: page }) => {
    await page.goto('/test/tokens');
    await switchEnvironment(page, 'live');
    await page.getByLabel('Token name').fill('Live only');
    await page.getByRole('button', { name: 'Create live token' }).click();
    await expect(page.getByTestId('new-token-value')).toHaveText(/^ck_live_/);
    await expect(page.getByTestId('token-row').filter({ hasText: 'Live only' })).toBeVisible();

    await switchEnvironment(page, 'test');
    await expect(page.getByRole('button', { name: 'Create test token' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Tokens', exact: true })).toBeVisible();
    await expect(page.getByTestId('token-row').filter({ hasText: 'Live only' })).toHaveCount(0);

    await switchEnvironment(page, 'live');
    await expect(page.getByTestId('token-row').filter({ hasText: 'Live only' })).toBeVisible();
    await switchEnvironment(page, 'test');
  });

  test('a revoke that gets no answer says so beside its button, on a phone too, and can be tried again', async ({
    freshPage: page,
    request,
  }, testInfo) => {
    await page.goto('/test/tokens');
    await page.getByLabel('Token name').fill('Dock scanner');
    await page.getByRole('button', { name: 'Create test token' }).click();
    const token = (await page.getByTestId('new-token-value').textContent())!.trim();
    const row = page.getByTestId('token-row').filter({ hasText: 'Dock scanner' });

    // The network drops the revoke: no answer at all, so nothing the server said to show.
    await page.route('**/portal-api/tokens/*', (route) =>
      route.request().method() === 'DELETE' ? route.abort('internetdisconnected') : route.continue(),
    );
    await row.getByRole('button', { name: 'Revoke token Dock scanner' }).click();
    await row.getByRole('button', { name: 'Confirm revoke' }).click();
    const error = row.getByRole('alert');
    await expect(error).toHaveText('The server could not be reached. Check your connection, then try again.');
    await expect(error.getByRole('link')).toHaveCount(0);
    await expect(row).not.toContainText('Revoked');
    await screenshots(page, testInfo, 'tokens-revoke-no-answer', () => expect(error).toBeVisible());
    // On a phone the message wraps inside the page: nothing of it is cut off or scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    const box = (await error.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1440, height: 900 });
    expect((await authed(request, token).post(`${apiBase.test}/wf/rate`, rateBody)).status()).toBe(200);

    // The network is back: the same button revokes it.
    await page.unroute('**/portal-api/tokens/*');
    await row.getByRole('button', { name: 'Confirm revoke' }).click();
    await expect(row).toContainText('Revoked');
    await expect
      .poll(async () => (await authed(request, token).post(`${apiBase.test}/wf/rate`, rateBody)).status(), { timeout: 15_000 })
      .toBe(401);
  });
});
