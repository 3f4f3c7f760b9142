import { SAMPLE_PNG } from '../../lib/branding/logo-samples';
import { packageSample } from '../api/support/samples';
import { apiBase, authed, createToken, expect, portalApi, portalUrl, screenshots, test } from '../fixtures';
import { fillHeader, uid } from './fixtures/manifests';
import { packageBody } from './fixtures/packages';
import { axeFindings } from '../axe';

// Three portal pieces of the recipient services: the builder shows a created manifest's address warnings by row; a
// manifest's page schedules its pickup through the Pickups form, prefilled with the manifest's sender; Settings
// uploads a logo and an accent colour that the live package's public page shows. Screenshots at 1440 and 390; axe.

test('the builder shows a created manifest’s address warnings, each by its row and field', async ({
  signedInPage: page,
}, testInfo) => {
  await page.goto('/test/manifests/new');
  await fillHeader(page, { containerId: uid('ADDR') });
  const [good, bad] = [uid('AOK'), uid('ABAD')];
  await page.getByLabel('CSV or Excel file').setInputFiles({
    name: 'addresses.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      `TrackingNumber,PackageWeight,ToCity,ToState,ToPostalCode\r\n${good},2,Beverly Hills,CA,90210\r\n${bad},2,Toronto,ON,90210\r\n`,
    ),
  });
  await page.getByRole('button', { name: 'Import rows' }).click();
  await expect(page.getByText('Imported 2 rows')).toBeVisible();
  await page.getByRole('button', { name: 'Create manifest' }).click();
  await expect(page.getByTestId('manifest-id')).toHaveText(/^MAN-/);
  const warnings = page.getByTestId('manifest-warnings');
  await expect(warnings).toContainText('Accepted with 2 warnings');
  await expect(warnings).toContainText(`Row 2, ToState: is "ON", but ZIP 90210 is in CA (package ${bad})`);
  await expect(warnings).toContainText(`Row 2, ToCity: is "Toronto", but ZIP 90210 is Beverly Hills, CA (package ${bad})`);
  await expect(warnings).not.toContainText(good);
  expect(await axeFindings(page, 'builder-address-warnings')).toEqual([]);
  await screenshots(page, testInfo, 'builder-address-warnings');
});

test('“Schedule a pickup” on a manifest’s page opens the pickup form for it, its sender’s address filled in', async ({
  signedInPage: page,
}, testInfo) => {
  test.setTimeout(120_000);
  const token = await createToken(page, `pickup action ${Date.now()}`);
  const number = `PA${Date.now()}`;
  const accepted = await authed(page.request, token).post(
    `${apiBase.test}/wf/package`,
    packageBody(number, {
      ManifestDate: '2026-12-05T08:00:00Z',
      FromAddress1: '1 Industrial Way',
      FromCity: 'Newark',
      FromState: 'NJ',
      FromPostalCode: '07114',
      FromCountry: 'US',
    }),
  );
  expect(accepted.status()).toBe(200);
  const manifestId = ((await accepted.json()) as { ManifestID: string }).ManifestID;
  await page.goto(portalUrl('test', `/manifests/${manifestId}`));
  await page.getByRole('link', { name: 'Schedule a pickup' }).click();
  await expect(page).toHaveURL(new RegExp(`/test/pickups\\?manifest=${manifestId}$`));
  await expect(page.getByLabel('Manifest ID')).toHaveValue(manifestId);
  await expect(page.getByTestId('pickup-prefilled')).toBeVisible();
  await expect(page.getByLabel('Company')).toHaveValue('Maple Goods');
  await expect(page.getByLabel('Address')).toHaveValue('1 Industrial Way');
  await expect(page.getByLabel('City')).toHaveValue('Newark');
  await expect(page.getByLabel('State or province')).toHaveValue('NJ');
  await expect(page.getByLabel('Postal code')).toHaveValue('07114');
  await expect(page.getByLabel('Country')).toHaveValue('US');
  expect(await axeFindings(page, 'manifest-pickup')).toEqual([]);
  await screenshots(page, testInfo, 'pickup-from-manifest');
  await page.getByRole('button', { name: 'Schedule pickup' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'scheduled:' })).toContainText('1 package,');
  await expect(page.getByRole('row').filter({ hasText: manifestId })).toContainText('scheduled');
});

test('Settings: a logo and an accent colour, refused when they are not images, shown on the live package’s public page', async ({
  signedInPage: page,
  request,
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  await page.goto(portalUrl('live', '/settings'));
  const form = page.getByRole('form', { name: 'Tracking page branding' });
  await expect(form.getByText('No logo.')).toBeVisible();
  // An SVG named like a PNG: refused by its bytes, the reason on the page.
  await form.getByLabel('Logo file').setInputFiles({
    name: 'logo.png',
    mimeType: 'image/png',
    buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
  });
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByRole('alert').first()).toContainText('is an SVG; only PNG and JPEG are taken');
  await form
    .getByLabel('Logo file')
    .setInputFiles({ name: 'maple.png', mimeType: 'image/png', buffer: Buffer.from(SAMPLE_PNG, 'base64') });
  await form.getByRole('checkbox', { name: 'Use an accent colour' }).check();
  await form.getByRole('textbox', { name: 'Accent colour', exact: true }).fill('#B91C1C');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('Saved: logo maple.png, accent #b91c1c.')).toBeVisible();
  await expect(form.getByTestId('branding-logo')).toBeVisible();
  expect(await axeFindings(page, 'settings-branding')).toEqual([]);
  await screenshots(page, testInfo, 'settings-branding');

  const live = authed(request, await createToken(page, `branding ${Date.now()}`, 'live'));
  const number = `BRD${Date.now()}`;
  const body = packageSample(number);
  Object.assign(body.package, { FromCompany: 'Maple Goods' });
  expect((await live.post(`${apiBase.live}/wf/package`, body)).status()).toBe(200);
  const read = await live.get(`${apiBase.live}/packages/${number}`);
  const trackingUrl = ((await read.json()) as { tracking_url: string }).tracking_url;
  const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  try {
    const visitor = await context.newPage();
    await visitor.goto(new URL(trackingUrl).pathname);
    const band = visitor.getByTestId('shipper-branding');
    await expect(band).toContainText('A shipment from Maple Goods');
    await expect(band).toHaveCSS('background-color', 'rgb(185, 28, 28)');
    await expect(band.getByRole('img', { name: 'Maple Goods logo' })).toBeVisible();
    expect(await axeFindings(visitor, 'public-branded')).toEqual([]);
    await screenshots(visitor, testInfo, 'tracking-branded');
  } finally {
    await context.close();
    // The worker's account is shared with other specs: leave it unbranded.
    expect((await portalApi(page, 'PUT', '/portal-api/settings/branding', { accent_color: null, logo: null })).status()).toBe(
      200,
    );
  }
});
