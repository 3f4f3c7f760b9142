import { z } from 'zod';
import { text } from './fields';
import { fieldTree, ZWarnings } from './unknown-fields';

// POST /addresses/validate. The postal code is free text here: a code of neither country is an answer (valid: false),
// not a refused request.
const ZAddressFields = z.object({
  address1: text({ max: 200 }),
  city: text({ max: 100 }),
  state: text({ max: 100 }),
  postal_code: text({ required: true, max: 20 }),
  country: text({ max: 100 }),
});

export const ZAddressValidationRequest = ZAddressFields.transform((a) => ({
  address1: a.address1,
  city: a.city,
  state: a.state,
  postalCode: a.postal_code,
  country: a.country,
}));

export const ADDRESS_FIELDS = fieldTree(ZAddressFields.shape, {});

export const ZAddressValidationResponse = z.object({
  valid: z.boolean().meta({ description: 'True when nothing below disagrees.' }),
  country: z.enum(['US', 'CA']).nullable().meta({ description: "From the postal code's form; null when it is neither." }),
  messages: z
    .array(z.object({ path: z.enum(['postal_code', 'city', 'state', 'country']), message: z.string() }))
    .meta({ description: 'Each field that disagrees with the postal code, and how.' }),
  suggestion: z
    .object({
      city: z.string().nullable().meta({ description: "The ZIP's city (US); null for Canada, whose dataset is by area." }),
      state: z.string().meta({ description: 'Two-letter state, province or territory code.' }),
      postal_code: z.string().meta({ description: 'Normalised: 12345, 12345-6789 or A1A 1A1.' }),
      country: z.enum(['US', 'CA']),
    })
    .nullable()
    .meta({ description: 'The correction, only when the postal code makes it certain and the address differs from it.' }),
  warnings: ZWarnings,
});
