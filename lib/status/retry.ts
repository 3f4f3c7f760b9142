import 'server-only';

const DEADLOCK = '40P01';

/** Writers lock in one global order (engine.ts), so a deadlock should not happen; if PostgreSQL ever picks us, try again. */
export async function withDeadlockRetry<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || (error as { code?: unknown }).code !== DEADLOCK) throw error;
    }
  }
}
