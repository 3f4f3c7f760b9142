import type { Page } from '@playwright/test';
import { apiBase, authed, createToken, expect, portalApi, screenshots, test } from '../fixtures';
import { uid } from './fixtures/manifests';
import { packageBody } from './fixtures/packages';

// The Logs page: the account's requests in the page's environment, newest first, filtered in the URL; a
// request's detail with both bodies (secrets redacted) and links to what it made; an error shown anywhere in the
// portal links to its request; another account's request and the other environment's are a not-found page.

const rows = (page: Page) => page.getByRole('region', { name: 'Requests' }).locator('tbody tr');

test.describe('logs', () => {
  test('lists the API requests, filters them, shows one with its bodies and links, redacted', async ({
    freshPage: page,
  }, testInfo) => {
    test.setTimeout(120_000);
    const token = await createToken(page, 'logs spec');
    const api = authed(page.request, token);
    const tn = uid('LOG');
    const created = await api.post(`${apiBase.test}/wf/package`, packageBody(tn));
    expect(created.status()).toBe(200);
    const manifestId = ((await created.json()) as { ManifestID: string }).ManifestID;
    const refused = await api.post(`${apiBase.test}/wf/package`, { package: { TrackingNumber: `${tn}X` } });
    expect(refused.status()).toBe(422);
    const refusedId = refused.headers()['x-request-id'] ?? '';
    const hook = await api.post(`${apiBase.test}/webhooks`, {
      url: 'https://93.184.215.14/hooks/logs',
      events: ['package.sorting'],
    });
    expect(hook.status()).toBe(201);
    const secret = ((await hook.json()) as { secret: string }).secret;

    await page.goto('/test/logs');
    await expect(page.getByRole('heading', { name: 'Logs', exact: true })).toBeVisible();
    // Lines arrive within a second: the newest is the webhook's; the oldest the portal's creation of the token.
    await expect(async () => {
      await page.reload();
      await expect(rows(page)).toHaveCount(4, { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await expect(rows(page).first()).toContainText('/webhooks');
    await expect(rows(page).nth(1)).toContainText('422');
    await expect(rows(page).nth(1)).toContainText('validation_failed');
    await expect(rows(page).nth(2)).toContainText('/wf/package');
    await expect(rows(page).first()).toContainText('Token logs spec');
    await expect(rows(page).nth(3)).toContainText('POST');
    await expect(rows(page).nth(3)).toContainText('/tokens');
    await expect(rows(page).nth(3)).toContainText('Portal');
    await screenshots(page, testInfo, 'logs-list');

    // Failed only, in the URL (reload and Back keep it).
    await page.getByLabel('Status').selectOption('error');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/status=error/);
    await expect(rows(page)).toHaveCount(1);
    await page.reload();
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText(refusedId);

    // The refused request: both bodies, its code.
    await rows(page).first().getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`/test/logs/${refusedId}$`));
    await expect(page.getByRole('heading', { name: 'POST /wf/package' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Request body' }).or(page.getByLabel('Request body'))).toContainText(`${tn}X`);
    await expect(page.getByLabel('Response body')).toContainText('validation_failed');
    await screenshots(page, testInfo, 'logs-detail-422');

    // The package request links to its manifest and package.
    await page.goto(`/test/logs?path=${encodeURIComponent('/wf/package')}&status=2xx`);
    await expect(rows(page)).toHaveCount(1);
    await rows(page).first().getByRole('link').click();
    await expect(page.getByRole('link', { name: manifestId })).toBeVisible();
    await page.getByRole('link', { name: tn, exact: true }).click();
    await expect(page.getByRole('heading', { name: `Package ${tn}` })).toBeVisible();

    // The webhook's answer had its secret: not on the page.
    await page.goto('/test/logs?path=/webhooks');
    await rows(page).first().getByRole('link').click();
    await expect(page.getByLabel('Response body')).toContainText('[redacted]');
    await expect(page.locator('body')).not.toContainText(secret);

    // The portal's token creation: its answer held the new token, which is not on the page either.
    await page.goto('/test/logs?source=portal');
    await expect(rows(page)).toHaveCount(1);
    await rows(page).first().getByRole('link').click();
    await expect(page.getByRole('heading', { name: 'POST /tokens' })).toBeVisible();
    await expect(page.getByLabel('Response body')).toContainText('[redacted]');
    await expect(page.locator('body')).not.toContainText(token);

    // Live is another log.
    await page.goto('/live/logs');
    await expect(page.getByText('No requests yet')).toBeVisible();
    await page.goto(`/live/logs/${refusedId}`);
    await expect(page.getByText('Request not found')).toBeVisible();
  });

  test('a refusal shown in the portal links to its request', async ({ freshPage: page }, testInfo) => {
    test.setTimeout(90_000);
    const token = await createToken(page, 'logs link spec');
    const tn = uid('LGL');
    expect((await authed(page.request, token).post(`${apiBase.test}/wf/package`, packageBody(tn))).status()).toBe(200);
    // A tab left open: the package was received meanwhile, so the cancel is refused (409).
    await page.goto(`/test/packages/${tn}`);
    await expect(page.getByRole('button', { name: 'Cancel package' })).toBeVisible();
    expect((await portalApi(page, 'POST', `/portal-api/packages/${tn}/simulate`, { status: 'received' })).status()).toBe(200);
    await page.getByRole('button', { name: 'Cancel package' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel package?' });
    await dialog.getByRole('button', { name: 'Yes, cancel package' }).click();
    await expect(dialog.getByRole('alert')).toContainText('Not cancellable');
    const link = dialog.getByRole('link', { name: 'see it in Logs' });
    await expect(link).toBeVisible();
    await screenshots(page, testInfo, 'logs-error-link');
    await link.click();
    await expect(page.getByRole('heading', { name: `POST /packages/${tn}/cancel` })).toBeVisible();
    await expect(page.getByText('not_cancellable').first()).toBeVisible();
    await expect(page.getByText('Portal', { exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: tn, exact: true })).toBeVisible();
  });
});
