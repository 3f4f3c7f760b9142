import { expect, screenshots, test } from '../fixtures';
import { activeCell, cell, expectActive, uid } from './fixtures/manifests';

// The package grid as a spreadsheet and as a WAI-ARIA grid: one tab stop, Shift-selected ranges,
// Ctrl+C / Ctrl+V of ranges through the real clipboard, Ctrl+Z / Ctrl+Y for every edit, Ctrl+D fill down, a
// removed row brought back, and cells whose accessible name carries their value.

test.describe('package grid keyboard', () => {
  test('ranges, copy and paste, undo and redo, fill down, and Tab leaving the grid', async ({ freshPage: page }, testInfo) => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/test/manifests/new');
    const tn = uid('KB');

    // Type two rows; Tab inside the editor moves right, Enter returns to the first column.
    await cell(page, 0, 'TrackingNumber').click();
    for (const [number, weight, unit] of [
      [`${tn}-1`, '1', 'lb'],
      [`${tn}-2`, '2', 'kg'],
    ]) {
      await page.keyboard.type(number);
      await page.keyboard.press('Tab');
      await page.keyboard.type(weight);
      await page.keyboard.press('Tab');
      await page.keyboard.type(unit);
      await page.keyboard.press('Enter');
    }
    await expectActive(page, 2, 'TrackingNumber');
    // A cell's accessible name is its value, then its column and row.
    await expect(cell(page, 1, 'PackageWeightUnit')).toHaveAccessibleName('kg, PackageWeightUnit, row 2');
    await expect(cell(page, 2, 'PackageWeight')).toHaveAccessibleName('empty, PackageWeight, row 3');

    // Shift+arrows select a range; Ctrl+C puts it on the clipboard as a spreadsheet would.
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowRight');
    await expect(page.locator('[role="gridcell"][aria-selected="true"]')).toHaveCount(4);
    await screenshots(page, testInfo, 'grid-range-selected');
    await page.keyboard.press('Control+C');
    await expect(page.getByText('Copied 4 cells.')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('1\tlb\r\n2\tkg\r\n');

    // Ctrl+V at row 3 writes the block there; Ctrl+Z takes it back, Ctrl+Y brings it again.
    await cell(page, 2, 'PackageWeight').click();
    await page.keyboard.press('Control+V');
    await expect(cell(page, 3, 'PackageWeightUnit')).toHaveText('kg');
    await page.keyboard.press('Control+Z');
    await expect(cell(page, 2, 'PackageWeight')).toHaveText('');
    await expect(cell(page, 3, 'PackageWeightUnit')).toHaveCount(0); // the row the paste added is gone too
    await page.keyboard.press('Control+Y');
    await expect(cell(page, 3, 'PackageWeightUnit')).toHaveText('kg');

    // Ctrl+D fills the selected column down from the row above; Delete clears a range in one undoable step.
    await cell(page, 2, 'TrackingNumber').click();
    await page.keyboard.type(`${tn}-3`);
    await page.keyboard.press('Enter');
    await cell(page, 1, 'ToCountry').click();
    await page.keyboard.type('US');
    await page.keyboard.press('Enter');
    await expectActive(page, 2, 'ToCountry');
    await page.keyboard.press('Control+D');
    await expect(cell(page, 2, 'ToCountry')).toHaveText('US');
    await cell(page, 0, 'PackageWeight').click();
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Delete');
    await expect(cell(page, 0, 'PackageWeight')).toHaveText('');
    await expect(cell(page, 1, 'PackageWeight')).toHaveText('');
    await page.keyboard.press('Control+Z');
    await expect(cell(page, 0, 'PackageWeight')).toHaveText('1');
    await expect(cell(page, 1, 'PackageWeight')).toHaveText('2');

    // Removing a row can be undone, with the button or the keys.
    await cell(page, 1, 'TrackingNumber').click();
    await page.getByRole('button', { name: 'Remove selected row' }).click();
    await expect(page.getByText('Row 2 removed; Undo brings it back.')).toBeVisible();
    await expect(cell(page, 1, 'TrackingNumber')).toHaveText(`${tn}-3`);
    await page.getByRole('button', { name: 'Undo', exact: true }).click();
    await expect(cell(page, 1, 'TrackingNumber')).toHaveText(`${tn}-2`);

    // One tab stop: Tab from a cell leaves the grid for the next control; Shift+Tab returns to the same cell.
    await cell(page, 1, 'ToCity').click();
    await page.keyboard.press('Tab');
    await expect(activeCell(page)).not.toBeFocused();
    expect(
      await page.evaluate(() => document.activeElement !== document.body && !document.activeElement?.closest('[role="grid"]')),
    ).toBe(true);
    await page.keyboard.press('Shift+Tab');
    await expectActive(page, 1, 'ToCity');
  });
});
