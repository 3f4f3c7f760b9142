import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, portalApi, screenshots, test } from '../fixtures';
import { uid } from './fixtures/manifests';
import { axeFindings } from '../axe';

// The Packages page at work: search as you type (the URL follows), the total count, rows per page, row checkboxes
// that survive paging and clear on a new filter, "select all N matching", and the batch actions on the selection:
// cancel (a confirmation with the count, then what was and was not cancelled, and why), labels (PDF, ZPL), CSV.

async function container(page: Page, prefix: string, count: number) {
  const created = await portalApi(page, 'POST', '/portal-api/manifests', {
    ManifestDate: '2026-11-23T08:00:00Z',
    ServiceName: 'AirSkip',
    FromCompany: 'E2E Shipper Inc',
    ContainerID: uid(`${prefix}-ULD`),
    ContainerLength: 10,
    ContainerWidth: 10,
    ContainerHeight: 10,
    ShipmentDescription: 'Parcels',
    ContainerDetails: Array.from({ length: count }, (_, i) => ({
      TrackingNumber: `${prefix}${String(i).padStart(4, '0')}`,
      PackageWeight: 3,
      PackageWeightUnit: 'lb',
      ToName: `Recipient ${i}`,
      ToPostalCode: '90210',
    })),
  });
  expect(created.status(), await created.text()).toBe(200);
  return ((await created.json()) as { ManifestID: string }).ManifestID;
}

const rows = (page: Page) => page.getByRole('region', { name: 'Packages' }).locator('tbody tr');
const bar = (page: Page) => page.getByRole('region', { name: 'Selected packages' });

async function download(page: Page, button: string) {
  const [file] = await Promise.all([page.waitForEvent('download'), bar(page).getByRole('button', { name: button }).click()]);
  const path = await file.path();
  return { path, name: file.suggestedFilename(), text: readFileSync(path, 'latin1') };
}

test.describe('packages: selection and batch actions', () => {
  test('search as you type, count, page size, selection across pages, CSV and labels of the selection, batch cancel', async ({
    freshPage: page,
  }, testInfo) => {
    test.setTimeout(180_000);
    const prefix = uid('SB').replace('-', '').toUpperCase();
    await container(page, prefix, 30);
    // One package already with the carrier: it cannot be cancelled, and the batch says so.
    const held = `${prefix}0001`;
    expect((await portalApi(page, 'POST', `/portal-api/packages/${held}/simulate`, { status: 'received' })).status()).toBe(200);

    await page.goto('/test/packages');
    // "/" goes to the search box; typing filters without pressing Apply, and the URL follows.
    // The key is heard once the page is interactive: pressed before hydration, it is lost, so press until it lands.
    const search = page.getByLabel('Tracking number');
    await expect(async () => {
      await page.locator('body').press('/');
      await expect(search).toBeFocused({ timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    const searched: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/portal-api/packages') searched.push(url.searchParams.get('tracking_number') ?? '');
    });
    await search.pressSequentially(prefix.toLowerCase(), { delay: 30 });
    await expect(page).toHaveURL(new RegExp(`tracking_number=${prefix.toLowerCase()}`));
    await expect(page.getByText('30 packages match these filters')).toBeVisible();
    await expect(rows(page)).toHaveCount(25);
    // The pause starts the list's request before the URL changes, and the list takes that request: one, not two.
    expect(searched.filter((q) => q === prefix.toLowerCase())).toHaveLength(1);

    // Rows per page.
    await page.getByLabel('Rows per page').selectOption('50');
    await expect(rows(page)).toHaveCount(30);
    await page.getByLabel('Rows per page').selectOption('25');
    await expect(rows(page)).toHaveCount(25);

    // Two ticked here, one on the next page: the selection survives paging both ways.
    await rows(page).nth(0).getByRole('checkbox').check();
    await rows(page).nth(1).getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(rows(page)).toHaveCount(5);
    await rows(page).nth(0).getByRole('checkbox').check();
    await expect(bar(page)).toContainText('3 packages selected');
    await page.getByRole('button', { name: 'Previous' }).click();
    await expect(rows(page)).toHaveCount(25);
    await expect(rows(page).nth(0).getByRole('checkbox')).toBeChecked();
    await expect(rows(page).nth(1).getByRole('checkbox')).toBeChecked();
    await expect(rows(page).nth(2).getByRole('checkbox')).not.toBeChecked();
    await screenshots(page, testInfo, 'packages-selected');

    // The selection's CSV: exactly the three ticked.
    const csv = await download(page, 'Export selected (CSV)');
    expect(csv.name).toMatch(/^packages-test-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = csv.text.split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(4);
    expect(
      lines
        .slice(1)
        .map((l) => l.split(',')[0])
        .sort(),
    ).toEqual([`${prefix}0004`, `${prefix}0028`, `${prefix}0029`]);
    // Their labels, as ZPL (three labels) and PDF.
    const zpl = await download(page, 'Labels (ZPL)');
    expect(zpl.name).toMatch(/\.zpl$/);
    expect(zpl.text.match(/\^XA/g)).toHaveLength(3);
    const pdf = await download(page, 'Labels (PDF)');
    expect(pdf.text.startsWith('%PDF-')).toBe(true);

    // Every row of the page, then every package the filter matches.
    await page.getByRole('checkbox', { name: 'Select every package on this page' }).check();
    await expect(bar(page)).toContainText('26 packages selected');
    await bar(page).getByRole('button', { name: 'Select all 30 matching this filter' }).click();
    await expect(bar(page)).toContainText('All 30 packages matching this filter are selected');
    await expect(rows(page).nth(5).getByRole('checkbox')).toBeChecked();

    // Cancel: a confirmation with the count; then how many were cancelled and which could not be, with why.
    await bar(page).getByRole('button', { name: 'Cancel selected' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel 30 packages?' });
    await expect(dialog).toBeVisible();
    expect(await axeFindings(page, 'package-batch 1', [page.viewportSize()!.width])).toEqual([]);
    await screenshots(page, testInfo, 'packages-batch-cancel-confirm');
    await dialog.getByRole('button', { name: 'Yes, cancel 30 packages' }).click();
    const result = page.getByRole('status').filter({ hasText: 'cancelled' });
    await expect(result).toContainText('29 packages cancelled; 1 could not be cancelled:');
    await expect(result).toContainText(held);
    await expect(result).toContainText('received');
    await expect(bar(page)).toHaveCount(0);
    await expect(rows(page).first().getByText('Cancelled')).toBeVisible();
    expect(await axeFindings(page, 'package-batch 2', [page.viewportSize()!.width])).toEqual([]);
    await screenshots(page, testInfo, 'packages-batch-cancel-result');

    // A new filter starts with no selection.
    await rows(page).nth(0).getByRole('checkbox').check();
    await expect(bar(page)).toContainText('1 package selected');
    await page.getByLabel('Status').selectOption('cancelled');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/status=cancelled/);
    await expect(page.getByText('29 packages match these filters')).toBeVisible();
    await expect(bar(page)).toHaveCount(0);
    await expect(rows(page).nth(0).getByRole('checkbox')).not.toBeChecked();
  });

  // How soon the download starts is measured by `npm run bench -- --only portal` (bench/portal.ts), beside its baseline.
  test('labels of 1,000 selected packages, every one in the PDF and the ZPL', async ({ freshPage: page }) => {
    test.setTimeout(180_000);
    const prefix = uid('SL').replace('-', '').toUpperCase();
    await container(page, prefix, 1_000);
    await page.goto(`/test/packages?tracking_number=${prefix}`);
    await expect(page.getByText('1,000 packages match these filters')).toBeVisible();
    await page.getByLabel('Rows per page').selectOption('100');
    await expect(rows(page)).toHaveCount(100);
    await page.getByRole('checkbox', { name: 'Select every package on this page' }).check();
    await bar(page).getByRole('button', { name: 'Select all 1,000 matching this filter' }).click();
    const pdf = await download(page, 'Labels (PDF)');
    expect(pdf.text.startsWith('%PDF-')).toBe(true);
    expect(execFileSync('pdfinfo', [pdf.path]).toString()).toMatch(/Pages:\s+1000\n/);
    const zpl = await download(page, 'Labels (ZPL)');
    expect(zpl.text.match(/\^XA/g)).toHaveLength(1_000);
  });
});
