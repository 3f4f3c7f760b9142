import { apiBase, authed, createToken, expect, portalUrl, screenshots, test } from '../fixtures';
import { packageBody } from './fixtures/packages';
import { lookAt } from '../axe';

// The package page of a delivered package: its proof of delivery (who took it, the signature and the photo, the
// certificate link), "Make a return label", and the return's link back. Screenshots at 1440 and 390 px; axe at both.

test('shows the proof of delivery, makes a return label and links the two packages', async ({ signedInPage: page }, testInfo) => {
  test.setTimeout(120_000);
  const token = await createToken(page, `returns ${Date.now()}`);
  const tracking = `RPB${Date.now()}`;
  const api = authed(page.request, token);
  expect(
    (
      await api.post(
        `${apiBase.test}/wf/package`,
        packageBody(tracking, { ToAddress1: '9 Palm Dr', ToCity: 'Beverly Hills', ToState: 'CA', ToCountry: 'US' }),
      )
    ).status(),
  ).toBe(200);
  // The simulator delivers it with a sample proof (a drawn signature and a photo).
  expect((await api.post(`${apiBase.test}/packages/${tracking}/simulate`, { status: 'delivered' })).status()).toBe(200);

  await page.goto(portalUrl('test', `/packages/${tracking}`));
  const proof = page.getByRole('region', { name: 'Proof of delivery' });
  await expect(proof.getByText('A. Recipient (test)')).toBeVisible();
  await expect(proof.getByRole('img', { name: /Signature of/ })).toBeVisible();
  await expect(proof.getByRole('img', { name: 'Photo taken at delivery' })).toBeVisible();
  // Both images loaded (their bytes, behind the session): a broken image has no natural width.
  for (const name of [/Signature of/, 'Photo taken at delivery'])
    await expect
      .poll(() => proof.getByRole('img', { name }).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
  await expect(proof.getByRole('link', { name: /Certificate/ })).toHaveAttribute('href', /proof-of-delivery\/document\?/);

  await page.getByRole('button', { name: 'Make a return label' }).click();
  const returnLink = page.getByRole('link', { name: /^RTN-CB\d{13}-1$/ });
  await expect(returnLink).toBeVisible();
  await expect(page.getByRole('link', { name: /Print return label/ })).toBeVisible();

  await lookAt(page, testInfo, 'package-delivered-returned');

  await returnLink.click();
  await expect(page.getByRole('heading', { name: /^Package RTN-/, level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: tracking })).toBeVisible();
  await screenshots(page, testInfo, 'return-package');
});
