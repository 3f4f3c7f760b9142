import type { Page } from '@playwright/test';
import { apiBase, authed, createToken, expect, portalApi, screenshots, test } from '../fixtures';
import { uid } from './fixtures/manifests';
import { packageBody } from './fixtures/packages';
import { axeFindings } from '../axe';

// A manifest's package table (the Packages page's table: linked tracking numbers, a status column, headings in
// words, the postal code on screen at desktop width), the manifests list's status filter, and the dashboard's recent
// packages linking to their pages.

async function container(page: Page, prefix: string, count: number) {
  const containerId = uid(`${prefix}-ULD`);
  const created = await portalApi(page, 'POST', '/portal-api/manifests', {
    ManifestDate: '2026-11-23T08:00:00Z',
    ServiceName: 'AirSkip',
    FromCompany: 'E2E Shipper Inc',
    ContainerID: containerId,
    ContainerLength: 10,
    ContainerWidth: 10,
    ContainerHeight: 10,
    ShipmentDescription: 'Parcels',
    ContainerDetails: Array.from({ length: count }, (_, i) => ({
      TrackingNumber: `${prefix}${String(i).padStart(3, '0')}`,
      PackageWeight: 2.5,
      PackageWeightUnit: 'kg',
      ToName: `A rather long recipient name number ${i}`,
      ToAddress1: '1600 Amphitheatre Parkway, Building 40, Floor 3',
      ToCity: 'Mountain View',
      ToState: 'CA',
      ToPostalCode: '94043',
      ToCountry: 'US',
    })),
  });
  expect(created.status(), await created.text()).toBe(200);
  return { manifestId: ((await created.json()) as { ManifestID: string }).ManifestID, containerId };
}

test('a manifest’s packages: linked tracking numbers, status, headings in words, postal code on screen at 1440 px', async ({
  freshPage: page,
}, testInfo) => {
  const prefix = uid('MT').replace('-', '').toUpperCase();
  const { manifestId } = await container(page, prefix, 3);
  expect((await portalApi(page, 'POST', `/portal-api/packages/${prefix}001/simulate`, { status: 'in_transit' })).status()).toBe(
    200,
  );
  await page.goto(`/test/manifests/${manifestId}`);
  const table = page.getByRole('region', { name: 'Packages 1 to 3' });
  await expect(table.getByRole('columnheader')).toHaveText([
    '#',
    'Tracking number',
    'Status',
    'Recipient',
    'City',
    'To postal code',
    'Country',
    'Weight',
    'Carrier barcode',
  ]);
  const second = table.locator('tbody tr').nth(1);
  await expect(second.getByText('In transit')).toBeVisible();
  await expect(second).toContainText('2.5 kg');
  // The postal code is inside the window without scrolling sideways.
  const postal = second.getByText('94043');
  const box = await postal.boundingBox();
  expect(box && box.x + box.width).toBeLessThanOrEqual(1440);
  const scroller = await table.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(scroller.scroll).toBeLessThanOrEqual(scroller.client);
  expect(await axeFindings(page, 'portal-tables 1', [page.viewportSize()!.width])).toEqual([]);
  await screenshots(page, testInfo, 'manifest-package-table');
  await second.getByRole('link', { name: `${prefix}001` }).click();
  await expect(page).toHaveURL(new RegExp(`/test/packages/${prefix}001$`));
  await expect(page.getByRole('heading', { name: `Package ${prefix}001` })).toBeVisible();
});

test('manifests list filters by status, cancelled and closed included; the dashboard links recent packages', async ({
  freshPage: page,
}, testInfo) => {
  const prefix = uid('MF').replace('-', '').toUpperCase();
  const kept = await container(page, `${prefix}K`, 1);
  const doomed = await container(page, `${prefix}X`, 1);
  expect((await portalApi(page, 'POST', `/portal-api/manifests/${doomed.manifestId}/cancel`, {})).status()).toBe(200);
  const token = await createToken(page, 'tables spec');
  const tn = `${prefix}D1`;
  expect((await authed(page.request, token).post(`${apiBase.test}/wf/package`, packageBody(tn))).status()).toBe(200);

  await page.goto('/test/manifests');
  await expect(page.getByRole('link', { name: kept.manifestId })).toBeVisible();
  await expect(page.getByRole('link', { name: doomed.manifestId })).toBeVisible();
  const status = page.getByLabel('Status');
  await expect(status.locator('option')).toContainText(['All statuses', 'Manifested', 'Closed', 'Cancelled']);
  await status.selectOption('cancelled');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/status=cancelled/);
  await expect(page.getByRole('link', { name: doomed.manifestId })).toBeVisible();
  await expect(page.getByRole('link', { name: kept.manifestId })).toHaveCount(0);
  await screenshots(page, testInfo, 'manifests-status-cancelled');
  await status.selectOption('closed');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('No manifests match these filters')).toBeVisible();
  expect(await axeFindings(page, 'portal-tables 2', [page.viewportSize()!.width])).toEqual([]);

  await page.goto('/test/dashboard');
  const recent = page.getByTestId('recent-activity');
  await recent.getByRole('link', { name: `Package ${tn}` }).click();
  await expect(page).toHaveURL(new RegExp(`/test/packages/${tn}$`));
  await expect(page.getByRole('heading', { name: `Package ${tn}` })).toBeVisible();
});

test('Simulate is not offered on a cancelled package or manifest', async ({ freshPage: page }) => {
  const prefix = uid('CS').replace('-', '').toUpperCase();
  const { manifestId } = await container(page, prefix, 2);
  await page.goto(`/test/packages/${prefix}000`);
  await expect(page.getByRole('form', { name: 'Simulate' })).toBeVisible();
  expect((await portalApi(page, 'POST', `/portal-api/packages/${prefix}000/cancel`, {})).status()).toBe(200);
  await page.reload();
  await expect(page.getByRole('heading', { name: `Package ${prefix}000` })).toBeVisible();
  await expect(page.getByText('Cancelled').first()).toBeVisible();
  await expect(page.getByRole('form', { name: 'Simulate' })).toHaveCount(0);

  await page.goto(`/test/manifests/${manifestId}`);
  await expect(page.getByRole('form', { name: 'Simulate' })).toBeVisible();
  expect((await portalApi(page, 'POST', `/portal-api/manifests/${manifestId}/cancel`, {})).status()).toBe(200);
  await page.reload();
  await expect(page.getByRole('list', { name: 'Packages by status' })).toContainText('Cancelled');
  await expect(page.getByRole('form', { name: 'Simulate' })).toHaveCount(0);
});
