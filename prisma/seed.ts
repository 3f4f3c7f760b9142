import pg from 'pg';
import { RATE_CARDS } from './seed-data/rate-cards';

/**
 * Inserts each seeded rate card whose service is not in the database yet. Cards already there,
 * edited or not, are left alone: the database is the authority on prices once seeded.
 */
export async function seedRateCards(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    let inserted = 0;
    for (const card of RATE_CARDS) {
      const result = await client.query(
        `INSERT INTO rate_cards (id, service, carrier, active, location_kind, dim_divisor, weight_step_lb, max_weight_lb,
                                 zones, weight_breaks, surcharges, delivery_days, sort_order, updated_at)
         VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, now())
         ON CONFLICT (service) DO NOTHING`,
        [
          card.service,
          card.carrier,
          card.active,
          card.locationKind,
          card.dimDivisor,
          card.weightStepLb,
          card.maxWeightLb,
          JSON.stringify(card.zones),
          JSON.stringify(card.weightBreaks),
          JSON.stringify(card.surcharges),
          JSON.stringify(card.deliveryDays),
          card.sortOrder,
        ],
      );
      inserted += result.rowCount ?? 0;
    }
    return inserted;
  } finally {
    await client.end();
  }
}
