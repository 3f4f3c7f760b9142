import 'server-only';
import { AppError } from '@/lib/errors/app-error';
import { defineJsonOperation } from '../operation';
import { BODY_ERRORS, errorAnswer, ref } from '../openapi/parts';
import { PACKAGE_EXAMPLE } from '../openapi/examples';
import { REPLAYED, REPLAYED_HEADERS } from '../replayed';
import {
  PACKAGE_MANIFEST_ALIASES,
  PACKAGE_MANIFEST_FIELDS,
  ZPackageManifestRequest,
  ZPackageManifestResponse,
} from '@/lib/schemas/package-manifest';
import { ignoredFields } from '@/lib/schemas/unknown-fields';
import { parseOperation } from '@/lib/schemas/parse';
import { createPackageManifest } from '@/lib/packages/create-package-manifest';
import { addDestinationWarnings } from '@/lib/addresses/destination-warnings';

export const createPackageManifestOperation = defineJsonOperation(ZPackageManifestResponse, {
  id: 'createPackageManifest',
  method: 'POST',
  path: '/wf/package',
  scope: 'manifests:write',
  tag: 'Manifests',
  summary: 'Create a package manifest',
  description:
    "Exactly one package under `package` (an array: 422 `one_package_per_request`). The package joins the account's manifest for its ManifestDate, and a `package.sorting` " +
    'notification goes to every enabled endpoint. It is priced at acceptance (`charge`): at the quote its `QuoteID` names while that still matches it, else by the rate card version in force on its ManifestDate; ' +
    "a service without a card or a lane the card cannot price is accepted all the same, `charge.status` `unpriced` with the reason. A QuoteID that does not hold (expired, altered, another account's, not matching) never refuses the package: `warnings` says why. " +
    'Nor does a destination whose city, state or country disagrees with its US ZIP or Canadian postal code (the check of `POST /addresses/validate`): each such field is a `warnings` entry (`package.ToCity`, …) naming the package. The same TrackingNumber again: identical body → 200 with nothing duplicated; different body → 409. Error bodies also carry `"IsSuccess": false`.',
  requestBody: {
    required: true,
    content: { 'application/json': { schema: ref('PackageManifestRequest'), example: { package: PACKAGE_EXAMPLE } } },
  },
  success: {
    kind: 'json',
    status: 200,
    description: 'Accepted (or the identical retry).',
    headers: REPLAYED_HEADERS,
    example: { IsSuccess: true, ManifestID: 'MAN-7K3Q9X2M4T8V6W1Z', TrackingNumber: '1Z999AA10123456784' },
  },
  errors: { '409': errorAnswer('The TrackingNumber is already used with a different body.'), ...BODY_ERRORS },
  isSuccess: 'boolean',
  handler: async (context) => {
    const body = await context.json();
    assertOnePackage(body);
    const pkg = parseOperation(ZPackageManifestRequest, body, { aliases: PACKAGE_MANIFEST_ALIASES, at: 'package' });
    const result = await createPackageManifest({ accountId: context.auth.accountId, environment: context.environment, pkg });
    const warnings = [...ignoredFields(body, PACKAGE_MANIFEST_FIELDS), ...result.warnings];
    addDestinationWarnings(warnings, pkg, 'package');
    return {
      body: {
        IsSuccess: true,
        ManifestID: result.manifestId,
        TrackingNumber: pkg.TrackingNumber,
        ...(result.charge ? { charge: result.charge } : {}),
        ...(warnings.length > 0 ? { warnings } : {}),
      },
      headers: result.created ? undefined : REPLAYED,
    };
  },
});

function assertOnePackage(body: unknown): void {
  const many =
    Array.isArray(body) ||
    (typeof body === 'object' &&
      body !== null &&
      (Array.isArray((body as Record<string, unknown>).package) || 'packages' in body));
  if (many) {
    throw new AppError('one_package_per_request', 'Send exactly one package object under "package" per request.', {
      details: [{ path: 'package', message: 'must be a single object, not an array' }],
    });
  }
}
