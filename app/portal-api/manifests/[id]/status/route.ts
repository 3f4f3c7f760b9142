import { portalRoute } from '@/lib/portal/route';
import { getManifest } from '@/lib/lifecycle/read';

// GET /portal-api/manifests/{id}/status: GET /manifests/{id}'s shape (status, package counts by status, totals).
export const GET = portalRoute<{ id: string }>(async ({ accountId, environment, params }) =>
  getManifest({ accountId, environment, manifestId: params.id }),
);
