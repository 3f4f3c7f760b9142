import 'server-only';
import { REPLAYED } from '../replayed';
import type { Operation } from '../types';
import { CONTAINER_MANIFEST_ALIASES, ZContainerManifestRequest, type TContainerManifestResponse } from '@/lib/schemas/container-manifest';
import { parseOperation } from '@/lib/schemas/parse';
import { createContainerManifest } from '@/lib/manifests/create-container-manifest';

// POST /wf/manifest: store a container and its packages; IsSuccess is the text "true".
export const createContainerManifestOperation: Operation<TContainerManifestResponse> = async (context) => {
  const request = parseOperation(ZContainerManifestRequest, await context.json(), { aliases: CONTAINER_MANIFEST_ALIASES });
  const result = await createContainerManifest({ accountId: context.auth.accountId, environment: context.environment, request });
  return {
    body: { IsSuccess: 'true', ManifestID: result.manifestId, PackageCount: result.packageCount },
    headers: result.created ? undefined : REPLAYED,
  };
};
