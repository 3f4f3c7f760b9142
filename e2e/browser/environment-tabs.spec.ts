import { apiBase, authed, expect, portalApi, screenshots, switchEnvironment, test, type Env } from '../fixtures';
import { cell, fillHeader, uid } from './fixtures/manifests';
import type { Page } from '@playwright/test';

// The environment belongs to the page, not the browser (design.md, "Environments in the portal"). Two
// tabs of one browser (one context: the same cookies) in different environments: a tab showing Test
// only ever writes test data, whatever the other tab switched to, and both keep working.

async function manifestIds(page: Page, environment: Env, containerId: string): Promise<string[]> {
  const response = await portalApi(
    page,
    'GET',
    `/portal-api/manifests?q=${encodeURIComponent(containerId)}`,
    undefined,
    environment,
  );
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: { ManifestID: string }[] }).data.map((m) => m.ManifestID);
}

async function addOnePackage(page: Page, tracking: string) {
  await cell(page, 0, 'TrackingNumber').click();
  await page.keyboard.type(tracking);
  await page.keyboard.press('Tab');
  await page.keyboard.type('2');
  await page.keyboard.press('Tab');
  await page.keyboard.type('lb');
  await page.keyboard.press('Enter');
}

test.describe('two tabs, two environments', () => {
  // Two pages, a submit and screenshots at two widths: more than the default minute on a busy machine.
  test.describe.configure({ timeout: 120_000 });

  test('a manifest submitted from a Test tab is stored in test after another tab switched to Live', async ({
    signedInPage: tabA,
  }, testInfo) => {
    const containerId = uid('TAB');
    await tabA.goto('/test/manifests/new');
    await expect(tabA.getByText('Test environment: data here never reaches live.')).toBeVisible();
    await fillHeader(tabA, { containerId, containerWeight: '5' });
    await addOnePackage(tabA, uid('TABTN'));

    // Tab B, same browser: switches to Live.
    const tabB = await tabA.context().newPage();
    await tabB.goto('/test/dashboard');
    await switchEnvironment(tabB, 'live');
    await expect(tabB).toHaveURL(/\/live\/dashboard$/);
    await expect(tabB.getByText('Test environment')).toBeHidden();

    // Tab A still says Test, and its submit lands in test.
    await expect(tabA).toHaveURL(/\/test\/manifests\/new$/);
    await expect(tabA.getByTestId('env-test')).toHaveAttribute('aria-current', 'page');
    await tabA.getByRole('button', { name: 'Create manifest' }).click();
    const idText = tabA.getByTestId('manifest-id');
    await expect(idText).toHaveText(/^MAN-/, { timeout: 30_000 });
    const manifestId = (await idText.textContent())!.trim();

    expect(await manifestIds(tabA, 'test', containerId)).toEqual([manifestId]);
    expect(await manifestIds(tabA, 'live', containerId)).toEqual([]);

    // The success link opens it in test; the Live tab's list does not have it, the Test tab's does.
    await tabA.getByRole('link', { name: `View manifest ${manifestId}` }).click();
    await expect(tabA).toHaveURL(new RegExp(`/test/manifests/${manifestId}$`));
    await expect(tabA.getByText(containerId).first()).toBeVisible();

    await tabB.goto(`/live/manifests?q=${containerId}`);
    await expect(tabB.getByText('No manifests match these filters')).toBeVisible();
    await expect(tabB.getByRole('link', { name: manifestId })).toHaveCount(0);
    // The record is test's: opened in live it is not found.
    await tabB.goto(`/live/manifests/${manifestId}`);
    await expect(tabB.getByText('Manifest not found')).toBeVisible();

    // Both tabs keep working in their own environments, side by side.
    await tabA.goto(`/test/manifests?q=${containerId}`);
    await expect(tabA.getByRole('link', { name: manifestId })).toBeVisible();
    await expect(tabA.getByTestId('env-test')).toHaveAttribute('aria-current', 'page');
    await tabB.reload();
    await expect(tabB).toHaveURL(/\/live\/manifests\//);
    await expect(tabB.getByTestId('env-live')).toHaveAttribute('aria-current', 'page');
    await screenshots(tabA, testInfo, 'env-tab-a-test-manifests');
    await screenshots(tabB, testInfo, 'env-tab-b-live-manifest-not-found');
    // From there, one link opens it where it is.
    await tabB.getByRole('link', { name: 'Look for it in test' }).click();
    await expect(tabB).toHaveURL(new RegExp(`/test/manifests/${manifestId}$`));
    await expect(tabB.getByText(containerId).first()).toBeVisible();
    await tabB.close();
  });

  test('"Create test token" in a Test tab mints ck_test_ after another tab switched to Live; the Live tab mints ck_live_', async ({
    signedInPage: tabA,
    request,
  }, testInfo) => {
    await tabA.goto('/test/tokens');
    await expect(tabA.getByRole('button', { name: 'Create test token' })).toBeVisible();

    const tabB = await tabA.context().newPage();
    await tabB.goto('/test/tokens');
    await switchEnvironment(tabB, 'live');
    await expect(tabB).toHaveURL(/\/live\/tokens$/);
    await expect(tabB.getByRole('button', { name: 'Create live token' })).toBeVisible();

    const testName = `tab A ${Date.now()}`;
    await tabA.getByLabel('Token name').fill(testName);
    await tabA.getByRole('button', { name: 'Create test token' }).click();
    await expect(tabA.getByTestId('new-token-value')).toHaveText(/^ck_test_[A-Za-z0-9_-]{43}$/);
    const testToken = (await tabA.getByTestId('new-token-value').textContent())!.trim();
    await expect(tabA.getByTestId('token-row').filter({ hasText: testName })).toBeVisible();

    const liveName = `tab B ${Date.now()}`;
    await tabB.getByLabel('Token name').fill(liveName);
    await tabB.getByRole('button', { name: 'Create live token' }).click();
    await expect(tabB.getByTestId('new-token-value')).toHaveText(/^ck_live_[A-Za-z0-9_-]{43}$/);
    const liveToken = (await tabB.getByTestId('new-token-value').textContent())!.trim();
    await expect(tabB.getByTestId('token-row').filter({ hasText: liveName })).toBeVisible();
    await screenshots(tabA, testInfo, 'env-tab-a-test-token');
    await screenshots(tabB, testInfo, 'env-tab-b-live-token');

    // Each list shows only its own environment's token, after a reload too.
    await tabA.reload();
    await expect(tabA.getByTestId('token-row').filter({ hasText: testName })).toBeVisible();
    await expect(tabA.getByTestId('token-row').filter({ hasText: liveName })).toHaveCount(0);
    await tabB.reload();
    await expect(tabB.getByTestId('token-row').filter({ hasText: liveName })).toBeVisible();
    await expect(tabB.getByTestId('token-row').filter({ hasText: testName })).toHaveCount(0);

    // And each token works on its own API base only.
    const rate = {
      weight: 1,
      weight_unit: 'lb',
      from_zip: '10001',
      to_zip: '10002',
      service: 'Carrier Ground',
      length: 5,
      width: 5,
      height: 5,
    };
    expect((await authed(request, testToken).post(`${apiBase.test}/wf/rate`, rate)).status()).toBe(200);
    expect((await authed(request, liveToken).post(`${apiBase.live}/wf/rate`, rate)).status()).toBe(200);
    expect((await authed(request, testToken).post(`${apiBase.live}/wf/rate`, rate)).status()).toBe(401);
    await tabB.close();
  });
});

test.describe('the portal API takes the environment the request names', () => {
  test('a mutation for test lands in test whatever the carrier_env cookie says, and one without an environment is a 400', async ({
    signedInPage: page,
  }, testInfo) => {
    const host = new URL(testInfo.project.use.baseURL!).hostname;
    for (const remembered of ['live', 'test'] as const) {
      await page.context().addCookies([{ name: 'carrier_env', value: remembered, domain: host, path: '/' }]);
      for (const environment of ['test', 'live'] as const) {
        const name = `cookie ${remembered} asks ${environment} ${Date.now()}`;
        const created = await portalApi(page, 'POST', '/portal-api/tokens', { name }, environment);
        expect(created.status()).toBe(201);
        expect(((await created.json()) as { token: string }).token).toMatch(new RegExp(`^ck_${environment}_`));

        const containerId = uid('HDR');
        const manifest = await portalApi(
          page,
          'POST',
          '/portal-api/manifests',
          {
            ServiceName: 'AirSkip',
            FromCompany: 'E2E',
            ContainerID: containerId,
            ContainerLength: 10,
            ContainerWidth: 10,
            ContainerHeight: 10,
            ShipmentDescription: 'Env check',
            ContainerDetails: [{ TrackingNumber: uid('HDRTN'), PackageWeight: 1, PackageWeightUnit: 'lb' }],
          },
          environment,
        );
        expect(manifest.status(), await manifest.text()).toBe(200);
        const manifestId = ((await manifest.json()) as { ManifestID: string }).ManifestID;
        const other = environment === 'test' ? 'live' : 'test';
        expect(await manifestIds(page, environment, containerId)).toEqual([manifestId]);
        expect(await manifestIds(page, other, containerId)).toEqual([]);
      }
    }

    // Not saying which environment: refused, never defaulted from the cookie.
    const csrf = await page.locator('meta[name="csrf-token"]').getAttribute('content');
    for (const [method, path, body] of [
      ['POST', '/portal-api/tokens', { name: 'no environment' }],
      ['GET', '/portal-api/tokens', undefined],
    ] as const) {
      const response = await page.request.fetch(path, {
        method,
        headers: { 'x-csrf-token': csrf!, ...(body ? { 'content-type': 'application/json' } : {}) },
        data: body ? JSON.stringify(body) : undefined,
      });
      expect(response.status(), `${method} ${path}`).toBe(400);
      const error = ((await response.json()) as { error: { code: string; message: string } }).error;
      expect(error.code).toBe('environment_required');
      expect(error.message).toContain('x-carrier-environment');
    }
    for (const value of ['prod', 'LIVE', '']) {
      const response = await page.request.post('/portal-api/tokens', {
        headers: { 'x-csrf-token': csrf!, 'x-carrier-environment': value, 'content-type': 'application/json' },
        data: JSON.stringify({ name: 'bad environment' }),
      });
      expect(response.status(), value).toBe(400);
    }
    // The CSRF check still comes first for a mutation that names its environment.
    const noCsrf = await page.request.post('/portal-api/tokens', {
      headers: { 'x-carrier-environment': 'test', 'content-type': 'application/json' },
      data: JSON.stringify({ name: 'no csrf' }),
    });
    expect(noCsrf.status()).toBe(403);
    // The old switch endpoint is gone: the environment is not a browser-wide setting any more.
    const put = await portalApi(page, 'PUT', '/portal-api/environment', { environment: 'live' }, 'test');
    expect(put.status()).toBe(404);
  });
});
