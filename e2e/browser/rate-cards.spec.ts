import { RATE_CARDS } from '../../prisma/seed-data/rate-cards';
import { expect, screenshots, test } from '../fixtures';

const UNITS: Record<string, (amount: string) => string> = {
  percent: (a: string) => `${a}% of the base price`,
  per_lb: (a: string) => `$${a} per billable lb`,
  flat: (a: string) => `$${a} per package`,
};

test('rate cards show each card’s seeded table, surcharges, divisor, delivery days and a price chart', async ({
  signedInPage: page,
}, testInfo) => {
  await page.goto('/test/rate-cards');
  const cards = page.getByTestId('rate-card');
  await expect(cards).toHaveCount(RATE_CARDS.length);
  // Every value the seed (prisma/seed-data/rate-cards.ts) put in the database, as the page shows it.
  for (const seeded of RATE_CARDS) {
    const card = cards.filter({ has: page.getByRole('heading', { name: seeded.service, exact: true }) });
    await expect(card).toHaveCount(1);
    const value = (label: string) => card.getByText(label, { exact: true }).locator('xpath=following-sibling::dd[1]');
    await expect(value('Carrier')).toHaveText(seeded.carrier);
    // The seeded version 1, in force since ever (docs/decisions/money.md).
    await expect(card.getByText('Version 1', { exact: true })).toBeVisible();
    await expect(card.getByText('In force', { exact: true })).toBeVisible();
    await expect(value('In force from')).toHaveText('2000-01-01');
    await expect(value('Dim divisor')).toHaveText(`${seeded.dimDivisor} in³/lb`);
    await expect(value('Weight step')).toHaveText(`${seeded.weightStepLb} lb`);
    await expect(value('Maximum weight')).toHaveText(`${seeded.maxWeightLb} lb`);

    const table = card.getByRole('table');
    await expect(table.getByRole('columnheader')).toHaveText([
      'Up to (lb)',
      // "Zone 1" and its band of miles beneath it ("0–150 mi"; the last band is open: "2401+ mi").
      ...seeded.zones.map((z, i) => {
        const low = i === 0 ? 0 : (seeded.zones[i - 1].maxMiles ?? 0) + 1;
        return `Zone ${z.zone}${z.maxMiles === null ? `${low}+ mi` : `${low}–${z.maxMiles} mi`}`;
      }),
    ]);
    const rows = table.locator('tbody tr');
    await expect(rows).toHaveCount(seeded.weightBreaks.length + 1);
    for (const [i, weightBreak] of seeded.weightBreaks.entries()) {
      await expect(rows.nth(i).locator('th, td')).toHaveText([weightBreak.maxLb, ...weightBreak.prices]);
    }
    await expect(rows.last().locator('th, td')).toHaveText(['Delivery days', ...seeded.deliveryDays.map(String)]);

    await expect(card.getByRole('listitem')).toHaveText(
      seeded.surcharges.map((s) => `${s.label}: ${UNITS[s.kind]?.(s.amount) ?? s.kind}`),
    );
    await expect(card.locator('.recharts-line')).toHaveCount(seeded.zones.length);
  }
  await screenshots(page, testInfo, 'rate-cards');
});
