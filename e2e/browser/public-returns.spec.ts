import { packageSample } from '../api/support/samples';
import { lookAt } from '../axe';
import { apiBase, authed, createToken, expect, portalUrl, test } from '../fixtures';
import { opsToken } from './fixtures/ops';

// Returns from the public tracking page and the test page, in the browser (docs/decisions/returns.md "From the public
// tracking page", docs/decisions/public-tracking.md "Test packages"): the shipper allows returns in Settings; a
// signed-out recipient opens the delivered package's page, types a wrong postal code, then the right one, and downloads
// the label; a test package's link opens the test page. Each page checked by axe and photographed at 1440 and 390.

test('a recipient starts a return on the public page; a test package has a page that says so', async ({
  signedInPage: page,
  request,
  browser,
}, testInfo) => {
  test.setTimeout(240_000);
  const suffix = Date.now().toString(36).toUpperCase();
  const number = `RET${suffix}`;

  await page.goto(portalUrl('live', '/settings'));
  const form = page.getByRole('form', { name: 'Returns from the tracking page' });
  await form.getByRole('checkbox', { name: /Let recipients start a return/ }).check();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('Saved: the tracking page offers a return once a package is out for delivery.')).toBeVisible();
  await lookAt(page, testInfo, 'settings-returns');

  const live = authed(request, await createToken(page, `returns ${suffix}`, 'live'));
  const body = packageSample(number);
  Object.assign(body.package, { FromCompany: 'Maple Goods' });
  expect((await live.post(`${apiBase.live}/wf/package`, body)).status()).toBe(200);
  const ops = await opsToken('browser public returns');
  for (const [event, location] of [
    ['received', 'JFK'],
    ['in_transit', 'ORD'],
    ['out_for_delivery', '90210'],
    ['delivered', '90210'],
  ] as const) {
    const scanned = await request.post(`${apiBase.live}/ops/scans`, {
      headers: { authorization: `Token ${ops}` },
      data: {
        scans: [
          { scan_id: `r-${suffix}-${event}`, tracking_number: number, event, location, occurred_at: new Date().toISOString() },
        ],
      },
    });
    expect(scanned.status(), await scanned.text()).toBe(200);
  }
  const read = await live.get(`${apiBase.live}/packages/${number}`);
  const barcode = ((await read.json()) as { carrier_barcode: string }).carrier_barcode;

  // Signed out, as the recipient.
  const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL, acceptDownloads: true });
  const recipient = await context.newPage();
  await recipient.goto(`/track/${barcode}`);
  const offer = recipient.getByRole('form', { name: 'Return this parcel' });
  await expect(offer).toBeVisible();
  await expect(recipient.locator('body')).not.toContainText('9 Palm Dr');
  await lookAt(recipient, testInfo, 'return-offer');

  await offer.getByLabel('Postal code on the label').fill('10001');
  await offer.getByRole('button', { name: 'Get a return label' }).click();
  await expect(recipient.getByText('That postal code does not match this parcel.')).toBeVisible();
  await expect(recipient.getByLabel('Postal code on the label')).toHaveAttribute('aria-invalid', 'true');
  await lookAt(recipient, testInfo, 'return-wrong-postal-code');

  await recipient.getByLabel('Postal code on the label').fill('90210');
  await recipient.getByRole('button', { name: 'Get a return label' }).click();
  await expect(recipient.getByRole('heading', { name: 'Your return is ready' })).toBeVisible();
  await expect(recipient.getByText(`RTN-${barcode}-1`)).toBeVisible();
  await expect(recipient.locator('body')).not.toContainText('9 Palm Dr');
  await lookAt(recipient, testInfo, 'return-made');
  const download = recipient.waitForEvent('download');
  await recipient.getByRole('link', { name: 'Download the return label (PDF)' }).click();
  expect((await download).suggestedFilename()).toBe(`RTN-${barcode}-1-label.pdf`);

  // Another browser, holding only the number: the offer, never the return or its label.
  const stranger = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  const other = await stranger.newPage();
  await other.goto(`/track/${barcode}?return=made`);
  await expect(other.getByRole('form', { name: 'Return this parcel' })).toBeVisible();
  await expect(other.locator('body')).not.toContainText(`RTN-${barcode}`);
  await stranger.close();

  // A test package's link: the test page, which says first that it is not a real shipment.
  const testApi = authed(request, await createToken(page, `returns test ${suffix}`, 'test'));
  const testNumber = `TST${suffix}`;
  expect((await testApi.post(`${apiBase.test}/wf/package`, packageSample(testNumber))).status()).toBe(200);
  const testRead = (await (await testApi.get(`${apiBase.test}/packages/${testNumber}`)).json()) as { tracking_url: string };
  await recipient.goto(new URL(testRead.tracking_url).pathname);
  await expect(recipient.getByText('Test package: this is not a real shipment')).toBeVisible();
  await lookAt(recipient, testInfo, 'track-test-package');
  await context.close();
});
