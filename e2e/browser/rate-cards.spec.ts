import { expect, screenshots, test } from '../fixtures';

test('rate cards show each card’s table, surcharges, divisor, delivery days and a price chart', async ({
  signedInPage: page,
}, testInfo) => {
  await page.goto('/test/rate-cards');
  const cards = page.getByTestId('rate-card');
  await expect(cards).toHaveCount(3);
  for (const service of ['AirSkip', 'Carrier Express', 'Carrier Ground']) {
    const card = cards.filter({ has: page.getByRole('heading', { name: service, exact: true }) });
    await expect(card).toHaveCount(1);
    await expect(card.getByRole('table')).toBeVisible();
    await expect(card.getByRole('columnheader', { name: /Zone 1/ })).toBeVisible();
    await expect(card.getByText('Dim divisor')).toBeVisible();
    await expect(card.getByRole('rowheader', { name: 'Delivery days' })).toBeVisible();
    await expect(card.getByText('Surcharges')).toBeVisible();
    await expect(card.locator('.recharts-line').first()).toBeVisible();
  }
  await screenshots(page, testInfo, 'rate-cards');
});
