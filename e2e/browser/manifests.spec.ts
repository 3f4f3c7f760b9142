import { readFile } from 'node:fs/promises';
import { apiBase, authed, createToken, expect, screenshots, test } from '../fixtures';
import { containerSample } from '../api/support/samples';
import { cell, fillHeader, packagesCsv, uid } from './fixtures/manifests';
import { packageBody } from './fixtures/packages';

// A 1,000-row CSV imported through the column-mapping step, submitted, then found in the list,
// opened, and exported as CSV with formula-looking cells neutralised.

test.describe('manifests', () => {
  test('imports 1,000 rows from a CSV, submits, finds the manifest and exports its packages', async ({
    signedInPage: page,
  }, testInfo) => {
    test.setTimeout(180_000);
    const containerId = uid('CSV');
    const prefix = uid('IMP');
    await page.goto('/test/manifests/new');
    await fillHeader(page, { containerId, containerWeight: '2000' });

    await page.getByLabel('CSV or Excel file').setInputFiles({
      name: 'packages.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(packagesCsv(1000, prefix)),
    });

    // Mapping: headers naming a field (any case, or a synonym with a unit: "Weight (lb)") are mapped; the rest start ignored.
    await expect(page.getByLabel('Field for column trackingnumber')).toHaveValue('TrackingNumber');
    await expect(page.getByLabel('Field for column PACKAGEWEIGHTUNIT')).toHaveValue('PackageWeightUnit');
    await expect(page.getByLabel('Field for column ToName')).toHaveValue('ToName');
    await expect(page.getByLabel('Field for column Weight (lb)')).toHaveValue('PackageWeight');
    await expect(page.getByLabel('Field for column Notes')).toHaveValue('');
    await screenshots(page, testInfo, 'builder-csv-mapping');

    // Record the progress bar while the file streams in (it may be quick, so watch the DOM).
    await page.evaluate(() => {
      const seen: number[] = [];
      (window as unknown as { progressSeen: number[] }).progressSeen = seen;
      new MutationObserver(() => {
        const bar = document.querySelector('[role="progressbar"][aria-label="Import progress"]');
        if (bar) seen.push(Number(bar.getAttribute('aria-valuenow')));
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await page.getByRole('button', { name: 'Import rows' }).click();
    await expect(page.getByText('Imported 1,000 rows.')).toBeVisible();
    const progress = await page.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen);
    expect(progress.length).toBeGreaterThan(0);

    await expect(page.getByTestId('total-packages')).toHaveText('1,000');
    await expect(page.getByRole('grid')).toHaveAttribute('aria-rowcount', '1001');
    await expect(cell(page, 0, 'TrackingNumber')).toHaveText(`${prefix}-00001`);
    await expect(cell(page, 0, 'PackageWeight')).toHaveText('1.1');
    // Virtualised: only the rows in view are in the DOM.
    expect(await page.locator('[role="row"][data-row]').count()).toBeLessThan(60);
    await screenshots(page, testInfo, 'builder-csv-imported');

    await page.getByRole('button', { name: 'Create manifest' }).click();
    const idText = page.getByTestId('manifest-id');
    await expect(idText).toHaveText(/^MAN-/, { timeout: 30_000 });
    const manifestId = (await idText.textContent())!;
    await expect(page.getByText('its 1,000 packages are stored')).toBeVisible();

    // The list: search by ContainerID, by a tracking number, and by ManifestID.
    await page.goto('/test/manifests');
    await expect(page.getByRole('link', { name: manifestId })).toBeVisible();
    await screenshots(page, testInfo, 'manifests-list');
    for (const term of [containerId, `${prefix}-00500`, manifestId.toLowerCase()]) {
      await page.getByLabel('Search').fill(term);
      await page.getByRole('button', { name: 'Apply' }).click();
      await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(term)}`));
      const rows = page.getByRole('region', { name: 'Manifests' }).locator('tbody tr');
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toContainText(manifestId);
      await expect(rows.first()).toContainText('1,000');
    }
    // A date range and service that exclude it.
    await page.getByLabel('Search').fill('');
    await page.getByLabel('From', { exact: true }).fill('2001-01-01');
    await page.getByLabel('To', { exact: true }).fill('2001-01-31');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByText('No manifests match these filters')).toBeVisible();
    await screenshots(page, testInfo, 'manifests-list-empty-filter');
    // A To before the From is explained on the To field, focused, and not applied (it once showed an empty list).
    const applied = page.url();
    await page.getByLabel('To', { exact: true }).fill('2000-12-31');
    await expect(page.getByText('must be on or after the From date (2001-01-01)')).toBeVisible();
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByLabel('To', { exact: true })).toBeFocused();
    await expect(page.getByLabel('To', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    expect(page.url()).toBe(applied);
    await screenshots(page, testInfo, 'manifests-list-reversed-range');
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await page.getByLabel('Service').selectOption('AirSkip');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByRole('link', { name: manifestId })).toBeVisible();

    // The detail page: header fields, paginated packages.
    await page.getByRole('link', { name: manifestId }).click();
    await expect(page.getByRole('heading', { name: `Container ${containerId}` })).toBeVisible();
    await expect(page.getByText('E2E Shipper Inc')).toBeVisible();
    await expect(page.getByText(`1–100 of 1,000`)).toBeVisible();
    await page.getByRole('navigation', { name: 'Package pages' }).getByRole('button', { name: 'Next' }).click();
    await expect(page.getByText(`101–200 of 1,000`)).toBeVisible();
    await expect(page.getByText(`${prefix}-00101`)).toBeVisible();
    await screenshots(page, testInfo, 'manifest-detail');

    // Export: a download of text/csv, every row, formula-looking cells prefixed with a quote.
    const downloadPromise = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export packages (CSV)' }).click();
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toBe(`${manifestId}-packages.csv`);
    const csv = await readFile(await download.path(), 'utf8');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines).toHaveLength(1001);
    expect(lines[0]).toBe(
      'TrackingNumber,PackageWeight,PackageWeightUnit,PackageSizeLength,PackageSizeWidth,PackageSizeHeight,ToName,ToPhone,ToEmail,ToAddress1,ToAddress2,ToCity,ToState,ToPostalCode,ToCountry,house_waybill,charge_status,charge_amount,charge_currency',
    );
    // Then the house waybill, issued by the carrier (H, 11 digits) when the package declared none, and the charge.
    expect(lines[1]).toMatch(
      new RegExp(
        `^${prefix}-00001,1\\.1,lb,,,,"'=HYPERLINK\\(""http://evil\\.example"",""click""\\)",,,,,Newark,,07114,,H\\d{11},(priced|unpriced),[0-9.]*,[A-Z]*$`,
      ),
    );
    expect(lines[2]).toContain(`"'+SUM(1,2)"`);
    expect(lines[3]).toContain(`,'@cmd,`);
    expect(lines[1000]).toContain(`${prefix}-01000`);
    const response = await page.request.get(`/portal-api/manifests/${manifestId}/export?environment=test`);
    expect(response.headers()['content-type']).toBe('text/csv; charset=utf-8');
  });

  test("the list pages by the API's cursor kept in the URL, and a daily manifest is found by its packages' service", async ({
    freshPage: page,
    request,
  }, testInfo) => {
    test.setTimeout(120_000);
    const api = authed(request, await createToken(page, 'manifest pages'));
    // 26 containers and one daily manifest (a Carrier Ground package): two pages of 25 and one of 2, newest first.
    const prefix = uid('PG');
    const containers: string[] = [];
    for (let i = 0; i < 26; i++) {
      const created = await api.post(`${apiBase.test}/wf/manifest`, containerSample(`${prefix}-${String(i).padStart(2, '0')}`));
      expect(created.status()).toBe(200);
      containers.unshift(((await created.json()) as { ManifestID: string }).ManifestID);
    }
    const sent = await api.post(`${apiBase.test}/wf/package`, packageBody(uid('PGD'), { ServiceName: 'Carrier Ground' }));
    expect(sent.status(), await sent.text()).toBe(200);
    const daily = ((await sent.json()) as { ManifestID: string }).ManifestID;

    await page.goto('/test/manifests');
    const rows = page.getByRole('region', { name: 'Manifests' }).locator('tbody tr');
    await expect(rows).toHaveCount(25);
    await expect(rows.first()).toContainText(daily);
    await expect(rows.first()).toContainText('Carrier Ground');
    await expect(page.getByText('25 manifests on this page · newest first')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page).toHaveURL(/[?&]cursor=[A-Za-z0-9_-]+/);
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText(containers[24]);
    await expect(rows.nth(1)).toContainText(containers[25]);
    await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
    // The page survives a reload (its cursor is in the URL); Previous goes back to the first page.
    await page.reload();
    await expect(rows).toHaveCount(2);
    await screenshots(page, testInfo, 'manifests-list-page-2');
    await page.getByRole('button', { name: 'Previous' }).click();
    await expect(page).not.toHaveURL(/cursor=/);
    await expect(rows).toHaveCount(25);
    await expect(rows.first()).toContainText(daily);

    // The service filter offers the services the account's manifests have, the daily manifest's too.
    await page.getByLabel('Service').selectOption('Carrier Ground');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/service=Carrier\+Ground/);
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(daily);
    await page.getByLabel('Type').selectOption('container');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByText('No manifests match these filters')).toBeVisible();
  });

  test('an unknown manifest shows a not-found state; the list has an empty state for a new user', async ({
    freshPage: page,
  }, testInfo) => {
    await page.goto('/test/manifests');
    await expect(page.getByText('No manifests yet')).toBeVisible();
    await screenshots(page, testInfo, 'manifests-empty');
    await page.goto('/test/manifests/MAN-00000000000000000');
    await expect(page.getByText('Manifest not found')).toBeVisible();
    const response = await page.request.get('/portal-api/manifests/MAN-00000000000000000/export?environment=test');
    expect(response.status()).toBe(404);
    expect((await response.json()).error.code).toBe('not_found');
    // Without saying which environment, the portal API answers 400, not some environment's data.
    const unsaid = await page.request.get('/portal-api/manifests/MAN-00000000000000000/export');
    expect(unsaid.status()).toBe(400);
    expect((await unsaid.json()).error.code).toBe('environment_required');
  });
});
