import 'server-only';
import { isDatabaseUnavailable } from '@/lib/db-errors';
import { log } from '@/lib/log';
import { logRepeated } from '@/lib/log-repeats';
import { closeDueManifests } from './cutoff';

/**
 * Runs the automatic close-out every `intervalMs` (± 20 % so that processes spread out) in this process, until
 * stopped. Each run closes what is due (cutoff.ts); a run that fills its batch runs again at once. Errors are logged
 * (a database outage once per interval, lib/log-repeats.ts) and the next run tries again.
 */
export function startCloseOutTimer(intervalMs: number): { stop: () => void } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => void run(), ms);
    timer.unref();
  };
  const run = async () => {
    let again = false;
    try {
      const closed = await closeDueManifests({ now: new Date(), limit: 200 });
      if (closed.length > 0) log.info({ closed: closed.length }, 'closed daily manifests at their cut-off');
      again = closed.length >= 200;
    } catch (error) {
      // While PostgreSQL is away this fails every run: one line per interval with a count, no stack.
      if (isDatabaseUnavailable(error)) logRepeated(log, 'warn', 'automatic close-out waits for the database', error, {}, { anyError: true });
      else log.error({ err: error }, 'automatic close-out failed');
    }
    schedule(again ? 0 : intervalMs * (0.8 + Math.random() * 0.4));
  };
  schedule(intervalMs * Math.random());
  return {
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
