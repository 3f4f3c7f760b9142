import 'server-only';
import { AppError } from '@/lib/errors/app-error';
import { REPLAYED } from '../replayed';
import type { Operation } from '../types';
import {
  PACKAGE_MANIFEST_ALIASES,
  PACKAGE_MANIFEST_FIELDS,
  ZPackageManifestRequest,
  type TPackageManifestResponse,
} from '@/lib/schemas/package-manifest';
import { ignoredFields } from '@/lib/schemas/unknown-fields';
import { parseOperation } from '@/lib/schemas/parse';
import { createPackageManifest } from '@/lib/packages/create-package-manifest';

// POST /wf/package: one package, joined to its ManifestDate's manifest; IsSuccess is a boolean.
export const createPackageManifestOperation: Operation<TPackageManifestResponse> = async (context) => {
  const body = await context.json();
  assertOnePackage(body);
  const pkg = parseOperation(ZPackageManifestRequest, body, { aliases: PACKAGE_MANIFEST_ALIASES, at: 'package' });
  const result = await createPackageManifest({ accountId: context.auth.accountId, environment: context.environment, pkg });
  const warnings = ignoredFields(body, PACKAGE_MANIFEST_FIELDS);
  return {
    body: {
      IsSuccess: true,
      ManifestID: result.manifestId,
      TrackingNumber: pkg.TrackingNumber,
      ...(warnings.length > 0 ? { warnings } : {}),
    },
    headers: result.created ? undefined : REPLAYED,
  };
};

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
