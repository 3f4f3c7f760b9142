import 'server-only';
import { isDatabaseUnavailable } from '@/lib/db-errors';
import { log } from '@/lib/log';
import { logRepeated } from '@/lib/log-repeats';

// ± 20 % and a random first run, so that processes spread out; a run that filled its batch runs again at once.
export function startPeriodic(options: { name: string; intervalMs: number; run: () => Promise<boolean> }): { stop: () => void } {
  const { name, intervalMs } = options;
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
      again = await options.run();
    } catch (error) {
      if (isDatabaseUnavailable(error)) logRepeated(log, 'warn', `${name} waits for the database`, error, {}, { anyError: true });
      else log.error({ err: error }, `${name} failed`);
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
