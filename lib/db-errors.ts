// Answered 503 and retried by the client, not a bug's 500. Driver adapters wrap the pg error, so the cause chain is searched.
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53300',
  // A write on a primary that was demoted under it (a switchover): the next connection reaches the new one.
  '25006',
  'P1001',
  'P1002',
  'P1017',
  'P2024',
]);
const UNAVAILABLE_MESSAGES =
  /connection terminated|is not queryable|timeout exceeded when trying to connect|connection refused|terminating connection|Can't reach database|Connection is closed|DatabaseNotReachable|the database system is (starting up|shutting down)/i;

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 6) return false;
  const e = error as { code?: unknown; message?: unknown; cause?: unknown; kind?: unknown; originalCode?: unknown };
  if (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) return true;
  if (typeof e.originalCode === 'string' && UNAVAILABLE_CODES.has(e.originalCode)) return true;
  if (e.kind === 'DatabaseNotReachable' || e.kind === 'ConnectionClosed') return true;
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message)) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}

// PostgreSQL's word that it stops or starts on purpose: a session ended by an administrator command (a fast shutdown,
// as a switchover or a restart makes) or a connection refused while it shuts down or starts up. A crash or a cut link
// says nothing of the kind.
const PLANNED_CODES = new Set(['57P01', '57P03']);
const PLANNED_MESSAGES =
  /terminating connection due to administrator command|the database system is (starting up|shutting down)/i;

function isPlannedStop(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 6) return false;
  const e = error as { code?: unknown; message?: unknown; cause?: unknown; originalCode?: unknown };
  if (typeof e.code === 'string' && PLANNED_CODES.has(e.code)) return true;
  if (typeof e.originalCode === 'string' && PLANNED_CODES.has(e.originalCode)) return true;
  if (typeof e.message === 'string' && PLANNED_MESSAGES.test(e.message)) return true;
  return isPlannedStop(e.cause, depth + 1);
}

// On globalThis: the API's and Next's copies of this module hear the same database.
const PLANNED_AT = Symbol.for('carrier.databasePlannedStopAt');
type Global = typeof globalThis & { [PLANNED_AT]?: number };

/** Remembers when an error a connection or a query met was PostgreSQL saying it stops or starts on purpose. */
export function noteDatabaseError(error: unknown, now = Date.now()): void {
  if (isPlannedStop(error)) (globalThis as Global)[PLANNED_AT] = now;
}

/** Whether PostgreSQL said within the last `ms` that it stops or starts on purpose. */
export function plannedStopWithin(ms: number, now = Date.now()): boolean {
  const at = (globalThis as Global)[PLANNED_AT];
  return at !== undefined && now - at <= ms;
}

/**
 * A planned primary change (a switchover, a restart) leaves no primary for a few seconds, and PostgreSQL says so first:
 * it ends sessions "due to administrator command" and refuses new ones while it shuts down or starts up. After such a
 * word (within PLANNED_STOP_MS), opening a connection is retried until the database has been unreachable for
 * RIDE_OUT_MS, then requests fail at once (503). A database that went away without a word (a cut link, a crash) is
 * answered 503 at once: no request waits for a primary that is not being replaced. Only opening is retried, so nothing
 * runs twice. Here, not in lib/db.ts, so that the document render thread's own connection rides it out too.
 */
const RIDE_OUT_MS = 5_000;
const PLANNED_STOP_MS = 60_000;
const RETRY_MS = 250;
let unreachableSince: number | undefined;

export async function connectRidingOut<Client>(connect: () => Promise<Client>): Promise<Client> {
  for (;;) {
    try {
      const client = await connect();
      unreachableSince = undefined;
      return client;
    } catch (error) {
      // A connect timeout has waited its share already, and may mean a busy pool rather than an absent database.
      const timedOut = error instanceof Error && /timeout exceeded when trying to connect|^timeout expired$/i.test(error.message);
      if (!isDatabaseUnavailable(error) || timedOut) throw error;
      noteDatabaseError(error);
      if (!plannedStopWithin(PLANNED_STOP_MS)) throw error;
      unreachableSince ??= Date.now();
      if (Date.now() - unreachableSince >= RIDE_OUT_MS) throw error;
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
}
