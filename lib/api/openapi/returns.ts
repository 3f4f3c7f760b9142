import type { Json } from './parts';
import { PACKAGE_RETURN_CREATED_EVENT } from '@/lib/schemas/webhooks';

// The return webhook of the OpenAPI document (document.ts spreads it in); the payload is written by lib/returns.

const PACKAGE_REF: Json = {
  type: 'object',
  required: ['tracking_number', 'carrier_barcode'],
  properties: { tracking_number: { type: ['string', 'null'] }, carrier_barcode: { type: ['string', 'null'] } },
};

export function returnWebhooks(): Json {
  return {
    [PACKAGE_RETURN_CREATED_EVENT]: {
      post: {
        operationId: 'onPackageReturnCreated',
        summary: PACKAGE_RETURN_CREATED_EVENT,
        description:
          'Sent when a return package is made (POST /packages/{TrackingNumber}/return): `original` and `return` name both packages; `return.manifest_id` is the daily manifest it joined. `type` in the signed body; signed and retried as every event is.',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['type', 'original', 'return'],
                properties: {
                  type: { type: 'string', const: PACKAGE_RETURN_CREATED_EVENT },
                  original: PACKAGE_REF,
                  return: {
                    ...(PACKAGE_REF as object),
                    properties: { ...(PACKAGE_REF as { properties: object }).properties, manifest_id: { type: 'string' } },
                  },
                },
              },
            },
          },
        },
        responses: { '200': { description: 'Any 2xx acknowledges the delivery.' } },
      },
    },
  };
}
