import { containerSample } from '../api/support/samples';
import { apiBase, authed, createToken, expect, test } from '../fixtures';
import { uid } from './fixtures/manifests';
import { lookAt } from '../axe';

// The Packages filter "not ready for <regime>", reached from the manifest page's readiness ("N packages not ready
// for …"), and chosen on the Packages page itself. Scanned by axe and photographed at 1440 and 390 px wide.

const ITEM = { Description: 'Cotton T-shirt', Quantity: 2, Value: '25.00', HSCode: '6109100010', OriginCountry: 'PT' };

test('"not ready for <regime>": from the manifest page to the filtered Packages list, and chosen there', async ({
  freshPage: page,
  request,
}, testInfo) => {
  test.setTimeout(180_000);
  const api = authed(request, await createToken(page, 'not-ready'));
  const id = uid('NRF');
  const house = (n: number, name: string) => ({
    TrackingNumber: `${id}-${n}`,
    PackageWeight: 1.2,
    PackageWeightUnit: 'kg',
    ToName: name,
    ToAddress1: 'Zeil 1',
    ToCity: 'Frankfurt',
    ToPostalCode: '60313',
    ToCountry: 'DE',
    Customs: { Currency: 'EUR', Items: [ITEM] },
  });
  const body = {
    ...containerSample(id, []),
    FlightNumber: 'AC876',
    FlightDate: '2026-12-01',
    OriginAirport: 'YYZ',
    DestinationAirport: 'FRA',
    // Houses 2 and 3 lack the consignee's name: not ready for ICS2 pre-loading.
    ContainerDetails: [house(1, 'Lena Weber'), house(2, ''), house(3, ''), house(4, 'Jan Roth')],
  };
  const created = await api.post(`${apiBase.test}/wf/manifest`, body);
  expect(created.status(), await created.text()).toBe(200);
  const manifestId = ((await created.json()) as { ManifestID: string }).ManifestID;

  await page.goto(`/test/manifests/${manifestId}`);
  const customs = page.getByRole('region', { name: 'Customs' });
  const link = customs.getByRole('link', { name: '2 packages not ready for EU ICS2 PLACI' });
  await expect(link).toBeVisible();
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/test/packages\\?.*customs_not_ready=eu_ics2_placi`));
  const table = page.getByRole('region', { name: 'Packages' });
  await expect(table.getByRole('link', { name: `${id}-2` })).toBeVisible();
  await expect(table.getByRole('link', { name: `${id}-3` })).toBeVisible();
  await expect(table.getByRole('link', { name: `${id}-1` })).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: '2 packages match these filters' })).toBeVisible();
  await expect(page.getByLabel('Customs', { exact: true })).toHaveValue('eu_ics2_placi');
  await lookAt(page, testInfo, 'packages-not-ready');

  // Chosen on the page: across the account without a manifest (each house judged on its own container), and
  // narrowed to one manifest with its ID.
  await page.goto('/test/packages');
  await page.getByLabel('Customs', { exact: true }).selectOption('eu_ics2_ens');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/customs_not_ready=eu_ics2_ens/);
  await expect(page.getByRole('region', { name: 'Packages' }).getByRole('link', { name: `${id}-3` })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Packages' }).getByRole('link', { name: `${id}-1` })).toHaveCount(0);
  await lookAt(page, testInfo, 'packages-not-ready-account-wide');
  await page.getByLabel('Manifest ID').fill(manifestId);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/customs_not_ready=eu_ics2_ens/);
  await expect(page.getByRole('region', { name: 'Packages' }).getByRole('link', { name: `${id}-2` })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Packages' }).getByRole('link', { name: `${id}-4` })).toHaveCount(0);
});
