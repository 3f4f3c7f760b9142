import 'server-only';
import { defineJsonOperation } from '../operation';
import { BODY_ERRORS, jsonSchemaOf } from '../openapi/parts';
import { validateAddress } from '@/lib/addresses/validate-address';
import { ADDRESS_FIELDS, ZAddressValidationRequest, ZAddressValidationResponse } from '@/lib/schemas/address';
import { parseOperation } from '@/lib/schemas/parse';
import { ignoredFields } from '@/lib/schemas/unknown-fields';

export const validateAddressOperation = defineJsonOperation(ZAddressValidationResponse, {
  id: 'validateAddress',
  method: 'POST',
  path: '/addresses/validate',
  scope: 'rates',
  tag: 'Addresses',
  summary: 'Check an address against its postal code',
  description:
    "Whether a US ZIP agrees with the city and state, and a Canadian postal code with the province or territory, from the ZIP and forward-sortation-area dataset the app ships (the `zipcodes` package) and ISO 3166-2's subdivision names. The street is not checked. A disagreement is an answer (`valid: false`, each field in `messages`, and `suggestion` when the postal code makes the correction certain), never a refusal: manifests and packages with such an address are accepted as the contract requires.",
  requestBody: {
    required: true,
    content: {
      'application/json': {
        schema: jsonSchemaOf(ZAddressValidationRequest, 'input'),
        example: { address1: '9450 Wilshire Blvd', city: 'Toronto', state: 'ON', postal_code: '90210', country: 'US' },
      },
    },
  },
  success: {
    kind: 'json',
    status: 200,
    description: 'The check.',
    example: {
      valid: false,
      country: 'US',
      messages: [
        { path: 'city', message: 'is "Toronto", but ZIP 90210 is Beverly Hills, CA' },
        { path: 'state', message: 'is "ON", but ZIP 90210 is in CA' },
      ],
      suggestion: { city: 'Beverly Hills', state: 'CA', postal_code: '90210', country: 'US' },
    },
  },
  errors: BODY_ERRORS,
  handler: async (context) => {
    const body = await context.json();
    const check = validateAddress(parseOperation(ZAddressValidationRequest, body));
    const warnings = ignoredFields(body, ADDRESS_FIELDS);
    return { body: { ...check, ...(warnings.length > 0 ? { warnings } : {}) } };
  },
});
