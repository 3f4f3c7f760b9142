import { validationError } from '@/lib/errors/app-error';
import { getCloseOutSettings, isKnownTimeZone, setCloseOutSettings } from '@/lib/close-out/cutoff';
import { portalRoute, readBody } from '@/lib/portal/route';
import { ZCloseOutSettingsRequest } from '@/lib/schemas/close-out';
import type { TCloseOutSettingsResponse } from '@/lib/schemas/portal-responses';

// GET|PUT /portal-api/settings/close-out: the automatic close of daily manifests for the page's environment
// (cut-off hour 0–23 or null, and an IANA time zone). Each environment has its own.
export const GET = portalRoute(
  async ({ accountId, environment }): Promise<TCloseOutSettingsResponse> => getCloseOutSettings({ accountId, environment }),
  { permission: 'data:read' },
);

export const PUT = portalRoute(
  async ({ request, accountId, environment, origin }): Promise<TCloseOutSettingsResponse> => {
    const body = await readBody(request, ZCloseOutSettingsRequest);
    if (!(await isKnownTimeZone(body.time_zone)))
      throw validationError([{ path: 'time_zone', message: 'is not a time zone we know; use a name such as America/New_York' }]);
    return setCloseOutSettings({ accountId, environment, origin }, body);
  },
  { permission: 'settings:manage', audited: true },
);
