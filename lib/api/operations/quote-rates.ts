import 'server-only';
import { defineJsonOperation } from '../operation';
import { BODY_ERRORS, ref } from '../openapi/parts';
import { parseOperation } from '@/lib/schemas/parse';
import { RATE_ALIASES, RATE_FIELDS, ZRateRequest, ZRateResponse } from '@/lib/schemas/rate';
import { ignoredFields } from '@/lib/schemas/unknown-fields';
import { activeRateCards } from '@/lib/rating/active-rate-cards';
import { cardsInForce } from '@/lib/rating/card-versions';
import { quoteRates } from '@/lib/rating/quote-rates';
import { issueQuotes } from '@/lib/billing/quote';
import { quoteKeys } from '@/lib/billing/quote-keys';

export const quoteRatesOperation = defineJsonOperation(ZRateResponse, {
  id: 'quoteRates',
  method: 'POST',
  path: '/wf/rate',
  scope: 'rates',
  tag: 'Rating',
  summary: 'Quote rates',
  description:
    'One quote per active rate card that can price the package, or only the named `service`. Cards that lack an input they need are left out and explained in `messages`. ' +
    "Billable weight is the greater of actual weight and L×W×H ÷ the card's dim divisor, rounded up to the card's weight step. " +
    'Each quote has its `currency`, the `card_version` that priced it and a `quote_id` (`qt_…`) valid 24 hours (`quote_expires_at`): a package that names it ' +
    '(`package.QuoteID` on POST /wf/package, `ContainerDetails[i].QuoteID` or the header `QuoteID` on POST /wf/manifest) is priced at that amount while its service, weight, ' +
    'dimensions and lane still match; otherwise it is priced at the card in force and the answer says why in `warnings`.',
  requestBody: { required: true, content: { 'application/json': { schema: ref('RateRequest') } } },
  success: {
    kind: 'json',
    status: 200,
    description: 'Quotes.',
    example: {
      rates: [
        {
          carrier: 'Carrier',
          service: 'Carrier Express',
          amount: '12.40',
          zone: 8,
          billable_weight: '3',
          delivery_days: 2,
          currency: 'USD',
          card_version: 1,
          quote_id: 'qt_MXx0fGFCQ0RFRkdISUpLTHxzNWZ0aHwxfDF8MTIuNDB8M3wxMHw4fDZ8MTAwMDF8OTAyMTA.Yk3hQ2x9cT1mZ0p4dW5ZaQ',
          quote_expires_at: '2026-11-30T10:00:00.000Z',
        },
      ],
    },
  },
  errors: BODY_ERRORS,
  handler: async (context) => {
    const body = await context.json();
    const input = parseOperation(ZRateRequest, body, { aliases: RATE_ALIASES });
    const now = new Date();
    const cards = cardsInForce(await activeRateCards.get(), now);
    const result = quoteRates({ cards, input });
    const [key] = quoteKeys();
    if (!key) throw new Error('no quote key');
    const rates = issueQuotes({
      rates: result.rates,
      cards,
      input,
      key,
      accountId: context.auth.accountId,
      environment: context.environment,
      now,
    });
    const warnings = ignoredFields(body, RATE_FIELDS);
    return {
      body: {
        rates,
        ...(result.messages.length > 0 ? { messages: result.messages } : {}),
        ...(warnings.length > 0 ? { warnings } : {}),
      },
    };
  },
});
