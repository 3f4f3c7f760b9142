import { apiBase, authed, createToken, expect, portalApi, screenshots, signUpThroughUi, test, uniqueUser } from '../fixtures';
import { uid } from './fixtures/manifests';

// Finding a package by tracking number, in a container manifest and in a daily package manifest.

function packageBody(trackingNumber: string) {
  return {
    package: {
      TrackingNumber: trackingNumber,
      FinalMileCarrier: 'Carrier',
      ManifestDate: '2026-11-23T08:00:00Z',
      ServiceName: 'Carrier Express',
      FromCompany: 'Maple Goods',
      FromAddress1: '100 King St W',
      FromCity: 'Toronto',
      FromState: 'ON',
      FromPostalCode: 'M5X 1A9',
      FromCountry: 'CA',
      ToName: 'Jane Doe',
      ToPostalCode: '90210',
      ShipmentDescription: 'Books',
      PackageSizeLength: 10,
      PackageSizeWidth: 8,
      PackageSizeHeight: 4,
      PackageWeight: 1.2,
      WeightUnit: 'kg',
    },
  };
}

test.describe('find a package', () => {
  test('finds container and daily-manifest packages by tracking number, and only this account’s', async ({
    freshPage: page,
    browser,
  }, testInfo) => {
    const containerTn = uid('PKC');
    const dailyTn = uid('PKD');
    await page.goto('/test/packages');
    await expect(page.getByText('Enter a tracking number')).toBeVisible();
    await screenshots(page, testInfo, 'packages-empty');

    // One package in a container manifest (through the portal endpoint the builder uses) and one
    // through the public API's package operation.
    const created = await portalApi(page, 'POST', '/portal-api/manifests', {
      ServiceName: 'AirSkip',
      FromCompany: 'E2E Shipper Inc',
      ContainerID: uid('PKG-CONT'),
      ContainerLength: 10,
      ContainerWidth: 10,
      ContainerHeight: 10,
      ShipmentDescription: 'Parcels',
      ContainerDetails: [{ TrackingNumber: containerTn, PackageWeight: 3, PackageWeightUnit: 'lb', ToCity: 'Newark' }],
    });
    expect(created.status()).toBe(200);
    const { ManifestID: containerManifest } = (await created.json()) as { ManifestID: string };
    const token = await createToken(page, 'packages spec');
    const accepted = await authed(page.request, token).post(`${apiBase.test}/wf/package`, packageBody(dailyTn));
    expect(accepted.status()).toBe(200);

    await page.goto('/test/packages');
    await page.getByLabel('Tracking number').fill(containerTn);
    await page.getByRole('button', { name: 'Find package' }).click();
    const result = page.getByRole('region', { name: `Package ${containerTn}` });
    await expect(result).toContainText('Container');
    await expect(result).toContainText('Newark');
    await expect(result.getByRole('link', { name: containerManifest })).toBeVisible();
    await screenshots(page, testInfo, 'packages-found-container');

    await page.getByLabel('Tracking number').fill(dailyTn);
    await page.getByRole('button', { name: 'Find package' }).click();
    const daily = page.getByRole('region', { name: `Package ${dailyTn}` });
    await expect(daily).toContainText('Daily packages');
    await expect(daily).toContainText('2026-11-23');
    await expect(daily).toContainText('Carrier Express');
    await screenshots(page, testInfo, 'packages-found-daily');
    // The daily manifest opens from the link and is in the manifests list with its type.
    await daily.getByRole('link', { name: /^MAN-/ }).click();
    await expect(page.getByRole('heading', { name: 'Daily manifest 2026-11-23' })).toBeVisible();
    await expect(page.getByText(dailyTn)).toBeVisible();
    await screenshots(page, testInfo, 'manifest-detail-daily');

    await page.goto('/test/packages?tracking=NOPE-123');
    await expect(page.getByText('No package NOPE-123')).toBeVisible();
    await screenshots(page, testInfo, 'packages-not-found');

    // Another account sees nothing of these packages.
    const other = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
    const otherPage = await other.newPage();
    await signUpThroughUi(otherPage, uniqueUser('other'));
    const response = await portalApi(otherPage, 'GET', `/portal-api/packages?tracking=${containerTn}`);
    expect(await response.json()).toEqual({ items: [] });
    expect((await portalApi(otherPage, 'GET', `/portal-api/manifests/${containerManifest}`)).status()).toBe(404);
    await other.close();
  });
});
