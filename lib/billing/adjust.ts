// Re-rating on what the hub measured (docs/decisions/money.md): the SAME card version as the package's charge, so an
// adjustment is only ever about the parcel, never about a price change; a difference is an adjustment with its reason.
// Pure: the stored package and the cards are given (adjust-store.ts reads and writes them).
import type { RateCardData } from '@/lib/rating/types';
import type { TAdjustment, TMeasured } from '@/lib/schemas/lifecycle';
import type { TCharge } from '@/lib/schemas/rate';
import { normalParcel, priceOnCard, type NormalParcel } from './pricing';
import { compare, times } from '@/lib/rating/fixed';

export interface StoredForRerating {
  charge: TCharge | null;
  declared: { weight?: string; weightUnit?: string; length?: string; width?: string; height?: string };
  /** The lane the charge was priced on: postal codes for a zip card, the container's airports for an airport card. */
  lane: { fromPostal?: string; toPostal?: string; originAirport?: string; destinationAirport?: string };
}

export interface Rerated {
  charge: TCharge;
  adjustment: TAdjustment;
}

/** Cents of a two-decimal amount, signed. */
export function cents(amount: string): bigint {
  const negative = amount.startsWith('-');
  const [whole = '0', fraction = ''] = amount.replace(/^-/, '').split('.');
  const value = BigInt(whole) * 100n + BigInt((fraction + '00').slice(0, 2));
  return negative ? -value : value;
}

export function centsText(value: bigint): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  return `${negative ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

function sameParcel(a: NormalParcel, b: NormalParcel, what: 'weight' | 'dimensions'): boolean {
  if (what === 'weight') return compare(a.weightLb, b.weightLb) === 0;
  return compare(a.length, b.length) === 0 && compare(a.width, b.width) === 0 && compare(a.height, b.height) === 0;
}

/** Undefined when nothing changes the price: not priced, card version gone, beyond the card, or the same amount. */
export function rerate(options: {
  cards: readonly RateCardData[];
  stored: StoredForRerating;
  /** What was measured; a field absent (or undefined) was not. */
  measured: Partial<TMeasured>;
  scanId: string | null;
  now: Date;
}): Rerated | undefined {
  const { cards, stored, measured, scanId, now } = options;
  const charge = stored.charge;
  if (!charge || charge.status !== 'priced' || charge.amount === null || charge.card_version === null) return undefined;
  const card = cards.find((c) => c.service === charge.service && c.version === charge.card_version);
  if (!card) return undefined;
  const declared = normalParcel(stored.declared);
  if (typeof declared === 'string') return undefined;
  const hasWeight = measured.weight !== undefined;
  const hasDims = measured.length !== undefined && measured.width !== undefined && measured.height !== undefined;
  const parcel = normalParcel({
    weight: hasWeight ? measured.weight : stored.declared.weight,
    weightUnit: hasWeight ? measured.weight_unit : stored.declared.weightUnit,
    length: hasDims ? measured.length : stored.declared.length,
    width: hasDims ? measured.width : stored.declared.width,
    height: hasDims ? measured.height : stored.declared.height,
  });
  if (typeof parcel === 'string') return undefined;
  const airport = card.locationKind === 'airport';
  const from = airport ? stored.lane.originAirport : stored.lane.fromPostal;
  const to = airport ? stored.lane.destinationAirport : stored.lane.toPostal;
  const priced = priceOnCard(card, parcel, from, to, now);
  if (priced.status !== 'priced' || priced.amount === null) return undefined;
  const delta = cents(priced.amount) - cents(charge.amount);
  if (delta === 0n) return undefined;
  const weightChanged = !sameParcel(parcel, declared, 'weight');
  const dimsChanged = !sameParcel(parcel, declared, 'dimensions');
  // Both measured differently: the reason is whichever sets the billable weight now.
  const volume = times(times(parcel.length, parcel.width), parcel.height);
  const dimensional = compare(volume, times(parcel.weightLb, card.dimDivisor)) > 0;
  const reason: TAdjustment['reason'] =
    weightChanged && dimsChanged ? (dimensional ? 'dimensions' : 'weight') : dimsChanged ? 'dimensions' : 'weight';
  const amount = centsText(delta);
  const adjustment: TAdjustment = {
    amount,
    before: charge.amount,
    after: priced.amount,
    currency: charge.currency,
    reason,
    scan_id: scanId,
    card_version: card.version,
    billable_weight: { before: charge.billable_weight, after: priced.billable_weight ?? '' },
  };
  return {
    adjustment,
    charge: {
      ...charge,
      amount: priced.amount,
      zone: priced.zone,
      billable_weight: priced.billable_weight,
      base: priced.base,
      surcharges: priced.surcharges,
      adjustments: [...(charge.adjustments ?? []), { amount, reason, scan_id: scanId, occurred_at: now.toISOString() }],
    },
  };
}
