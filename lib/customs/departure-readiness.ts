import 'server-only';
import type { Environment } from '@/lib/generated/prisma/enums';
import { pgPool } from '@/lib/db';
import { queryRows, sql } from '@/lib/sql';
import { getCustomsReadiness } from './get-readiness';

/** A departure scan's refusal, as a scan result names it. */
export interface DepartureRefusal {
  code: 'customs_not_ready';
  message: string;
  details: { path: string; message: string }[];
}

/**
 * For each live container about to depart whose shipper enforces readiness: why it may not (its regimes that apply
 * and are not ready), keyed by the container's ManifestID; a container that may depart is absent. The test path is
 * never held: it shows readiness, and a shipper tries its data there first.
 */
export async function departureReadiness(
  environment: Environment,
  containers: readonly { id: string; accountId: string; containerId: string }[],
): Promise<Map<string, DepartureRefusal>> {
  const held = new Map<string, DepartureRefusal>();
  if (environment !== 'live' || containers.length === 0) return held;
  const enforcing = await queryRows(
    pgPool(),
    sql<{ account_id: string }>`SELECT account_id FROM customs_settings
      WHERE enforce_readiness AND account_id = ANY(${[...new Set(containers.map((c) => c.accountId))]}::uuid[])`,
  );
  const accounts = new Set(enforcing.map((r) => r.account_id));
  for (const container of containers.filter((c) => accounts.has(c.accountId))) {
    const readiness = await getCustomsReadiness({ accountId: container.accountId, environment, manifestId: container.id });
    if (readiness.ready) continue;
    const regimes = readiness.regimes.filter((r) => r.applies && !r.ready);
    held.set(container.id, {
      code: 'customs_not_ready',
      message: `Container ${container.containerId} is not ready for ${regimes.map((r) => r.name).join(', ')}: the shipper requires readiness before departure (GET /manifests/${container.id}/customs lists what is missing).`,
      details: regimes.map((r) => ({
        path: `regimes.${r.regime}`,
        message: `${r.problem_count.toLocaleString('en-US')} problem(s); most by field: ${Object.entries(r.by_field)
          .slice(0, 3)
          .map(([field, n]) => `${field} ${n}`)
          .join(', ')}`,
      })),
    });
  }
  return held;
}
