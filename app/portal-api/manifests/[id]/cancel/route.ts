import { portalRoute } from '@/lib/portal/route';
import { cancelManifest } from '@/lib/lifecycle/change-status';
import { getManifest } from '@/lib/lifecycle/read';

// POST /portal-api/manifests/{id}/cancel: a container with its packages, or a daily manifest's still-manifested packages.
export const POST = portalRoute<{ id: string }>(async ({ accountId, environment, params }) => {
  const scope = { accountId, environment, manifestId: params.id };
  await cancelManifest(scope);
  return getManifest(scope);
});
