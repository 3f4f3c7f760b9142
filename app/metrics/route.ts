import { metricsNotServed, probeMethodNotAllowed } from '@/lib/probes/probe-method';

// /metrics under `next start`: the API's 404 envelope rather than the portal's not-found page (the production
// server answers /metrics itself, lib/probes/server-probes.ts, and never reaches this route).
export const dynamic = 'force-dynamic';

export const GET = metricsNotServed;
export {
  probeMethodNotAllowed as POST,
  probeMethodNotAllowed as PUT,
  probeMethodNotAllowed as PATCH,
  probeMethodNotAllowed as DELETE,
};
