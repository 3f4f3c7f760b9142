import { closeManifest } from '@/lib/close-out/close-manifest';
import { getManifest } from '@/lib/lifecycle/read';
import { portalRoute } from '@/lib/portal/route';

// POST /portal-api/manifests/{id}/close: the portal's "Close manifest", the same close as POST /manifests/{id}/close
// (a daily manifest; idempotent; 409 not_closable for a container or a cancelled one). Answers the closed manifest.
export const POST = portalRoute<{ id: string }>(async ({ accountId, environment, params }) => {
  const scope = { accountId, environment, manifestId: params.id };
  await closeManifest(scope);
  return getManifest(scope);
});
