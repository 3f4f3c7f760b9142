// The pricing case of `npm run bench` (--only pricing): what pricing adds to accepting a daily package.
import { PACKAGE_TEMPLATE } from './support/fixtures';

const base = JSON.parse(PACKAGE_TEMPLATE) as { package: Record<string, unknown> };

/**
 * The bench's package, priced: Carrier Express from New York to Beverly Hills (the card's arithmetic, the charge
 * column and a ledger row), and the same body under a service no card prices, which is today's path (no arithmetic,
 * no ledger row; the charge column holds the short unpriced answer). `__TN__` is replaced per request.
 */
export function pricingBodies(): { priced: string; today: string } {
  const pkg = { ...base.package, FromPostalCode: '10001', FromCity: 'New York', FromState: 'NY', FromCountry: 'US' };
  return {
    priced: JSON.stringify({ package: { ...pkg, ServiceName: 'Carrier Express' } }),
    today: JSON.stringify({ package: { ...pkg, ServiceName: 'Carrier Courier' } }),
  };
}
