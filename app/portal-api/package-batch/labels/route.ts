import { validationError } from '@/lib/errors/app-error';
import { CONTENT_TYPES } from '@/lib/documents/negotiate-format';
import { linkSelection, selectionLabels } from '@/lib/portal/package-batch';
import { portalRoute, readBody, type PortalContext } from '@/lib/portal/route';
import { ZPackageSelection, type TPackageSelection } from '@/lib/schemas/package-selection';

async function labels({ request, accountId, environment }: PortalContext<Record<string, never>>, selection: TPackageSelection) {
  const format = new URL(request.url).searchParams.get('format') ?? 'pdf';
  if (format !== 'pdf' && format !== 'zpl') throw validationError([{ path: 'format', message: 'must be pdf or zpl' }]);
  const body = await selectionLabels({ accountId, environment, selection, format });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      'content-type': CONTENT_TYPES[format],
      'content-disposition': `attachment; filename="labels-${environment}-${day}.${format}"`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}

// GET /portal-api/package-batch/labels?format=pdf|zpl&(ids=<packed>|<GET /packages's filters>): a download link.
export const GET = portalRoute((context) => labels(context, linkSelection(context.request.url)), { permission: 'data:read' });

// POST /portal-api/package-batch/labels?format=pdf|zpl: the same for a selection too large for a link.
export const POST = portalRoute(async (context) => labels(context, await readBody(context.request, ZPackageSelection)), {
  permission: 'data:read',
});
