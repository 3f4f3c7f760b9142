import 'server-only';
import { publishWorkerStatus } from '@/lib/telemetry/worker-status';
import { startWebhookWorker } from './worker';

/** The in-app worker of `next start` / `next dev` (see instrumentation.ts). */
export function startWorkerInApp(): void {
  const worker = startWebhookWorker();
  // GET /readyz under `next start` (app/readyz/route.ts) reads it from here.
  publishWorkerStatus(() => worker.status());
  // Next exits on SIGTERM without waiting; an attempt cut short is retried after its lease.
  process.once('SIGTERM', () => {
    const alone = process.listenerCount('SIGTERM') === 0;
    void worker.stop().finally(() => {
      if (alone) process.exit(0);
    });
  });
}
