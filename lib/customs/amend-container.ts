import 'server-only';
import { recordAudit, type AuditOrigin } from '@/lib/audit/record-audit';
import { canonicalJson } from '@/lib/canonical-hash';
import { pgTransaction } from '@/lib/db';
import type { Environment } from '@/lib/generated/prisma/enums';
import { AppError, validationError, type ErrorDetail } from '@/lib/errors/app-error';
import { CONTAINER_AMENDABLE_FIELDS, ZContainerAmendment, type ContainerAmendableField } from '@/lib/schemas/container-manifest';
import { formatPath } from '@/lib/schemas/parse';
import { execute, queryRow, sql } from '@/lib/sql';
import { Changes, persist } from '@/lib/status/engine';
import { withDeadlockRetry } from '@/lib/status/retry';
import { isContainerStatus, isCustomsOutcome } from '@/lib/status/transitions';

// Amending a container's air cargo header (PATCH /manifests/{id}): its master waybill (AWB), ULD, seal, flight and
// airports, and security declaration, what the filings of its houses hang on, until it departs. Then 409
// not_amendable. The container row is locked FOR UPDATE, as a departure locks it: one waits for the other. Each
// field is checked by the rule it had at acceptance; sent empty or null, an optional field is removed. The header
// (and the awb column) written, an event of the container (container.amended, naming the fields, and its webhook)
// and an audit record. Readiness is computed from the stored header on every read, so it follows at once.
// (docs/decisions/customs.md "Amendments")

interface Scope {
  accountId: string;
  environment: Environment;
}

/** Until it departs: the flight it is filed for may still change. */
const AMENDABLE = new Set(['manifested', 'received']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function blank(value: unknown): boolean {
  return value === null || (typeof value === 'string' && value.trim() === '');
}

/** The body: an object naming at least one amendable header field and nothing else; every wrong key named at once. */
export function readContainerAmendment(body: unknown): Partial<Record<ContainerAmendableField, unknown>> {
  const list = CONTAINER_AMENDABLE_FIELDS.join(', ');
  if (!isRecord(body)) throw validationError([{ path: '(body)', message: `must be an object of the fields to amend: ${list}` }]);
  const details: ErrorDetail[] = [];
  let unknown = 0;
  for (const key of Object.keys(body)) {
    if ((CONTAINER_AMENDABLE_FIELDS as readonly string[]).includes(key)) continue;
    if (++unknown <= 20)
      details.push({ path: formatPath([key]), message: `cannot be amended: only ${list} (the air cargo header) can` });
  }
  if (unknown > 20)
    details.push({ path: '(body)', message: `has ${unknown} fields that cannot be amended; the first 20 are named` });
  if (details.length > 0) throw validationError(details);
  const fields = Object.fromEntries(Object.entries(body).filter(([key]) => key !== '__proto__'));
  if (Object.keys(fields).length === 0)
    throw validationError([{ path: '(body)', message: `names nothing to amend: send one or more of ${list}` }]);
  return fields;
}

/** PATCH /manifests/{id}: amends the container's header; resolves to the fields that changed (none: nothing recorded). */
export async function amendContainer(
  options: Scope & {
    manifestId: string;
    amendment: Partial<Record<ContainerAmendableField, unknown>>;
    origin: AuditOrigin;
  },
): Promise<{ changed: string[] }> {
  return withDeadlockRetry(() =>
    pgTransaction(async (client) => {
      const inScope = sql`account_id = ${options.accountId}::uuid AND environment = ${options.environment}::"Environment" AND id = ${options.manifestId}`;
      const row = await queryRow(
        client,
        sql<{
          id: string;
          container_id: string;
          status: string;
          status_updated_at: Date;
          customs_status: string | null;
          customs_status_updated_at: Date | null;
          header: Record<string, unknown> | null;
        }>`SELECT id, container_id, status, status_updated_at, customs_status, customs_status_updated_at, header
           FROM container_manifests WHERE ${inScope} FOR UPDATE`,
      );
      if (!row) {
        const daily = await queryRow(client, sql<{ id: string }>`SELECT id FROM daily_manifests WHERE ${inScope}`);
        if (daily)
          throw new AppError(
            'not_amendable',
            `Manifest ${options.manifestId} is a daily manifest: it has no air cargo header; amend its packages (PATCH /packages/{TrackingNumber}).`,
            { extra: { current_status: 'daily' } },
          );
        throw new AppError('not_found', `No manifest ${options.manifestId} in this account and environment.`);
      }
      if (!isContainerStatus(row.status)) throw new Error(`stored container status ${row.status} is not in the table`);
      if (!AMENDABLE.has(row.status))
        throw new AppError(
          'not_amendable',
          `Container ${row.container_id} is ${row.status}: its header went with the flight and can no longer be amended.`,
          { extra: { current_status: row.status } },
        );

      const header: Record<string, unknown> = { ...row.header };
      const next: Record<string, unknown> = { ...header };
      const details: ErrorDetail[] = [];
      for (const [field, value] of Object.entries(options.amendment) as [ContainerAmendableField, unknown][]) {
        if (blank(value)) {
          delete next[field];
          continue;
        }
        const parsed = ZContainerAmendment.shape[field].safeParse(value);
        if (!parsed.success) {
          for (const issue of parsed.error.issues)
            details.push({ path: formatPath([field, ...issue.path]), message: issue.message });
        } else if (parsed.data === undefined) delete next[field];
        else next[field] = parsed.data;
      }
      if (details.length > 0) throw validationError(details);
      const fields = CONTAINER_AMENDABLE_FIELDS.filter((f) => canonicalJson(header[f]) !== canonicalJson(next[f]));
      if (fields.length === 0) return { changed: [] };

      const awb = typeof next.AWB === 'string' ? next.AWB : null;
      await execute(
        client,
        sql`UPDATE container_manifests SET header = ${JSON.stringify(next)}::jsonb, awb = ${awb} WHERE id = ${row.id}`,
      );
      const changes = new Changes();
      changes.amendContainer(
        {
          id: row.id,
          accountId: options.accountId,
          environment: options.environment,
          containerId: row.container_id,
          status: row.status,
          statusUpdatedAt: row.status_updated_at,
          customsStatus: row.customs_status !== null && isCustomsOutcome(row.customs_status) ? row.customs_status : null,
          customsStatusUpdatedAt: row.customs_status_updated_at,
          packages: [],
        },
        { fields },
        { occurredAt: new Date(), location: null, source: 'api' },
      );
      await persist(client, changes);
      await recordAudit(
        options.origin,
        {
          accountId: options.accountId,
          environment: options.environment,
          action: 'container.amended',
          target: { type: 'manifest', id: row.id },
          details: {
            container_id: row.container_id,
            fields,
          },
        },
        client,
      );
      return { changed: fields };
    }),
  );
}
