import { expect, portalUrl, screenshots, test } from '../fixtures';

// Addresses that are no page: a branded page with a way on, answered 404, never Next's bare default.

test.describe('not found and errors', () => {
  test('a portal path that is no page keeps the header and offers the usual places, with a 404', async ({
    signedInPage: page,
  }, testInfo) => {
    const response = await page.goto(portalUrl('test', '/no-such-page/at/all'));
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    // The portal's own navigation is there, and the suggestions stay in this environment.
    const instead = page.getByRole('navigation', { name: 'Where to go instead' });
    await expect(instead.getByRole('link', { name: 'Packages' })).toHaveAttribute('href', '/test/packages');
    await screenshots(page, testInfo, 'not-found-portal');
    await instead.getByRole('link', { name: 'Dashboard' }).click();
    await expect(page).toHaveURL(/\/test\/dashboard$/);
    // In live, the links lead to live.
    await page.goto(portalUrl('live', '/nothing-here'));
    await expect(
      page.getByRole('navigation', { name: 'Where to go instead' }).getByRole('link', { name: 'Manifests' }),
    ).toHaveAttribute('href', '/live/manifests');
  });

  test('an address outside the portal gets the branded page with the ways in, with a 404', async ({ page }, testInfo) => {
    // Hostile shapes of a path too: a NUL, an unknown first segment, a probe's path with more after it.
    for (const path of ['/nowhere', '/staging/dashboard', '/a%00b', '/readyz/x']) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole('heading', { name: 'Page not found' }), path).toBeVisible();
    }
    // A malformed escape names no page: a plain 400 from the proxy, never a 500.
    expect((await page.request.get('/readyz/%ZZ')).status()).toBe(400);
    expect((await page.request.get('/test/%ZZ')).status()).toBe(400);
    await page.goto('/nowhere');
    await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
    await screenshots(page, testInfo, 'not-found-site');
    await page.getByRole('link', { name: 'Go to the portal' }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
  });
});
