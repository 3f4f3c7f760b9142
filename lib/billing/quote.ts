// Quotes as POST /wf/rate answers them: each rate gets its currency, the card version that priced it and a signed
// quote id valid 24 hours (quote-id.ts), which a package may name to be priced at that amount.
import type { Environment } from '@/lib/generated/prisma/enums';
import type { RateCardData, RateInput, RateQuote } from '@/lib/rating/types';
import { CURRENCY } from '@/lib/schemas/rate';
import { issueQuoteId, QUOTE_TTL_MS, type QuoteKey } from './quote-id';
import { laneCode, normalParcel } from './pricing';

export interface IssuedQuote extends RateQuote {
  currency: string;
  card_version: number;
  quote_id: string;
  quote_expires_at: string;
}

export function issueQuotes(options: {
  rates: readonly RateQuote[];
  /** The cards that priced them (one per service, in force now). */
  cards: readonly RateCardData[];
  input: RateInput;
  key: QuoteKey;
  accountId: string;
  environment: Environment;
  now: Date;
}): IssuedQuote[] {
  const { rates, cards, input, key, accountId, environment, now } = options;
  const parcel = normalParcel({
    weight: input.weight,
    weightUnit: input.weightUnit,
    length: input.length,
    width: input.width,
    height: input.height,
  });
  const expiresAt = new Date(now.getTime() + QUOTE_TTL_MS);
  return rates.map((rate) => {
    const card = cards.find((c) => c.service === rate.service);
    if (!card || typeof parcel === 'string') throw new Error(`quote for ${rate.service} has no card or parcel`);
    const airport = card.locationKind === 'airport';
    const quoteId = issueQuoteId(key, accountId, {
      environment,
      service: rate.service,
      cardVersion: card.version,
      amount: rate.amount,
      weightLb: parcel.weightLb.toString(),
      length: parcel.length.toString(),
      width: parcel.width.toString(),
      height: parcel.height.toString(),
      from: laneCode(airport ? input.origin : input.fromZip),
      to: laneCode(airport ? input.destination : input.toZip),
      expiresAt,
    });
    return {
      ...rate,
      currency: CURRENCY,
      card_version: card.version,
      quote_id: quoteId,
      quote_expires_at: expiresAt.toISOString(),
    };
  });
}
