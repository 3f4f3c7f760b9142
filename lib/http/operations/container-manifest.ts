import 'server-only';
import { REPLAYED } from '../replayed';
import type { Operation } from '../types';
import {
  CONTAINER_MANIFEST_ALIASES,
  CONTAINER_MANIFEST_FIELDS,
  ZContainerManifestRequest,
  type TContainerManifestResponse,
} from '@/lib/schemas/container-manifest';
import { parseOperation } from '@/lib/schemas/parse';
import { ignoredFields } from '@/lib/schemas/unknown-fields';
import { createContainerManifest } from '@/lib/manifests/create-container-manifest';

// POST /wf/manifest: store a container and its packages; IsSuccess is the text "true".
export const createContainerManifestOperation: Operation<TContainerManifestResponse> = async (context) => {
  const body = await context.json();
  const request = parseOperation(ZContainerManifestRequest, body, { aliases: CONTAINER_MANIFEST_ALIASES });
  const result = await createContainerManifest({ accountId: context.auth.accountId, environment: context.environment, request });
  const warnings = ignoredFields(body, CONTAINER_MANIFEST_FIELDS);
  return {
    body: {
      IsSuccess: 'true',
      ManifestID: result.manifestId,
      PackageCount: result.packageCount,
      ...(warnings.length > 0 ? { warnings } : {}),
    },
    headers: result.created ? undefined : REPLAYED,
  };
};
