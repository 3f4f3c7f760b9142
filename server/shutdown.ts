// The two halves of a process's stop that the API workers (server/server.ts) and the portal's process
// (server/portal.ts) share: letting an HTTP server's requests in flight finish, then what the process holds open.
import type { Server } from 'node:http';

/**
 * How long a stop waits for mail still being sent in the background, once requests have finished: within the
 * margin the supervisor leaves a process past its grace (server/start.ts), so that a slow SMTP server never turns
 * a stop into a kill.
 */
const MAIL_STOP_WAIT_MS = 4_000;

/** Stops accepting; requests in flight finish, up to `graceMs`, then their connections are closed. */
export async function drainServer(server: Server, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // Keep-alive connections that become idle after their last response are closed as they do.
  const idle = setInterval(() => server.closeIdleConnections(), 100);
  const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
  deadline.unref();
  await closed;
  clearInterval(idle);
  clearTimeout(deadline);
}

/** Once no request runs: the mail still being sent, the request log's last lines, then the database pools. */
export async function closeProcessResources(): Promise<void> {
  const { log } = await import('@/lib/log');
  // Mail the requests sent in the background (a sign-up's link), before the database it may be kept in closes.
  const { drainMail } = await import('@/lib/mail/send-mail');
  await drainMail(MAIL_STOP_WAIT_MS).catch((error: unknown) =>
    log.warn({ err: error }, 'mail: could not wait for the last messages'),
  );
  // The request log's last lines (lib/request-log/writer.ts), then its connection.
  const { closeRequestLog } = await import('@/lib/request-log/writer');
  await closeRequestLog().catch((error: unknown) => log.warn({ err: error }, 'request log: last lines not written'));
  const { db, pgPool } = await import('@/lib/db');
  await db.$disconnect().catch(() => undefined);
  await pgPool()
    .end()
    .catch(() => undefined);
  const { closeIndexOrderPool } = await import('@/lib/index-order');
  await closeIndexOrderPool();
  // Accepted packages wake other processes' delivery workers on the queue pool, with or without a worker here.
  const { closeQueuePool } = await import('@/lib/webhooks/queue-pool');
  await closeQueuePool();
}
