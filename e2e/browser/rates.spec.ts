import { expect, screenshots, test } from '../fixtures';

test.describe('rate calculator', () => {
  test('quotes every service, with airports picked by search, cheapest and fastest marked', async ({
    signedInPage: page,
  }, testInfo) => {
    await page.goto('/test/rates');
    await expect(page.getByText('No quotes yet')).toBeVisible();
    await screenshots(page, testInfo, 'rates-empty');

    await page.getByLabel('Weight', { exact: false }).first().fill('5');
    await page.getByLabel('Unit').selectOption('lb');
    await page.getByLabel('Length').fill('10');
    await page.getByLabel('Width').fill('8');
    await page.getByLabel('Height').fill('6');
    await page.getByLabel('From ZIP').fill('10001');
    await page.getByLabel('To ZIP').fill('90210');

    // Airport search by city, picked with the keyboard.
    const origin = page.getByRole('combobox', { name: 'Origin airport' });
    const suggestions = page.getByRole('listbox', { name: 'Airports' }).getByRole('option');
    // Ranked by size within a city: Heathrow among London's first four, not behind London City or Ontario's London.
    await origin.fill('london');
    await expect.poll(async () => (await suggestions.allTextContents()).slice(0, 4).join(' ')).toContain('LHR');
    expect((await suggestions.allTextContents()).slice(0, 4).join(' ')).not.toMatch(/LCY|YXU/);
    await origin.fill('new york');
    await expect(suggestions.filter({ hasText: 'JFK' })).toBeVisible();
    await screenshots(page, testInfo, 'rates-airport-search');
    await suggestions.filter({ hasText: 'JFK' }).click();
    await expect(origin).toHaveValue('JFK');

    const destination = page.getByRole('combobox', { name: 'Destination airport' });
    await destination.fill('LAX');
    await expect(suggestions.first()).toContainText('LAX');
    await destination.press('ArrowDown');
    await destination.press('Enter');
    await expect(destination).toHaveValue('LAX');

    await page.getByRole('button', { name: 'Get rates' }).click();
    const rows = page.getByTestId('quote-row');
    await expect(rows).toHaveCount(3);
    for (const service of ['AirSkip', 'Carrier Express', 'Carrier Ground']) {
      await expect(rows.filter({ hasText: service })).toHaveCount(1);
    }
    await expect(page.getByText('Cheapest', { exact: true })).toHaveCount(1);
    await expect(page.getByText('Fastest', { exact: true }).first()).toBeVisible();
    // Each row shows amount, delivery days, billable weight and zone.
    await expect(rows.first()).toContainText(/\$\d+\.\d{2}/);
    await expect(rows.first()).toContainText(/ lb/);
    await screenshots(page, testInfo, 'rates-quotes');
  });

  test('a missing input explains why a service was not quoted', async ({ signedInPage: page }) => {
    await page.goto('/test/rates');
    await page.getByLabel('Weight', { exact: false }).first().fill('2');
    await page.getByLabel('Length').fill('10');
    await page.getByLabel('Width').fill('8');
    await page.getByLabel('Height').fill('4');
    await page.getByLabel('From ZIP').fill('10001');
    await page.getByLabel('To ZIP').fill('60601');
    await page.getByRole('button', { name: 'Get rates' }).click();
    await expect(page.getByTestId('quote-row')).toHaveCount(2);
    await expect(page.getByTestId('rate-messages')).toContainText('AirSkip');
  });

  test('validation errors appear next to their fields, from the schema and from the server', async ({ signedInPage: page }) => {
    await page.goto('/test/rates');
    await page.getByRole('button', { name: 'Get rates' }).click();
    const weight = page.getByLabel('Weight', { exact: false }).first();
    await expect(weight).toHaveAttribute('aria-invalid', 'true');
    const weightError = page.locator(`#${await weight.getAttribute('id')}-error`);
    await expect(weightError).toHaveText('is required');
    await expect(weight).toHaveAttribute('aria-describedby', new RegExp(`${await weight.getAttribute('id')}-error`));

    // Client-side: more than 2 decimals on a dimension.
    await weight.fill('3');
    await page.getByLabel('Length').fill('10.123');
    await page.getByLabel('Width').fill('8');
    await page.getByLabel('Height').fill('4');
    await page.getByRole('button', { name: 'Get rates' }).click();
    await expect(page.locator(`#${await page.getByLabel('Length').getAttribute('id')}-error`)).toHaveText(
      'must have at most 2 decimal places',
    );

    // Server-side: a well-formed airport code that does not exist comes back in details[] and lands on its field.
    await page.getByLabel('Length').fill('10');
    await page.getByLabel('Service').selectOption('AirSkip');
    await page.getByRole('combobox', { name: 'Origin airport' }).fill('JFK');
    await page.getByRole('combobox', { name: 'Destination airport' }).fill('QQQ');
    await page.getByRole('button', { name: 'Get rates' }).click();
    const destination = page.getByRole('combobox', { name: 'Destination airport' });
    await expect(destination).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator(`#${await destination.getAttribute('id')}-error`)).toContainText("unknown airport code 'QQQ'");
  });
});
