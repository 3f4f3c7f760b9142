import pg from 'pg';
import { RATE_CARDS } from './seed-data/rate-cards';

/**
 * Inserts each seeded rate card (as version 1) whose service has no version 1 in the database yet. Cards already there,
 * edited or not, are left alone: the database is the authority on prices once seeded.
 */
export async function seedRateCards(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // One statement for every card: it runs at each `npm start`, where every round trip is part of the start.
    const columns = RATE_CARDS.map((card) => [
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
    ]);
    const rows = columns.map((values, i) => `(${values.map((_, j) => `$${i * values.length + j + 1}`).join(', ')})`);
    const result = await client.query(
      `INSERT INTO rate_cards (id, service, carrier, active, location_kind, dim_divisor, weight_step_lb, max_weight_lb,
                               zones, weight_breaks, surcharges, delivery_days, sort_order, updated_at)
       SELECT gen_random_uuid(), v.service, v.carrier, v.active::boolean, v.location_kind, v.dim_divisor::numeric, v.weight_step_lb::numeric,
              v.max_weight_lb::numeric, v.zones::jsonb, v.weight_breaks::jsonb, v.surcharges::jsonb, v.delivery_days::jsonb,
              v.sort_order::int, now()
       FROM (VALUES ${rows.join(', ')}) AS v(service, carrier, active, location_kind, dim_divisor, weight_step_lb, max_weight_lb,
                                            zones, weight_breaks, surcharges, delivery_days, sort_order)
       ON CONFLICT (service, version) DO NOTHING`,
      columns.flat(),
    );
    return result.rowCount ?? 0;
  } finally {
    await client.end();
  }
}
