import 'server-only';
import { defineJsonOperation } from '../operation';
import { BODY_ERRORS, errorAnswer, jsonSchemaOf, NOT_FOUND, PATH_PARAMETERS } from '../openapi/parts';
import { amendPackage, readAmendment } from '@/lib/customs/amend-package';
import { ZAmendPackageRequest } from '@/lib/schemas/customs-api';
import { ZPackageResponse } from '@/lib/schemas/lifecycle';
import { getPackage } from '@/lib/shipments/read';
import { accountScope, pathParam } from '../context';

export const amendPackageOperation = defineJsonOperation(ZPackageResponse, {
  id: 'amendPackage',
  method: 'PATCH',
  path: '/packages/{TrackingNumber}',
  scope: 'manifests:write',
  tag: 'Customs',
  summary: "Amend a package's house data (customs declaration, consignee) until it leaves",
  description:
    'Until its container departs (a daily package: until it is in transit; not once cancelled or its manifest closed): then 409 `not_amendable`. ' +
    "Each field is checked by the rules of acceptance, every failing one named (422). The change is written with an event in the package's timeline (`package.amended`, naming the fields), " +
    "the `package.amended` webhook (in order with the package's other events) and an audit record; an amendment that changes nothing records nothing. " +
    'A new `Customs.HouseWaybill` must be free within its container (409 `conflict`); removing it has one issued (never one used before). ' +
    'The package as accepted stays its idempotency key: resending the original request is still answered as the same package.',
  parameters: [PATH_PARAMETERS.trackingNumber],
  requestBody: {
    required: true,
    content: {
      'application/json': {
        schema: jsonSchemaOf(ZAmendPackageRequest, 'input'),
        example: {
          ToPhone: '+49 30 1234567',
          Customs: {
            Items: [{ Description: 'Cotton T-shirt', Quantity: 2, Value: '12.50', HSCode: '610910', OriginCountry: 'CN' }],
            Currency: 'EUR',
          },
        },
      },
    },
  },
  success: { kind: 'json', status: 200, description: 'The package, amended.' },
  errors: {
    '404': NOT_FOUND,
    '409': errorAnswer(
      "`not_amendable` (with `current_status`): the house has left; `conflict`: the house waybill is another house's in this container.",
    ),
    '422': BODY_ERRORS['422']!,
  },
  handler: async (context) => {
    const amendment = readAmendment(await context.json());
    const target = { ...accountScope(context), trackingNumber: pathParam(context, 'TrackingNumber') };
    await amendPackage({ ...accountScope(context), identifier: target.trackingNumber, amendment, origin: context.origin });
    return { body: await getPackage(target) };
  },
});
