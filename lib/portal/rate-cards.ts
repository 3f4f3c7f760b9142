import 'server-only';
import { db } from '@/lib/db';
import { parseRateCard } from '@/lib/rating/parse-rate-card';
import type { TRateCardView } from '@/lib/schemas/portal-responses';

export async function listRateCards(): Promise<TRateCardView[]> {
  const rows = await db.rateCard.findMany({ orderBy: [{ sortOrder: 'asc' }, { service: 'asc' }] });
  return rows.map((row) => {
    const card = parseRateCard(row);
    return {
      id: row.id,
      service: card.service,
      carrier: card.carrier,
      active: card.active,
      locationKind: card.locationKind,
      dimDivisor: card.dimDivisor.toString(),
      weightStepLb: card.weightStepLb.toString(),
      maxWeightLb: card.maxWeightLb.toString(),
      zones: card.zones,
      weightBreaks: card.weightBreaks.map((b) => ({ maxLb: b.maxLb.toString(), prices: b.prices.map((p) => p.toFixed(2)) })),
      surcharges: card.surcharges.map((s) => ({ code: s.code, label: s.label, kind: s.kind, amount: s.amount.toString() })),
      deliveryDays: card.deliveryDays,
    };
  });
}
