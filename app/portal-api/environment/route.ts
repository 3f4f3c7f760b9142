import { readBody, portalRoute } from '@/lib/portal/route';
import { setEnvironment } from '@/lib/portal/environment';
import { ZEnvironmentRequest } from '@/lib/portal/schemas';

// PUT /portal-api/environment: the header's test/live switch.
export const PUT = portalRoute(async ({ request }) => {
  const { environment } = await readBody(request, ZEnvironmentRequest);
  await setEnvironment(environment);
  return { environment };
});
