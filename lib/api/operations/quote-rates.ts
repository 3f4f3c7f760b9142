import 'server-only';
import { defineJsonOperation } from '../operation';
import { BODY_ERRORS, ref } from '../openapi/parts';
import { parseOperation } from '@/lib/schemas/parse';
import { RATE_ALIASES, RATE_FIELDS, ZRateRequest, ZRateResponse } from '@/lib/schemas/rate';
import { ignoredFields } from '@/lib/schemas/unknown-fields';
import { activeRateCards } from '@/lib/rating/active-rate-cards';
import { quoteRates } from '@/lib/rating/quote-rates';

export const quoteRatesOperation = defineJsonOperation(ZRateResponse, {
  id: 'quoteRates',
  method: 'POST',
  path: '/wf/rate',
  scope: 'rates',
  tag: 'Rating',
  summary: 'Quote rates',
  description:
    'One quote per active rate card that can price the package, or only the named `service`. Cards that lack an input they need are left out and explained in `messages`. ' +
    "Billable weight is the greater of actual weight and L×W×H ÷ the card's dim divisor, rounded up to the card's weight step.",
  requestBody: { required: true, content: { 'application/json': { schema: ref('RateRequest') } } },
  success: {
    kind: 'json',
    status: 200,
    description: 'Quotes.',
    example: {
      rates: [
        { carrier: 'Carrier', service: 'Carrier Express', amount: '12.40', zone: 8, billable_weight: '3', delivery_days: 2 },
      ],
    },
  },
  errors: BODY_ERRORS,
  handler: async (context) => {
    const body = await context.json();
    const input = parseOperation(ZRateRequest, body, { aliases: RATE_ALIASES });
    const result = quoteRates({ cards: await activeRateCards.get(), input });
    const warnings = ignoredFields(body, RATE_FIELDS);
    return {
      body: {
        rates: result.rates,
        ...(result.messages.length > 0 ? { messages: result.messages } : {}),
        ...(warnings.length > 0 ? { warnings } : {}),
      },
    };
  },
});
