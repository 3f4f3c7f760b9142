import { packageSample } from '../api/support/samples';
import { apiBase, authed, createToken, expect, portalUrl, screenshots, test } from '../fixtures';
import { opsToken } from './fixtures/ops';

// Public tracking and recipient e-mail in the browser (docs/decisions/public-tracking.md): a shipper ticks the statuses
// on the Settings page; a carrier scan moves its live package; the recipient's mail (the server's development outbox)
// links to the public page, which a signed-out browser opens and follows to the unsubscribe page. Screenshots at
// 1440 and 390 of each page.

test('a recipient follows the mailed link to the public page, and unsubscribes without an account', async ({
  signedInPage: page,
  request,
  browser,
}, testInfo) => {
  test.setTimeout(240_000);
  const suffix = Date.now().toString(36).toUpperCase();
  const number = `PUB${suffix}`;
  const to = `recipient-${suffix.toLowerCase()}@e2e.example`;

  // The shipper opts in on the Settings page (live: the setting is the account's, the same on both pages).
  await page.goto(portalUrl('live', '/settings'));
  const form = page.getByRole('form', { name: 'E-mail your recipients' });
  await form.getByRole('checkbox', { name: /Out for delivery/ }).check();
  await form.getByRole('checkbox', { name: /Delivered/ }).check();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('Saved: recipients are e-mailed at out for delivery, delivered.')).toBeVisible();
  await screenshots(page, testInfo, 'settings-recipient-mail');

  const live = authed(request, await createToken(page, `public ${suffix}`, 'live'));
  const body = packageSample(number);
  Object.assign(body.package, { ToEmail: to, FromCompany: 'Maple Goods' });
  expect((await live.post(`${apiBase.live}/wf/package`, body)).status()).toBe(200);
  const ops = await opsToken('browser public tracking');
  for (const [event, location] of [
    ['received', 'JFK'],
    ['in_transit', 'ORD'],
    ['out_for_delivery', '90210'],
  ] as const) {
    const scanned = await request.post(`${apiBase.live}/ops/scans`, {
      headers: { authorization: `Token ${ops}` },
      data: {
        scans: [
          { scan_id: `s-${suffix}-${event}`, tracking_number: number, event, location, occurred_at: new Date().toISOString() },
        ],
      },
    });
    expect(scanned.status(), await scanned.text()).toBe(200);
  }

  // Signed out, as the recipient: the mail in the outbox, its link, the page.
  const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  const recipient = await context.newPage();
  let mail = recipient.getByTestId('outbox-mail').filter({ hasText: to });
  await expect(async () => {
    await recipient.goto('/dev/outbox');
    await expect(mail.first()).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  mail = mail.first();
  await expect(mail.getByRole('heading', { name: 'Your package from Maple Goods is out for delivery' })).toBeVisible();
  const trackLink = await mail.getByRole('link', { name: /\/track\/CB\d{13}$/ }).getAttribute('href');
  const unsubscribeLink = await mail.getByRole('link', { name: /\/unsubscribe\?token=/ }).getAttribute('href');

  await recipient.goto(new URL(trackLink!).pathname);
  await expect(recipient.getByText('Arriving today')).toBeVisible();
  await expect(recipient.getByText('Maple Goods')).toBeVisible();
  await expect(recipient.getByRole('listitem').filter({ hasText: 'Received by the carrier' })).toContainText(
    'New York, United States',
  );
  await expect(recipient.locator('body')).not.toContainText('9 Palm Dr');
  await screenshots(recipient, testInfo, 'track-package');

  // The form: by tracking number, the postal code asked for, then found.
  await recipient.goto('/track');
  await screenshots(recipient, testInfo, 'track-form');
  await recipient.getByLabel('Tracking number or carrier barcode').fill(number.toLowerCase());
  await recipient.getByRole('button', { name: 'Track' }).click();
  await expect(recipient.getByText('Enter the postal code this package is going to')).toBeVisible();
  await recipient.getByLabel('Destination postal code').fill('90210');
  await recipient.getByRole('button', { name: 'Track' }).click();
  await expect(recipient.getByText('Arriving today')).toBeVisible();
  await recipient.goto(`/track/${number}?postal_code=10001`);
  await expect(recipient.getByText('No package matches this number and postal code.')).toBeVisible();
  await screenshots(recipient, testInfo, 'track-not-found');

  const link = new URL(unsubscribeLink!);
  await recipient.goto(link.pathname + link.search);
  await expect(recipient.getByRole('heading', { name: 'Stop tracking e-mails?' })).toBeVisible();
  await screenshots(recipient, testInfo, 'unsubscribe');
  await recipient.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(recipient.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
  await recipient.goto(link.pathname + link.search);
  await expect(recipient.getByRole('heading', { name: 'You are already unsubscribed' })).toBeVisible();
  await context.close();
});
