import { containerSample } from '../api/support/samples';
import { apiBase, authed, createToken, expect, screenshots, test } from '../fixtures';

// The portal on a 390 px phone: lists are cards whose every value is on screen (the manifests table
// showed only Type and Manifest ID), and detail pages leave empty fields out (a manifest was mostly dashes).

test.describe('phones', () => {
  test('lists are cards and detail pages show only what is there', async ({ freshPage: page, request }, testInfo) => {
    const suffix = Date.now().toString(36).toUpperCase();
    const token = await createToken(page, 'phone');
    const created = await authed(request, token).post(
      `${apiBase.test}/wf/manifest`,
      containerSample(`PH-${suffix}`, [`PHC${suffix}1`]),
    );
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

  test('the builder on a phone: required fields first, optional ones a tap away, the grid in its own frame', async ({
    freshPage: page,
  }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/test/manifests/new');
    await expect(page.getByRole('grid')).toBeVisible();
    // The header shows its required fields; the empty optional ones wait behind a button in each group.
    await expect(page.getByLabel('Container ID')).toBeVisible();
    await expect(page.getByLabel('Sort code')).toBeHidden();
    const shipment = page.getByRole('group', { name: 'Shipment' });
    const more = shipment.getByRole('button', { name: /^Show \d+ optional fields?$/ });
    await expect(more).toHaveAttribute('aria-expanded', 'false');
    // Nothing wider than the screen: the grid scrolls sideways inside its own frame.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const folded = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(folded, 'the builder was 3,588 px tall on a phone with every field shown').toBeLessThan(2_400);
    console.log(`builder at 390 px: ${folded} px tall with the optional fields folded`);
    await screenshots(page, testInfo, 'phone-builder');
    await page.setViewportSize({ width: 390, height: 844 });

    await more.click();
    await expect(page.getByLabel('Sort code')).toBeVisible();
    await page.getByLabel('Sort code').fill('SRT-1');
    await shipment.getByRole('button', { name: 'Hide empty optional fields' }).click();
    // A field that holds a value stays, the empty ones fold away again.
    await expect(page.getByLabel('Sort code')).toBeVisible();
    await expect(page.getByLabel('Final-mile carrier')).toBeHidden();

    // A refused submit: the error panel lists the problems and each leads to its field, visible and focused.
    await page.getByRole('button', { name: 'Create manifest' }).click();
    const panel = page.getByTestId('error-panel');
    await expect(panel.getByRole('heading', { level: 2 })).toBeFocused();
    await panel.getByRole('button', { name: /^Container ID:/ }).click();
    await expect(page.getByLabel('Container ID')).toBeFocused();
    await expect(page.getByLabel('Container ID')).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // At desktop width every field is shown and the buttons are not.
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect(page.getByLabel('Final-mile carrier')).toBeVisible();
    await expect(shipment.getByRole('button', { name: /optional field/ })).toBeHidden();
  });
});

test('on a phone the results come first: the filters fold behind one button, the search stays', async ({
  freshPage: page,
  request,
}, testInfo) => {
  const suffix = Date.now().toString(36).toUpperCase();
  const token = await createToken(page, 'phone-filters');
  const created = await authed(request, token).post(
    `${apiBase.test}/wf/manifest`,
    containerSample(`PF-${suffix}`, [`PFC${suffix}1`]),
  );
  expect(created.status()).toBe(200);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/test/packages');
  const filters = page.getByRole('search', { name: 'Filter packages' });
  const toggle = filters.getByRole('button', { name: 'Filters' });
  await expect(filters.getByLabel('Tracking number')).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(filters.getByLabel('Status')).toBeHidden();
  // The first result is on the first screen, above where the open form used to end.
  const row = page.getByRole('row').filter({ hasText: `PFC${suffix}1` });
  const box = await row.boundingBox();
  expect(box && box.y + box.height <= 844, JSON.stringify(box)).toBe(true);
  await screenshots(page, testInfo, 'phone-packages-filters-folded');
  await page.setViewportSize({ width: 390, height: 844 });

  await toggle.click();
  await expect(filters.getByRole('button', { name: 'Hide filters' })).toHaveAttribute('aria-expanded', 'true');
  await filters.getByLabel('Status').selectOption('cancelled');
  await filters.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/status=cancelled/);
  await expect(row).toHaveCount(0);
  // Folded again on the next page, it says filters are applied.
  await page.reload();
  await expect(filters.getByRole('button', { name: 'Filters (applied)' })).toBeVisible();

  // From the sm width up the form is always open and the button is not there.
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(filters.getByLabel('Status')).toBeVisible();
  await expect(filters.getByRole('button', { name: /^Filters/ })).toBeHidden();
});
