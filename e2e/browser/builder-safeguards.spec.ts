import { expect, screenshots, test } from '../fixtures';
import { fillHeader, uid } from './fixtures/manifests';
import { axeFindings } from '../axe';

// The manifest builder's safeguards: an import that leaves tracking number, weight or postal code unmapped says so
// and shows its first rows as they will be created; rows without a tracking number are marked and need a yes before
// they are sent; and a submit while the browser is offline says so at once, keeps the draft and is never sent later
// behind the user's back.

test('an import warns of unmapped key columns, previews its rows, and rows without a tracking number need a yes', async ({
  freshPage: page,
}, testInfo) => {
  await page.goto('/test/manifests/new');
  const tn = uid('IMP');
  // No tracking number column: only "Ref", which is not one; the second row's weight is written with a decimal comma.
  const csv = [
    'Ref;Weight (kg);Recipient;Zip',
    `${tn}-1;1,5;Ana Silva;07114`,
    `${tn}-2;0,25;Ben Olsen;10001`,
    ';2;Cy Doe;94105',
  ].join('\r\n');
  await page
    .getByLabel('CSV or Excel file')
    .setInputFiles({ name: 'orders.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByLabel('Field for column Ref')).toHaveValue('');
  const warning = page.getByRole('status').filter({ hasText: 'Not mapped' });
  await expect(warning).toContainText('Not mapped: tracking number.');
  const preview = page.getByRole('region', { name: 'Import preview' });
  await expect(preview.getByRole('table')).toContainText('The first 3 rows as they will be created');
  await expect(preview.getByRole('row').nth(1)).toContainText('1.5');
  await expect(preview.getByRole('row').nth(1)).toContainText('kg');
  await expect(preview.getByRole('row').nth(1)).toContainText('07114');
  await expect(preview.getByRole('row').nth(1)).toContainText('(none)');
  expect(await axeFindings(page, 'builder-safeguards 1', [page.viewportSize()!.width])).toEqual([]);
  await screenshots(page, testInfo, 'import-unmapped-preview');

  // Mapping Ref to the tracking number: the warning goes, the preview follows.
  await page.getByLabel('Field for column Ref').selectOption('TrackingNumber');
  await expect(warning).toHaveCount(0);
  await expect(preview.getByRole('row').nth(1)).toContainText(`${tn}-1`);
  await page.getByRole('button', { name: 'Import rows' }).click();
  await expect(page.getByText('Imported 3 rows')).toBeVisible();

  // The third row has no tracking number: marked in the grid, and the submit asks first.
  await expect(page.locator('[role="row"][data-row="2"] [data-untracked]')).toBeVisible();
  await expect(page.locator('[role="row"][data-row="0"] [data-untracked]')).toHaveCount(0);
  await fillHeader(page, { containerId: uid('SAFE') });
  let posted = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/portal-api/manifests') posted += 1;
  });
  await page.getByRole('button', { name: 'Create manifest' }).click();
  const dialog = page.getByRole('dialog', { name: '1 row has no tracking number' });
  await expect(dialog).toContainText('only a carrier barcode');
  expect(await axeFindings(page, 'builder-safeguards 2', [page.viewportSize()!.width])).toEqual([]);
  await screenshots(page, testInfo, 'builder-untracked-confirm');
  await dialog.getByRole('button', { name: 'Go back' }).click();
  await expect(dialog).toBeHidden();
  expect(posted).toBe(0);
  await page.getByRole('button', { name: 'Create manifest' }).click();
  await dialog.getByRole('button', { name: 'Create them anyway' }).click();
  await expect(page.getByTestId('manifest-id')).toHaveText(/^MAN-/);
  expect(posted).toBe(1);
});

test('offline: the submit says so at once, keeps the draft, and is not sent when the connection returns', async ({
  freshPage: page,
}, testInfo) => {
  await page.goto('/test/manifests/new');
  const containerId = uid('OFF');
  await fillHeader(page, { containerId });
  const tn = uid('OFFTN');
  await page.getByLabel('CSV or Excel file').setInputFiles({
    name: 'one.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`TrackingNumber,PackageWeight,ToPostalCode\r\n${tn},2,10001\r\n`),
  });
  await page.getByRole('button', { name: 'Import rows' }).click();
  await expect(page.getByText('Imported 1 rows')).toBeVisible();

  let posted = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/portal-api/manifests') posted += 1;
  });
  await page.context().setOffline(true);
  const started = Date.now();
  await page.getByRole('button', { name: 'Create manifest' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'You are offline' })).toBeVisible({ timeout: 2_000 });
  expect(Date.now() - started).toBeLessThan(2_000);
  await expect(page.getByRole('button', { name: 'Create manifest' })).toBeEnabled();
  await screenshots(page, testInfo, 'builder-offline');

  // Back online, nothing goes out by itself; the draft survives a reload.
  await page.context().setOffline(false);
  await page.waitForTimeout(1_500);
  expect(posted).toBe(0);
  await page.reload();
  await expect(page.getByLabel(/^Container ID/)).toHaveValue(containerId);
  // Then sent on purpose, once, with its answer on the page.
  await page.getByRole('button', { name: 'Create manifest' }).click();
  await expect(page.getByTestId('manifest-id')).toHaveText(/^MAN-/);
  expect(posted).toBe(1);
});
