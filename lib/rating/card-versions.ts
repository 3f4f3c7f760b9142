// Rate card versions (docs/decisions/money.md): per service, the version in force at an instant is the active card
// with the greatest effective_from at or before it. Quoting uses the versions in force now; a package is priced by
// the version in force on its ManifestDate.
import type { RateCardData } from './types';

export function cardInForce(cards: readonly RateCardData[], service: string, at: Date): RateCardData | undefined {
  const t = at.getTime();
  let best: RateCardData | undefined;
  for (const card of cards) {
    if (!card.active || card.service !== service || card.effectiveFrom.getTime() > t) continue;
    if (!best || card.effectiveFrom.getTime() > best.effectiveFrom.getTime()) best = card;
  }
  return best;
}

interface InForce {
  cards: RateCardData[];
  /** The span in which this set holds: from the latest effective_from used to the next one after it. */
  from: number;
  until: number;
}

const memo = new WeakMap<readonly RateCardData[], InForce>();

/**
 * One card per service, the version in force at `at`. The answer is remembered per loaded card list until the next
 * version comes into force, so quoting (always "now") sorts nothing per request and keeps its list's identity.
 */
export function cardsInForce(cards: readonly RateCardData[], at: Date): RateCardData[] {
  const t = at.getTime();
  const hit = memo.get(cards);
  if (hit && t >= hit.from && t < hit.until) return hit.cards;
  const services = [...new Set(cards.map((c) => c.service))];
  const chosen = services.map((s) => cardInForce(cards, s, at)).filter((c): c is RateCardData => c !== undefined);
  let from = -Infinity;
  let until = Infinity;
  for (const card of cards) {
    const e = card.effectiveFrom.getTime();
    if (e <= t) from = Math.max(from, e);
    else until = Math.min(until, e);
  }
  const entry = { cards: chosen, from, until };
  memo.set(cards, entry);
  return entry.cards;
}
