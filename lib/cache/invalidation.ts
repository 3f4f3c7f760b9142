import 'server-only';
import pg from 'pg';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { logRepeated } from '@/lib/log-repeats';
import { execute, sql } from '@/lib/sql';

// Triggers pg_notify('cache_invalidation', <topic>) on changes by any instance or by hand; one LISTEN per process fans
// them out. A lost connection tells every subscriber to drop everything, since a notification may have been missed.

type Listener = (payload: string | null) => void;

const CHANNEL = 'cache_invalidation';
const listeners = new Set<Listener>();
let client: pg.Client | undefined;
let connecting: Promise<void> | undefined;
let retryMs = 500;

function broadcast(payload: string | null): void {
  for (const listener of listeners) listener(payload);
}

async function connect(): Promise<void> {
  const next = new pg.Client({ connectionString: env().DATABASE_URL, connectionTimeoutMillis: 5_000 });
  next.on('notification', (message) => broadcast(message.payload ?? null));
  next.on('error', (error) => {
    logRepeated(log, 'warn', 'cache invalidation listener lost its connection', error, {}, { anyError: true });
    reset(next);
  });
  next.on('end', () => reset(next));
  await next.connect();
  await execute(next, sql`LISTEN ${sql.id(CHANNEL)}`);
  client = next;
  retryMs = 500;
}

function reset(stale: pg.Client): void {
  if (client !== stale) return;
  client = undefined;
  broadcast(null);
  scheduleConnect();
}

function scheduleConnect(): void {
  if (connecting || client || listeners.size === 0) return;
  connecting = connect()
    .catch((error: Error) => {
      logRepeated(log, 'warn', 'cache invalidation listener could not connect', error, { retryMs }, { anyError: true });
      const delay = retryMs;
      retryMs = Math.min(retryMs * 2, 30_000);
      setTimeout(scheduleConnect, delay).unref();
    })
    .finally(() => {
      connecting = undefined;
    });
}

/** Calls `listener(topic)` on each notification, and `listener(null)` when notifications may have been missed. */
export function onCacheInvalidation(listener: Listener): () => void {
  listeners.add(listener);
  scheduleConnect();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && client) {
      const closing = client;
      client = undefined;
      closing.end().catch(() => undefined);
    }
  };
}
