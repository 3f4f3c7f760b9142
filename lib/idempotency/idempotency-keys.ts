import 'server-only';
import { createHash } from 'node:crypto';
import { pgPool } from '@/lib/db';
import { startPeriodic } from '@/lib/jobs/periodic';
import type { Environment } from '@/lib/generated/prisma/enums';
import { execute, queryRow, sql } from '@/lib/sql';
import { openSecret, sealSecret } from '@/lib/webhooks/secret-box';
import { webhookSecretsKeyring } from '@/lib/webhooks/secrets-keyring';

// Stripe's semantics, per account and environment: a successful answer is kept KEPT_HOURS and given again to the same
// request; another request with the key is refused; a failure releases the key, so a corrected retry can run. An answer
// may hold a secret (a new endpoint's whsec_…), so it is stored sealed under the webhook secrets' key, as they are.

export const KEPT_HOURS = 24;

export interface KeyScope {
  accountId: string;
  environment: Environment;
  key: string;
}

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'replay'; status: number; body: string; headers: Record<string, string> }
  | { kind: 'mismatch' }
  | { kind: 'busy' };

/** What a sealed answer is bound to: it opens only as the answer of this key. */
const boxId = (scope: KeyScope) => `idempotency:${scope.accountId}:${scope.environment}:${scope.key}`;

export function requestHash(method: string, path: string, body: string): string {
  return createHash('sha256').update(`${method} ${path}\n`).update(body).digest('base64url');
}

export async function claimKey(scope: KeyScope & { hash: string }): Promise<Claim> {
  const pool = pgPool();
  // A key older than KEPT_HOURS is free again: the expired row goes in the same statement as the claim.
  const claimed = await queryRow(
    pool,
    sql<{ claimed: boolean }>`
      WITH expired AS (
        DELETE FROM idempotency_keys
        WHERE account_id = ${scope.accountId}::uuid AND environment = ${scope.environment}::"Environment" AND key = ${scope.key}
          AND created_at < now() - make_interval(hours => ${KEPT_HOURS})
      )
      INSERT INTO idempotency_keys (account_id, environment, key, request_hash)
      VALUES (${scope.accountId}::uuid, ${scope.environment}::"Environment", ${scope.key}, ${scope.hash})
      ON CONFLICT DO NOTHING RETURNING true AS claimed`,
  );
  if (claimed?.claimed) return { kind: 'claimed' };
  const row = await queryRow(
    pool,
    sql<{
      request_hash: string;
      status: number | null;
      response_body: string | null;
      response_headers: Record<string, string> | null;
    }>`
      SELECT request_hash, status, response_body, response_headers FROM idempotency_keys
      WHERE account_id = ${scope.accountId}::uuid AND environment = ${scope.environment}::"Environment" AND key = ${scope.key}`,
  );
  // Released between the two statements (the first request failed): the caller may try once more.
  if (!row) return { kind: 'busy' };
  if (row.request_hash !== scope.hash) return { kind: 'mismatch' };
  if (row.status === null) return { kind: 'busy' };
  const body = row.response_body ? openSecret(webhookSecretsKeyring(), boxId(scope), row.response_body) : '';
  return { kind: 'replay', status: row.status, body, headers: row.response_headers ?? {} };
}

export async function keepAnswer(
  scope: KeyScope & { status: number; body: string; headers: Record<string, string> },
): Promise<void> {
  await execute(
    pgPool(),
    sql`UPDATE idempotency_keys SET status = ${scope.status}, response_body = ${scope.body === '' ? '' : sealSecret(webhookSecretsKeyring(), boxId(scope), scope.body)}, response_headers = ${JSON.stringify(scope.headers)}::jsonb
        WHERE account_id = ${scope.accountId}::uuid AND environment = ${scope.environment}::"Environment" AND key = ${scope.key} AND status IS NULL`,
  );
}

export async function releaseKey(scope: KeyScope): Promise<void> {
  await execute(
    pgPool(),
    sql`DELETE FROM idempotency_keys
        WHERE account_id = ${scope.accountId}::uuid AND environment = ${scope.environment}::"Environment" AND key = ${scope.key} AND status IS NULL`,
  );
}

export async function purgeExpiredKeys(batch = 5_000): Promise<boolean> {
  const row = await queryRow(
    pgPool(),
    sql<{ n: number }>`WITH gone AS (
        DELETE FROM idempotency_keys WHERE ctid IN (
          SELECT ctid FROM idempotency_keys WHERE created_at < now() - make_interval(hours => ${KEPT_HOURS}) LIMIT ${batch}
        ) RETURNING 1
      ) SELECT count(*)::int AS n FROM gone`,
  );
  return (row?.n ?? 0) === batch;
}

export function startIdempotencyKeyPurge(intervalMs: number): { stop: () => void } {
  return startPeriodic({ name: 'idempotency key purge', intervalMs, run: () => purgeExpiredKeys() });
}
