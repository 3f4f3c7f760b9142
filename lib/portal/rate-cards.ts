import 'server-only';
import { db } from '@/lib/db';
import { cardInForce } from '@/lib/rating/card-versions';
import { parseRateCard } from '@/lib/rating/parse-rate-card';
import type { TRateCardView } from '@/lib/schemas/portal-responses';

export async function listRateCards(): Promise<TRateCardView[]> {
  // Every version, a service's newest first.
  const rows = await db.rateCard.findMany({ orderBy: [{ sortOrder: 'asc' }, { service: 'asc' }, { effectiveFrom: 'desc' }] });
  const cards = rows.map(parseRateCard);
  const now = new Date();
  return rows.map((row, index) => {
    const card = cards[index] ?? parseRateCard(row);
    const inForce = cardInForce(cards, card.service, now);
    const standing = !card.active
      ? ('inactive' as const)
      : inForce === card
        ? ('in_force' as const)
        : card.effectiveFrom > now
          ? ('scheduled' as const)
          : ('superseded' as const);
    return {
      version: card.version,
      effectiveFrom: card.effectiveFrom.toISOString(),
      standing,
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
