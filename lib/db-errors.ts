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
