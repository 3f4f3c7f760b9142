import { apiBase, authed, createToken, expect, portalUrl, test } from '../fixtures';
import { packageBody } from './fixtures/packages';
import { lookAt } from '../axe';

// The Pickups page: a shipper schedules the collection of a manifest by hand (the manifest page's id, an address, a
// window in the browser's time zone), reads a refusal on the field it names, sees the pickup in the list and cancels
// it with a confirmation. Screenshots at 1440 and 390 px; axe at both.

test('schedules a manifest pickup, names a refused field, lists it and cancels it after a confirmation', async ({
  signedInPage: page,
}, testInfo) => {
  test.setTimeout(120_000);
  const token = await createToken(page, `pickups ${Date.now()}`);
  const tracking = `PUB${Date.now()}`;
  const accepted = await authed(page.request, token).post(`${apiBase.test}/wf/package`, packageBody(tracking));
  expect(accepted.status()).toBe(200);
  const manifestId = ((await accepted.json()) as { ManifestID: string }).ManifestID;

  await page.goto(portalUrl('test', `/pickups?manifest=${manifestId}`));
  await expect(page.getByRole('heading', { name: 'Pickups', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Manifest ID')).toHaveValue(manifestId);
  await page.getByLabel('Company').fill('Maple Goods');
  await page.getByLabel('Address').fill('1 Industrial Way');
  await page.getByLabel('City').fill('Newark');
  await page.getByLabel('State or province').fill('NJ');
  await page.getByLabel('Postal code').fill('07114');

  // A window that closes an hour after it opens: refused, on the field.
  const readyValue = await page.getByLabel('Ready from').inputValue();
  const oneHourLater = new Date(new Date(readyValue).getTime() + 3_600_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  await page
    .getByLabel('Closes at')
    .fill(
      `${oneHourLater.getFullYear()}-${pad(oneHourLater.getMonth() + 1)}-${pad(oneHourLater.getDate())}T${pad(oneHourLater.getHours())}:00`,
    );
  await page.getByRole('button', { name: 'Schedule pickup' }).click();
  await expect(page.getByText('must be at least 120 minutes after ready_at')).toBeVisible();
  await expect(page.getByLabel('Closes at')).toHaveAttribute('aria-invalid', 'true');

  const later = new Date(new Date(readyValue).getTime() + 4 * 3_600_000);
  await page
    .getByLabel('Closes at')
    .fill(`${later.getFullYear()}-${pad(later.getMonth() + 1)}-${pad(later.getDate())}T${pad(later.getHours())}:00`);
  await page.getByRole('button', { name: 'Schedule pickup' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'scheduled:' })).toContainText('1 package,');
  // Focus lands on the result, as after every action of the portal.
  await expect(page.locator(':focus')).toContainText('scheduled: 1 package');
  const row = page.getByRole('row').filter({ hasText: manifestId });
  await expect(row).toContainText('scheduled');
  await expect(row).toContainText('Newark, NJ');

  await lookAt(page, testInfo, 'pickups');

  await row.getByRole('button', { name: 'Cancel' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel this pickup?' });
  await expect(dialog).toContainText('No driver will come for 1 package between');
  await dialog.getByRole('button', { name: 'Keep it' }).click();
  await expect(row).toContainText('scheduled');
  await row.getByRole('button', { name: 'Cancel' }).click();
  await dialog.getByRole('button', { name: 'Cancel pickup' }).click();
  await expect(row).toContainText('cancelled');
  await expect(row.getByRole('button', { name: 'Cancel' })).toHaveCount(0);
});
