import { containerSample } from '../api/support/samples';
import { apiBase, authed, createToken, expect, screenshots, test } from '../fixtures';

// The portal on a 390 px phone (issue 17): lists are cards whose every value is on screen (the manifests table
// showed only Type and Manifest ID), and detail pages leave empty fields out (a manifest was mostly dashes).

test.describe('phones', () => {
  test('lists are cards and detail pages show only what is there', async ({ freshPage: page, request }, testInfo) => {
    const suffix = Date.now().toString(36).toUpperCase();
    const token = await createToken(page, 'phone');
    const created = await authed(request, token).post(`${apiBase.test}/wf/manifest`, containerSample(`PH-${suffix}`, [`PHC${suffix}1`]));
    expect(created.status()).toBe(200);
    const manifestId = ((await created.json()) as { ManifestID: string }).ManifestID;
    await page.setViewportSize({ width: 390, height: 844 });

    await page.goto('/test/manifests');
    const row = page.getByRole('row').filter({ hasText: manifestId });
    await expect(row).toBeVisible();
    // Every value of the row, the last column included, is within the screen's width: nothing to scroll sideways to.
    const withinWidth = async (cells: import('@playwright/test').Locator[]) => {
      expect(cells.length).toBeGreaterThanOrEqual(8);
      for (const cell of cells) {
        const box = await cell.boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= 390, `${await cell.textContent()}: ${JSON.stringify(box)}`).toBe(true);
      }
    };
    await withinWidth(await row.getByRole('cell').all());
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshots(page, testInfo, 'phone-manifests-cards');
    await page.setViewportSize({ width: 390, height: 844 }); // screenshots() ends at 1440

    await page.goto('/test/packages');
    const packageRow = page.getByRole('row').filter({ hasText: `PHC${suffix}1` });
    await expect(packageRow).toBeVisible();
    await withinWidth(await packageRow.getByRole('cell').all());
    await screenshots(page, testInfo, 'phone-packages-cards');
    await page.setViewportSize({ width: 390, height: 844 });

    await page.goto(`/test/manifests/${manifestId}`);
    await expect(page.getByRole('heading', { name: `Container PH-${suffix}` })).toBeVisible();
    // Empty fields are left out on a phone; at desktop width they read as a dash.
    const empty = page.locator('[data-empty="true"]');
    expect(await empty.count()).toBeGreaterThan(0);
    for (const item of await empty.all()) await expect(item).toBeHidden();
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect(empty.first()).toBeVisible();
    await screenshots(page, testInfo, 'phone-manifest-detail');
  });
});
