import 'server-only';
import { startPeriodic } from '@/lib/jobs/periodic';
import { log } from '@/lib/log';
import { closeDueManifests } from './cutoff';

export function startCloseOutTimer(intervalMs: number): { stop: () => void } {
  return startPeriodic({
    name: 'automatic close-out',
    intervalMs,
    run: async () => {
      const closed = await closeDueManifests({ now: new Date(), limit: 200 });
      if (closed.length > 0) log.info({ closed: closed.length }, 'closed daily manifests at their cut-off');
      return closed.length >= 200;
    },
  });
}
