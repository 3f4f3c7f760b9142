import 'server-only';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { queryRow, sql } from '@/lib/sql';
import { AppError } from '@/lib/errors/app-error';
import { errorBody } from '@/lib/http/errors';
export { publishedWorkerStatus } from '@/lib/telemetry/worker-status';

// On a connection of the probe's own, so a busy app pool does not make a live instance look dead. Concurrent probes
// share one query per check for PROBE_CACHE_MS; the webhook worker's part is read afresh, so a start is ready at once.

const PROBE_TIMEOUT_MS = 2_000;
const PROBE_CACHE_MS = 250;

export interface CheckResult {
  ok: boolean;
  message?: string;
}

export interface Readiness {
  ready: boolean;
  checks: { database: CheckResult; migrations: CheckResult; webhook_worker: CheckResult };
}

export interface WorkerStatus {
  running: boolean;
  /** Milliseconds since its last confirmed heartbeat; null: none yet, or lost. */
  heartbeatAgeMs: number | null;
  staleAfterMs: number;
}

const expected = new Map<string, string[]>();
function expectedMigrations(dir: string): string[] {
  let names = expected.get(dir);
  if (!names) {
    names = existsSync(dir)
      ? readdirSync(dir, { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => entry.name)
          .sort()
      : [];
    expected.set(dir, names);
  }
  return names;
}

export interface ReadinessProbe {
  check(worker: () => WorkerStatus | 'off'): Promise<Readiness>;
  close(): Promise<void>;
}

export function readinessProbe(
  databaseUrl: string,
  migrationsDir = path.join(process.cwd(), 'prisma', 'migrations'),
): ReadinessProbe {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 1,
    connectionTimeoutMillis: PROBE_TIMEOUT_MS,
    query_timeout: PROBE_TIMEOUT_MS,
    idleTimeoutMillis: 60_000,
    application_name: 'carrier readiness probe',
  });
  pool.on('error', () => undefined); // an idle probe connection lost: the next probe opens another
  let inFlight: Promise<{ database: CheckResult; migrations: CheckResult }> | undefined;
  let last: { at: number; result: { database: CheckResult; migrations: CheckResult } } | undefined;

  async function database(): Promise<{ database: CheckResult; migrations: CheckResult }> {
    const names = expectedMigrations(migrationsDir);
    try {
      const row = await queryRow(
        pool,
        sql<{ applied: string[] }>`SELECT coalesce(array_agg(migration_name), '{}') AS applied FROM _prisma_migrations
         WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL AND migration_name = ANY(${names}::text[])`,
      );
      const applied = new Set(row?.applied ?? []);
      const missing = names.filter((name) => !applied.has(name));
      return {
        database: { ok: true },
        migrations:
          missing.length === 0
            ? { ok: true }
            : { ok: false, message: `${missing.length} migration(s) not applied: ${missing.join(', ')}; run npm run db:migrate` },
      };
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      // Reachable, but no migrations table at all: never migrated.
      if ((error as { code?: unknown }).code === '42P01')
        return {
          database: { ok: true },
          migrations: { ok: false, message: 'the database has never been migrated; run npm run db:migrate' },
        };
      return {
        database: { ok: false, message: `unreachable: ${text.split('\n')[0]}` },
        migrations: { ok: false, message: 'unknown: the database is unreachable' },
      };
    }
  }

  function webhookWorker(status: WorkerStatus | 'off'): CheckResult {
    if (status === 'off') return { ok: true, message: 'off in this process (WEBHOOK_WORKER=off)' };
    if (!status.running) return { ok: false, message: 'not running' };
    if (status.heartbeatAgeMs === null || status.heartbeatAgeMs > status.staleAfterMs)
      return { ok: false, message: 'running, but its heartbeat is not confirmed (it claims nothing until it is)' };
    return { ok: true };
  }

  return {
    async check(worker) {
      let db = last && Date.now() - last.at < PROBE_CACHE_MS ? last.result : undefined;
      if (!db) {
        inFlight ??= database()
          .then((result) => {
            last = { at: Date.now(), result };
            return result;
          })
          .finally(() => {
            inFlight = undefined;
          });
        db = await inFlight;
      }
      const checks = { ...db, webhook_worker: webhookWorker(worker()) };
      return { ready: Object.values(checks).every((c) => c.ok), checks };
    },
    close: () => pool.end().catch(() => undefined),
  };
}

export function readinessAnswer(
  result: Readiness,
  requestId: string,
): { status: number; headers: Record<string, string>; body: unknown } {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    'x-request-id': requestId,
  };
  const summary = { status: result.ready ? 'ready' : 'not_ready', checks: result.checks };
  if (result.ready) return { status: 200, headers, body: summary };
  const failed = Object.entries(result.checks).filter(([, check]) => !check.ok);
  const error = new AppError(
    'service_unavailable',
    `Not ready: ${failed.map(([name, check]) => `${name} ${check.message ?? 'failed'}`).join('; ')}.`,
    {
      details: failed.map(([name, check]) => ({ path: name, message: check.message ?? 'failed' })),
    },
  );
  return { status: 503, headers: { ...headers, 'retry-after': '1' }, body: { ...errorBody(error, requestId), ...summary } };
}
