import 'server-only';
import { defineJsonOperation } from '../operation';
import { BODY_ERRORS, errorAnswer, ref } from '../openapi/parts';
import { REPLAYED, REPLAYED_HEADERS } from '../replayed';
import {
  CONTAINER_MANIFEST_ALIASES,
  CONTAINER_MANIFEST_FIELDS,
  ZContainerManifestRequest,
  ZContainerManifestResponse,
} from '@/lib/schemas/container-manifest';
import { parseOperation } from '@/lib/schemas/parse';
import { containerDestinationWarnings } from '@/lib/addresses/destination-warnings';
import { ignoredFields } from '@/lib/schemas/unknown-fields';
import { createContainerManifest } from '@/lib/manifests/create-container-manifest';

export const createContainerManifestOperation = defineJsonOperation(ZContainerManifestResponse, {
  id: 'createContainerManifest',
  method: 'POST',
  path: '/wf/manifest',
  scope: 'manifests:write',
  tag: 'Manifests',
  summary: 'Create a container manifest',
  description:
    'Sending the same `ContainerID` again with an identical body returns the original `ManifestID` (safe retry); with a different body, 409 naming the existing ManifestID. ' +
    'Error bodies also carry `"IsSuccess": "false"`. Each package is priced at acceptance by the rate card version in force on the ManifestDate (or at the quote ' +
    'its `QuoteID`, or the header `QuoteID`, names while it still matches): `ChargeTotal` sums the priced ones; a package the card cannot price ' +
    "(no weight, an unknown service, AirSkip without the container's OriginAirport and DestinationAirport) is accepted unpriced, counted in `UnpricedCount`. " +
    'A destination whose city, state or country disagrees with its US ZIP or Canadian postal code (the check of `POST /addresses/validate`) never refuses a package either: each such field is a `warnings` entry (`ContainerDetails[3].ToCity`, …) naming the package; the first 50 packages with one are named, one more entry counts the rest.',
  requestBody: { required: true, content: { 'application/json': { schema: ref('ContainerManifestRequest') } } },
  success: {
    kind: 'json',
    status: 200,
    description: 'Created (or the identical retry).',
    headers: REPLAYED_HEADERS,
    example: {
      IsSuccess: 'true',
      ManifestID: 'MAN-7K3Q9X2M4T8V6W1Z',
      PackageCount: 2,
      ChargeTotal: '24.80',
      Currency: 'USD',
      PricedCount: 2,
      UnpricedCount: 0,
    },
  },
  errors: {
    '409': errorAnswer('The ContainerID or a tracking number is already used with a different body.'),
    ...BODY_ERRORS,
  },
  isSuccess: 'text',
  handler: async (context) => {
    const body = await context.json();
    const request = parseOperation(ZContainerManifestRequest, body, { aliases: CONTAINER_MANIFEST_ALIASES });
    const result = await createContainerManifest({
      accountId: context.auth.accountId,
      environment: context.environment,
      request,
    });
    const warnings = [
      ...ignoredFields(body, CONTAINER_MANIFEST_FIELDS),
      ...result.warnings,
      ...containerDestinationWarnings(request.packages),
    ];
    return {
      body: {
        IsSuccess: 'true' as const,
        ManifestID: result.manifestId,
        PackageCount: result.packageCount,
        ChargeTotal: result.charges.total,
        Currency: result.charges.currency,
        PricedCount: result.charges.priced,
        UnpricedCount: result.charges.unpriced,
        ...(warnings.length > 0 ? { warnings } : {}),
      },
      headers: result.created ? undefined : REPLAYED,
    };
  },
});
