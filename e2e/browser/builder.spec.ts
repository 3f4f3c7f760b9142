import { expect, screenshots, test } from '../fixtures';
import { activeCell, cell, expectActive, field, fillHeader, packagesCsv, pasteText, uid } from './fixtures/manifests';

// The container-manifest builder, driven as a shipper would: keyboard in the grid, row actions,
// per-cell errors from the API's schema, paste from a spreadsheet, a draft that survives a reload.

test.describe('container manifest builder', () => {
  test('a new user builds a manifest by hand, with the keyboard, paste and a draft that survives reload', async ({
    freshPage: page,
  }, testInfo) => {
    const containerId = uid('CONT');
    const tn = uid('TN');
    await page.goto('/test/manifests/new');
    await expect(page.getByRole('heading', { name: 'New container manifest' })).toBeVisible();
    await expect(page.getByRole('grid', { name: 'Packages in the container' })).toBeVisible();
    await screenshots(page, testInfo, 'builder-empty');

    await fillHeader(page, { containerId, containerWeight: '5' });

    // Typing on a selected cell edits it; Tab moves right, and Enter goes down to the column the Tabs started from.
    await cell(page, 0, 'TrackingNumber').click();
    await expectActive(page, 0, 'TrackingNumber');
    await page.keyboard.type(`${tn}-1`);
    await page.keyboard.press('Tab');
    await expectActive(page, 0, 'PackageWeight');
    await page.keyboard.type('2');
    await page.keyboard.press('Tab');
    await page.keyboard.type('lb');
    await page.keyboard.press('Enter');
    await expectActive(page, 1, 'TrackingNumber');
    await expect(cell(page, 0, 'TrackingNumber')).toHaveText(`${tn}-1`);
    await expect(cell(page, 0, 'PackageWeight')).toHaveText('2');
    await expect(cell(page, 0, 'PackageWeightUnit')).toHaveText('lb');

    // Arrows move without editing. The grid is one tab stop: Tab leaves it, Shift+Tab comes back to the same cell.
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowRight');
    await expectActive(page, 0, 'PackageWeight');
    await page.keyboard.press('Tab');
    await expect(activeCell(page)).not.toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expectActive(page, 0, 'PackageWeight');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowLeft');
    await expectActive(page, 1, 'TrackingNumber');

    // A bad value is flagged on its cell with the schema's message; fixing it clears the error.
    await page.keyboard.type('bad number!');
    await page.keyboard.press('Enter');
    const bad = cell(page, 1, 'TrackingNumber');
    await expect(bad).toHaveAttribute('aria-invalid', 'true');
    await expect(bad).toHaveAccessibleDescription(/letters, digits/);
    // Listed in the error panel (a link to the cell); the selected cell's error is spelled out under the grid,
    // where it covers no other row.
    await expect(page.getByTestId('error-panel')).toContainText('1 problem to fix');
    await expect(
      page.getByTestId('error-panel').getByRole('button', { name: /Row 2, TrackingNumber: .*letters, digits/ }),
    ).toBeVisible();
    await page.keyboard.press('ArrowUp');
    await expectActive(page, 1, 'TrackingNumber');
    await expect(page.getByTestId('cell-error')).toContainText('Row 2, TrackingNumber:');
    await expect(page.getByRole('tooltip')).toHaveCount(0);
    await screenshots(page, testInfo, 'builder-cell-error');
    await page.keyboard.type(`${tn}-2`);
    await page.keyboard.press('Tab');
    await expect(bad).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('error-panel')).toHaveCount(0);
    await page.keyboard.type('1');
    await page.keyboard.press('Tab');
    await page.keyboard.type('kg');
    await page.keyboard.press('Tab');
    await expectActive(page, 1, 'PackageSizeLength');

    // Escape drops an edit in progress.
    await page.keyboard.type('999');
    await page.keyboard.press('Escape');
    await expectActive(page, 1, 'PackageSizeLength');
    await expect(cell(page, 1, 'PackageSizeLength')).toHaveText('');

    // Duplicate row 1, then remove the copy; duplicate row 2 and give the copy its own number.
    await page.getByRole('button', { name: 'Duplicate row 1', exact: true }).click();
    await expect(cell(page, 1, 'TrackingNumber')).toHaveText(`${tn}-1`);
    await expect(cell(page, 2, 'TrackingNumber')).toHaveText(`${tn}-2`);
    await page.getByRole('button', { name: 'Remove row 2', exact: true }).click();
    await expect(cell(page, 1, 'TrackingNumber')).toHaveText(`${tn}-2`);
    await cell(page, 1, 'ToName').click();
    await page.keyboard.type('Ada Lovelace');
    await page.keyboard.press('Enter');
    await page.locator('[role="row"][data-row="1"]').getByRole('button', { name: 'Duplicate row 2' }).click();
    await expect(cell(page, 2, 'ToName')).toHaveText('Ada Lovelace');
    await cell(page, 2, 'TrackingNumber').click();
    await page.keyboard.type(`${tn}-3`);
    await page.keyboard.press('Enter');

    // Paste two rows copied from a spreadsheet (TSV, CRLF, a quoted cell) at row 4, adding rows.
    await cell(page, 3, 'TrackingNumber').click();
    await pasteText(page, `${tn}-4\t1.5\tlb\r\n${tn}-5\t"16"\toz\r\n`);
    await expect(cell(page, 3, 'TrackingNumber')).toHaveText(`${tn}-4`);
    await expect(cell(page, 4, 'TrackingNumber')).toHaveText(`${tn}-5`);
    await expect(cell(page, 4, 'PackageWeight')).toHaveText('16');
    await expect(cell(page, 4, 'PackageWeightUnit')).toHaveText('oz');
    await expect(page.getByText('Pasted 2 rows.')).toBeVisible();

    // Totals: 5 packages; 2 lb + 1 kg + 1 kg + 1.5 lb + 16 oz = 8.909 lb, over the 5 lb container weight.
    await expect(page.getByTestId('total-packages')).toHaveText('5');
    await expect(page.getByTestId('total-weight')).toHaveText('8.909 lb');
    await expect(page.getByText(/more than the container weight of 5 lb/)).toBeVisible();
    await field(page, 'Container weight (lb)').fill('25');
    await expect(page.getByText(/more than the container weight/)).toHaveCount(0);
    await screenshots(page, testInfo, 'builder-filled');

    // The draft is kept in the browser: a reload brings back header and rows.
    await page.waitForTimeout(800);
    await page.reload();
    await expect(page.getByText(/Draft restored/)).toBeVisible();
    await expect(field(page, 'Container ID')).toHaveValue(containerId);
    await expect(cell(page, 4, 'TrackingNumber')).toHaveText(`${tn}-5`);
    await expect(page.getByTestId('total-packages')).toHaveText('5');

    // Submitting runs the API's code: the ManifestID comes back with a link to the manifest.
    await page.getByRole('button', { name: 'Create manifest' }).click();
    const manifestId = page.getByTestId('manifest-id');
    await expect(manifestId).toHaveText(/^MAN-[0-9A-Z]{16}$/);
    const id = (await manifestId.textContent())!;
    await screenshots(page, testInfo, 'builder-created');

    // A tracking number already manifested: the server's 409 names it on its cell.
    await page.getByRole('button', { name: 'Build another manifest' }).click();
    await fillHeader(page, { containerId: uid('CONT') });
    await cell(page, 0, 'TrackingNumber').click();
    await page.keyboard.type(`${tn}-1`);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Create manifest' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Conflict' })).toContainText(
      'already manifested in another container',
    );
    await expect(cell(page, 0, 'TrackingNumber')).toHaveAttribute('aria-invalid', 'true');
    await expect(cell(page, 0, 'TrackingNumber')).toHaveAccessibleDescription(`${tn}-1 is already in manifest ${id}`);

    // The same ContainerID again with different packages: a conflict naming the stored manifest.
    await field(page, 'Container ID').fill(containerId);
    await cell(page, 0, 'TrackingNumber').click();
    await page.keyboard.type(`${tn}-9`);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Create manifest' }).click();
    const conflict = page.getByRole('alert').filter({ hasText: 'Conflict' });
    await expect(conflict).toContainText(id);
    await expect(conflict.getByRole('link', { name: `Open ${id}` })).toBeVisible();
    await expect(field(page, 'Container ID')).toHaveAttribute('aria-invalid', 'true');
    await screenshots(page, testInfo, 'builder-conflict');

    await conflict.getByRole('link', { name: `Open ${id}` }).click();
    await expect(page.getByRole('heading', { name: `Container ${containerId}` })).toBeVisible();
    await expect(page.getByText(`${tn}-5`)).toBeVisible();
  });

  test('whole-request errors map back to header fields and cells; Discard draft clears everything', async ({
    signedInPage: page,
  }) => {
    await page.goto('/test/manifests/new');
    const tn = uid('DUP');
    await cell(page, 0, 'TrackingNumber').click();
    await page.keyboard.type(tn);
    await page.keyboard.press('Enter');
    await page.keyboard.type(tn);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Create manifest' }).click();
    // Required header fields, and the duplicate tracking number on the second row's cell, all in the error panel,
    // whose heading takes focus; each entry leads to its field or cell, and the count follows the fixes.
    const panel = page.getByTestId('error-panel');
    await expect(panel.getByRole('heading', { level: 2 })).toBeFocused();
    await expect(field(page, 'Container ID')).toHaveAttribute('aria-invalid', 'true');
    await expect(cell(page, 1, 'TrackingNumber')).toHaveAttribute('aria-invalid', 'true');
    await expect(cell(page, 1, 'TrackingNumber')).toHaveAccessibleDescription(/duplicates ContainerDetails\[0\]\.TrackingNumber/);
    const count = Number(/^(\d+) problems/.exec((await panel.getByRole('heading', { level: 2 }).textContent()) ?? '')?.[1]);
    expect(count).toBeGreaterThanOrEqual(4);
    await panel.getByRole('button', { name: /^Container ID:/ }).click();
    await expect(field(page, 'Container ID')).toBeFocused();
    await page.keyboard.type(uid('FIX'));
    await page.keyboard.press('Tab');
    await expect(panel.getByRole('heading', { level: 2 })).toHaveText(
      `${count - 1} problems to fix before this manifest can be created`,
    );
    await panel.getByRole('button', { name: /^Row 2, TrackingNumber:/ }).click();
    await expect(activeCell(page)).toHaveAttribute('data-field', 'TrackingNumber');
    await expect(activeCell(page)).toHaveAttribute('data-active', 'true');

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Discard draft' }).click();
    await expect(page.getByText('Draft discarded.')).toBeVisible();
    await expect(cell(page, 0, 'TrackingNumber')).toHaveText('');
    await page.reload();
    await expect(page.getByText(/Draft restored/)).toHaveCount(0);
  });

  test('5,000 rows stay responsive: import, jump to the last row, edit, submit', async ({ signedInPage: page }) => {
    test.setTimeout(240_000);
    const prefix = uid('BIG');
    await page.goto('/test/manifests/new');
    await fillHeader(page, { containerId: uid('BIGC'), containerWeight: '20000' });
    await page
      .getByLabel('CSV or Excel file')
      .setInputFiles({ name: 'big.csv', mimeType: 'text/csv', buffer: Buffer.from(packagesCsv(5000, prefix)) });
    await page.getByLabel('Field for column Weight (lb)').selectOption('PackageWeight');
    await page.getByRole('button', { name: 'Import rows' }).click();
    await expect(page.getByText('Imported 5,000 rows.')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('total-packages')).toHaveText('5,000');

    // Ctrl+End jumps to the last row; the virtualiser renders it and only a window of rows exists.
    await cell(page, 0, 'TrackingNumber').click();
    await page.keyboard.press('Control+End');
    await expectActive(page, 4999, 'CustomsNetWeight');
    expect(await page.locator('[role="row"][data-row]').count()).toBeLessThan(60);
    await page.keyboard.press('Home');
    await expectActive(page, 4999, 'TrackingNumber');

    // Each keystroke re-renders one row: typing 20 characters into a cell takes well under a second or two.
    const started = Date.now();
    await page.keyboard.press('F2');
    await page.keyboard.type('-EDITED-ABCDEFGHIJKL');
    await page.keyboard.press('Enter');
    const elapsed = Date.now() - started;
    await expect(cell(page, 4999, 'TrackingNumber')).toHaveText(`${prefix}-05000-EDITED-ABCDEFGHIJKL`);
    expect(elapsed).toBeLessThan(4_000);

    // The 5,000-package request (over 1 MB) goes through the same code as the API.
    await page.getByRole('button', { name: 'Create manifest' }).click();
    await expect(page.getByTestId('manifest-id')).toHaveText(/^MAN-/, { timeout: 60_000 });
    await expect(page.getByText('its 5,000 packages are stored')).toBeVisible();
  });

  test('Ctrl+V pastes cells copied from Google Sheets (real clipboard), header row matched by name', async ({
    signedInPage: page,
  }) => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/test/manifests/new');
    const tn = uid('CLIP');
    // Google Sheets quotes a cell holding a line break; the header row maps columns by name.
    const copied = `TrackingNumber\tToName\tToAddress1\n${tn}-1\t"Jane\nDoe"\t9 Palm Dr\n${tn}-2\tJohn Roe\t1 Main St\n`;
    await page.evaluate((text) => navigator.clipboard.writeText(text), copied);
    await cell(page, 1, 'ToCity').click();
    await page.keyboard.press('Control+V');
    await expect(page.getByText('Pasted 2 rows (columns matched by their header row).')).toBeVisible();
    await expect(cell(page, 1, 'TrackingNumber')).toHaveText(`${tn}-1`);
    await expect(cell(page, 1, 'ToName')).toContainText('Jane');
    await expect(cell(page, 2, 'ToAddress1')).toHaveText('1 Main St');
    await expect(cell(page, 1, 'ToCity')).toHaveText('');
  });
});
