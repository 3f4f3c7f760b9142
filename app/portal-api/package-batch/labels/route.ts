import { validationError } from '@/lib/errors/app-error';
import { CONTENT_TYPES } from '@/lib/documents/negotiate-format';
import { selectionLabels } from '@/lib/portal/package-batch';
import { portalRoute, readBody } from '@/lib/portal/route';
import { ZPackageSelection } from '@/lib/schemas/package-selection';

// POST /portal-api/package-batch/labels?format=pdf|zpl: the selected packages' labels as one document.
export const POST = portalRoute(
  async ({ request, accountId, environment }) => {
    const format = new URL(request.url).searchParams.get('format') ?? 'pdf';
    if (format !== 'pdf' && format !== 'zpl') throw validationError([{ path: 'format', message: 'must be pdf or zpl' }]);
    const selection = await readBody(request, ZPackageSelection);
    const bytes = await selectionLabels({ accountId, environment, selection, format });
    const day = new Date().toISOString().slice(0, 10);
    return new Response(new Uint8Array(bytes), {
      headers: {
        'content-type': CONTENT_TYPES[format],
        'content-disposition': `attachment; filename="labels-${environment}-${day}.${format}"`,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      },
    });
  },
  { permission: 'data:read' },
);
