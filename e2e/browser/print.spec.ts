import type { Page, Response } from '@playwright/test';
import { apiBase, authed, expect, portalApi, test } from '../fixtures';
import { uid } from './fixtures/manifests';
import { packageBody } from './fixtures/packages';

// The portal's print buttons (Portal): on a manifest's page Print manifest, Print tags (containers
// only) and Print labels, on a package's page Print label; each opens its PDF in a new tab, from the portal's
// session-authenticated routes in the page's environment.

async function containerManifest(page: Page, trackingNumbers: string[]): Promise<string> {
  const created = await portalApi(
    page,
    'POST',
    '/portal-api/manifests',
    {
      ManifestDate: '2026-11-23T08:00:00Z',
      ServiceName: 'AirSkip',
      FromCompany: 'E2E Shipper Inc',
      ContainerID: uid('PRINT-ULD'),
      ContainerLength: 10,
      ContainerWidth: 10,
      ContainerHeight: 10,
      ShipmentDescription: 'Parcels',
      ContainerDetails: trackingNumbers.map((TrackingNumber) => ({
        TrackingNumber,
        PackageWeight: 3,
        PackageWeightUnit: 'lb',
        ToPostalCode: '90210',
      })),
    },
    'test',
  );
  expect(created.status(), await created.text()).toBe(200);
  return ((await created.json()) as { ManifestID: string }).ManifestID;
}

/**
 * Clicks a print link and returns the document's answer in the tab it opened. The answer is read again
 * through the page's own cookies for its bytes: a PDF shown in (or downloaded by) the browser's viewer
 * keeps no body for Playwright.
 */
async function print(page: Page, name: string, path: RegExp) {
  const link = page.getByRole('link', { name });
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener');
  const [tab, response] = await Promise.all([
    page.context().waitForEvent('page'),
    page.context().waitForEvent('response', (r: Response) => path.test(new URL(r.url()).pathname)),
    link.click(),
  ]);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/pdf');
  const url = new URL(response.url());
  expect(url.searchParams.get('environment')).toBe('test');
  const again = await page.request.get(url.pathname + url.search);
  expect(again.status()).toBe(200);
  expect((await again.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await tab.close();
  return response;
}

test('a container manifest prints its manifest, tags and labels; a package its label', async ({
  signedInPage: page,
  request,
  apiToken,
}) => {
  // Five documents, each opened in a tab and read again; the first also loads the fonts. A loaded machine needs more than a minute.
  test.setTimeout(150_000);
  const tns = [`PR${Date.now().toString(36).toUpperCase()}A`, `PR${Date.now().toString(36).toUpperCase()}B`];
  const manifestId = await containerManifest(page, tns);
  await page.goto(`/test/manifests/${manifestId}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Container');

  const document = await print(page, 'Print manifest', new RegExp(`^/portal-api/manifests/${manifestId}/document$`));
  expect(document.headers()['content-disposition']).toBe(`inline; filename="handover-${manifestId}.pdf"`);
  await print(page, 'Print tags', new RegExp(`^/portal-api/manifests/${manifestId}/tags$`));
  const labels = await print(page, 'Print labels', new RegExp(`^/portal-api/manifests/${manifestId}/labels$`));
  expect(labels.headers()['content-disposition']).toBe(`inline; filename="labels-${manifestId}.pdf"`);

  await page.goto(`/test/packages/${tns[0]}`);
  const label = await print(page, 'Print label', new RegExp(`^/portal-api/packages/${tns[0]}/label$`));
  expect(label.headers()['content-disposition']).toBe(`inline; filename="label-${tns[0]}.pdf"`);

  // A daily manifest has no container, so no tag to print.
  const daily = `PR${Date.now().toString(36).toUpperCase()}D`;
  const sent = await authed(request, apiToken).post(`${apiBase.test}/wf/package`, packageBody(daily));
  expect(sent.status(), await sent.text()).toBe(200);
  const dailyId = ((await sent.json()) as { ManifestID: string }).ManifestID;
  await page.goto(`/test/manifests/${dailyId}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Daily manifest');
  await expect(page.getByRole('link', { name: 'Print labels' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Print tags' })).toHaveCount(0);
  await print(page, 'Print manifest', new RegExp(`^/portal-api/manifests/${dailyId}/document$`));
});
