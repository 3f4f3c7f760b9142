import { inject } from 'vitest';

// Test files create their own accounts and tokens directly in the run's database.
process.env.DATABASE_URL = inject('databaseUrl');
process.env.LOG_LEVEL ??= 'warn';

// Files share a worker's modules (vitest.config.ts) but not its connections: each starts with an empty fetch pool, as
// it did in a process of its own, so that no connection a hostile test left behind is reused by the next file.
const dispatcherKey = Symbol.for('undici.globalDispatcher.1');
const shared = globalThis as unknown as Record<symbol, { close(): Promise<void>; constructor: new () => unknown } | undefined>;
const previous = shared[dispatcherKey];
if (previous) {
  shared[dispatcherKey] = new previous.constructor() as typeof previous;
  void previous.close().catch(() => undefined);
}
