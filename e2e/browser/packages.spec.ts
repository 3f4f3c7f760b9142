import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { apiBase, authed, createToken, expect, portalApi, screenshots, signUpThroughUi, test, uniqueUser } from '../fixtures';
import { uid } from './fixtures/manifests';
import { packageBody } from './fixtures/packages';

// The Packages page (Portal): every package of both kinds, prefix search, filters, keyset pages
// kept in the URL, the CSV export; a package's timeline, simulate (test only), cancel with its confirmation
// and its 409; a manifest's status and counts; another account's package is a not-found page.

async function container(page: Page, prefix: string, count: number, detail: (i: number) => Record<string, unknown> = () => ({})) {
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
      TrackingNumber: `${prefix}${String(i).padStart(2, '0')}`,
      PackageWeight: 3,
      PackageWeightUnit: 'lb',
      ToPostalCode: '90210',
      ...detail(i),
    })),
  });
  expect(created.status(), await created.text()).toBe(200);
  return ((await created.json()) as { ManifestID: string }).ManifestID;
}

const rows = (page: Page) => page.getByRole('region', { name: 'Packages' }).locator('tbody tr');

async function downloadCsv(page: Page, link: string) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: link }).click()]);
  const path = await download.path();
  return { name: download.suggestedFilename(), lines: readFileSync(path, 'utf8').split('\r\n').filter(Boolean) };
}

test.describe('packages', () => {
  test('lists every package, searches by prefix in any case, filters, pages by cursor in the URL, and exports CSV', async ({
    freshPage: page,
  }, testInfo) => {
    test.setTimeout(120_000);
    const prefix = uid('PL').replace('-', '').toUpperCase();
    const manifestId = await container(page, `${prefix}C`, 27, (i) => ({
      ToPostalCode: i < 3 ? '10001' : '90210',
      ToName: i === 5 ? '=HYPERLINK("http://evil.example","x")' : 'Pat',
    }));
    const token = await createToken(page, 'packages list spec');
    const dailyTn = `${prefix}D00`;
    expect((await authed(page.request, token).post(`${apiBase.test}/wf/package`, packageBody(dailyTn))).status()).toBe(200);

    await page.goto('/test/packages');
    await expect(rows(page)).toHaveCount(25);
    // Newest first: the daily package came last.
    await expect(rows(page).first()).toContainText(dailyTn);
    await expect(rows(page).first()).toContainText('Daily packages');
    await expect(rows(page).nth(1)).toContainText('Container');
    await expect(rows(page).first().getByText('Manifested')).toBeVisible();
    await screenshots(page, testInfo, 'packages-list');

    // Page 2 by its cursor; the URL keeps it through a reload; Previous and Back work.
    await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page).toHaveURL(/[?&]cursor=[A-Za-z0-9_-]+/);
    await expect(rows(page)).toHaveCount(3);
    await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
    const second = page.url();
    await page.reload();
    await expect(rows(page)).toHaveCount(3);
    await expect(rows(page).last()).toContainText(`${prefix}C00`);
    await page.getByRole('button', { name: 'Previous' }).click();
    await expect(rows(page)).toHaveCount(25);
    await expect(page).not.toHaveURL(/cursor=/);
    await page.goBack();
    await expect(page).toHaveURL(second);
    await expect(rows(page)).toHaveCount(3);

    // Prefix search, in lower case.
    await page.goto('/test/packages');
    // Typed before the page is interactive, the text is lost when it hydrates: type until the list follows.
    await expect(async () => {
      await page.getByLabel('Tracking number').fill(`${prefix}d`.toLowerCase());
      await page.getByRole('button', { name: 'Apply' }).click();
      await expect(rows(page)).toHaveCount(1, { timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    await expect(rows(page).first()).toContainText(dailyTn);
    // A prefix only: the middle of a number finds nothing.
    await page.getByLabel('Tracking number').fill(prefix.slice(3));
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByText('No packages match these filters')).toBeVisible();

    // Filters, each through the form: service, postal code, date range, manifest, status.
    await page.goto(`/test/packages?tracking_number=${prefix}`);
    await page.getByLabel('Service').selectOption('Carrier Express');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(rows(page)).toHaveCount(1);
    await page.getByLabel('Service').selectOption('');
    await page.getByLabel('To postal code').fill('10001');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(rows(page)).toHaveCount(3);
    await expect(page).toHaveURL(/to_postal_code=10001/);
    await screenshots(page, testInfo, 'packages-filtered');

    // Export of the filtered set: the three packages to 10001, with their status.
    const filteredCsv = await downloadCsv(page, 'Export these packages (CSV)');
    expect(filteredCsv.name).toMatch(/^packages-test-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(filteredCsv.lines[0]).toMatch(
      /^TrackingNumber,carrier_barcode,house_waybill,status,status_updated_at,ManifestID,manifest_type,/,
    );
    expect(filteredCsv.lines.slice(1).every((l) => /^[^,]+,CB\d{13},/.test(l))).toBe(true);
    expect(
      filteredCsv.lines
        .slice(1)
        .map((l) => {
          const [tn, , , status] = l.split(',');
          return `${tn},${status}`;
        })
        .sort(),
    ).toEqual([0, 1, 2].map((i) => `${prefix}C0${i},manifested`));

    await page.getByLabel('To postal code').fill('');
    await page.getByLabel('Manifest date to').fill('2026-11-21');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText(dailyTn);
    await page.getByLabel('Manifest date to').fill('');
    await page.getByLabel('Manifest date from').fill('2026-11-22');
    await page.getByLabel('Manifest ID').fill(manifestId);
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(rows(page)).toHaveCount(25);
    await expect(page.getByRole('button', { name: 'Next' })).toBeEnabled();

    expect((await portalApi(page, 'POST', `/portal-api/packages/${prefix}C07/simulate`, { status: 'delivered' })).status()).toBe(
      200,
    );
    await page.goto(`/test/packages?tracking_number=${prefix}&status=delivered`);
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText(`${prefix}C07`);
    await expect(rows(page).first().getByText('Delivered')).toBeVisible();

    // Export everything of this prefix: 28 rows, the formula cell neutralised.
    await page.goto(`/test/packages?tracking_number=${prefix}`);
    const all = await downloadCsv(page, 'Export these packages (CSV)');
    expect(all.lines).toHaveLength(29);
    expect(all.lines.find((l) => l.startsWith(`${prefix}C05,`))).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(all.lines.find((l) => l.startsWith(`${prefix}C07,`))?.split(',')[3]).toBe('delivered');
    expect(all.lines.find((l) => l.startsWith(`${dailyTn},`))).toContain(',daily,');

    // A hand-edited cursor is refused with a way back.
    await page.goto('/test/packages?cursor=bogus');
    await expect(page.getByRole('alert').filter({ hasText: 'Could not load packages' })).toContainText('cursor');
  });

  test('package detail: timeline, simulate (test only), cancel with confirmation and its 409, another account’s not found', async ({
    freshPage: page,
    browser,
  }, testInfo) => {
    test.setTimeout(120_000);
    const token = await createToken(page, 'packages detail spec');
    const api = authed(page.request, token);
    const [moving, stale, cancelled] = [uid('TLA'), uid('TLB'), uid('TLC')];
    for (const tn of [moving, stale, cancelled])
      expect((await api.post(`${apiBase.test}/wf/package`, packageBody(tn))).status()).toBe(200);

    await page.goto(`/test/packages/${moving}`);
    await expect(page.getByRole('heading', { name: `Package ${moving}` })).toBeVisible();
    await expect(page.getByText('no scans or changes yet')).toBeVisible();
    await page.getByLabel('Target status').selectOption('out_for_delivery');
    await page.getByRole('button', { name: 'Simulate' }).click();
    const events = page.getByRole('list', { name: 'Events' });
    await expect(events.getByRole('listitem')).toHaveCount(3);
    await expect(events.getByRole('listitem').nth(0)).toContainText('Received');
    await expect(events.getByRole('listitem').nth(1)).toContainText('In transit');
    await expect(events.getByRole('listitem').nth(2)).toContainText('Out for delivery');
    await expect(events).toContainText('Simulator');
    // With the carrier: no cancel offered.
    await expect(page.getByRole('button', { name: 'Cancel package' })).toHaveCount(0);
    await page.getByLabel('Target status').selectOption('exception');
    await page.getByLabel('Exception code').fill('DAMAGED');
    await page.getByRole('button', { name: 'Simulate' }).click();
    await expect(events.getByRole('listitem')).toHaveCount(4);
    await expect(events.getByRole('listitem').nth(3)).toContainText('Exception DAMAGED');
    await screenshots(page, testInfo, 'package-timeline');

    // Cancel from a page that is out of date: a scan arrived meanwhile, so 409 not_cancellable, said in the dialog.
    await page.goto(`/test/packages/${stale}`);
    await expect(page.getByRole('button', { name: 'Cancel package' })).toBeVisible();
    expect((await portalApi(page, 'POST', `/portal-api/packages/${stale}/simulate`, { status: 'received' })).status()).toBe(200);
    await page.getByRole('button', { name: 'Cancel package' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel package?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Yes, cancel package' }).click();
    await expect(dialog.getByRole('alert')).toContainText('Not cancellable: it is received');
    await screenshots(page, testInfo, 'package-cancel-409');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('heading', { name: `Package ${stale}` }).locator('..')).toContainText('Received');

    // Cancel confirmed: cancelled, with its event. Dismissing first changes nothing.
    await page.goto(`/test/packages/${cancelled}`);
    await page.getByRole('button', { name: 'Cancel package' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Keep it' }).click();
    await expect(page.getByText('no scans or changes yet')).toBeVisible();
    await page.getByRole('button', { name: 'Cancel package' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, cancel package' }).click();
    await expect(page.getByRole('list', { name: 'Events' })).toContainText('Cancelled by shipper');
    await expect(page.getByRole('button', { name: 'Cancel package' })).toHaveCount(0);

    // Live: no simulator on the page (and the endpoint refuses).
    const liveToken = await createToken(page, 'packages live', 'live');
    const liveTn = uid('TLL');
    expect((await authed(page.request, liveToken).post(`${apiBase.live}/wf/package`, packageBody(liveTn))).status()).toBe(200);
    await page.goto(`/live/packages/${liveTn}`);
    await expect(page.getByRole('heading', { name: `Package ${liveTn}` })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cancel package' })).toBeVisible();
    await expect(page.getByRole('form', { name: 'Simulate' })).toHaveCount(0);
    await expect(page.getByLabel('Target status')).toHaveCount(0);
    expect(
      (await portalApi(page, 'POST', `/portal-api/packages/${liveTn}/simulate`, { status: 'received' }, 'live')).status(),
    ).toBe(404);
    // The test package is not in live.
    await page.goto(`/live/packages/${moving}`);
    await expect(page.getByText('Package not found')).toBeVisible();

    // Another account: not found, and nothing of the package on the page.
    const other = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
    const otherPage = await other.newPage();
    await signUpThroughUi(otherPage, uniqueUser('other'));
    await otherPage.goto(`/test/packages/${moving}`);
    await expect(otherPage.getByText('Package not found')).toBeVisible();
    await expect(otherPage.getByText('Maple Goods')).toHaveCount(0);
    await screenshots(otherPage, testInfo, 'package-not-found');
    await other.close();
  });

  test('manifest detail: status, packages counted by status, simulate and cancel', async ({ freshPage: page }, testInfo) => {
    const moved = await container(page, uid('MS').replace('-', ''), 2);
    await page.goto(`/test/manifests/${moved}`);
    const counts = page.getByRole('list', { name: 'Packages by status' });
    await expect(counts).toContainText('Manifested');
    await expect(counts).toContainText('2');
    await page.getByLabel('Target status').selectOption('departed');
    await page.getByRole('button', { name: 'Simulate' }).click();
    await expect(counts).toContainText('In transit');
    await expect(counts).not.toContainText('Manifested');
    await screenshots(page, testInfo, 'manifest-status');
    // A count links to the Packages page filtered by manifest and status.
    await counts.getByRole('link').first().click();
    await expect(page).toHaveURL(new RegExp(`/test/packages\\?manifest_id=${moved}&status=in_transit`));
    await expect(rows(page)).toHaveCount(2);

    const doomed = await container(page, uid('MX').replace('-', ''), 2);
    await page.goto(`/test/manifests/${doomed}`);
    await page.getByRole('button', { name: 'Cancel container' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, cancel container' }).click();
    await expect(page.getByRole('list', { name: 'Packages by status' })).toContainText('Cancelled');
    await expect(page.getByRole('button', { name: 'Cancel container' })).toHaveCount(0);

    // The dashboard counts the containers' packages too, by status.
    await page.goto('/test/dashboard');
    const byStatus = page.getByRole('list', { name: 'Packages by status' });
    await expect(page.getByTestId('packages-all')).toHaveText('4');
    await expect(byStatus.getByRole('listitem').filter({ hasText: 'In transit' })).toContainText('2');
    await expect(byStatus.getByRole('listitem').filter({ hasText: 'Cancelled' })).toContainText('2');
    await expect(byStatus.getByRole('listitem').filter({ hasText: 'Manifested' })).toContainText('0');
    await screenshots(page, testInfo, 'dashboard-by-status');
  });
});
