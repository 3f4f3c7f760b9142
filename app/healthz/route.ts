import { randomUUID } from 'node:crypto';

// GET /healthz: the process answers (liveness), under `next start`; the production server answers it itself (lib/probes/server-probes.ts).
export const dynamic = 'force-dynamic';

export function GET() {
  return Response.json(
    { status: 'ok' },
    { headers: { 'cache-control': 'no-store', 'x-request-id': `req_${randomUUID().replaceAll('-', '')}` } },
  );
}

// Any other method: the probes' 405 envelope (lib/probes/probe-method.ts), as the production server answers.
export {
  probeMethodNotAllowed as POST,
  probeMethodNotAllowed as PUT,
  probeMethodNotAllowed as PATCH,
  probeMethodNotAllowed as DELETE,
} from '@/lib/probes/probe-method';
