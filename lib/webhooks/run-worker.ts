import 'server-only';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { publishWorkerStatus } from '@/lib/telemetry/worker-status';
import { startWebhookWorker, type WebhookWorker } from './worker';

// The one way this process's delivery worker starts, from each entrance: the production server (server/server.ts,
// which stops it in its own shutdown, after the requests in flight), `next start` (instrumentation.ts) and
// `npm run worker` (server/worker.ts). Kept on `process`: under the production server Next's bundle has its own copy
// of this module and its own global object, and its instrumentation must find the worker the server started.
const RUNNING = Symbol.for('carrier.webhookWorker');
type WithWorker = NodeJS.Process & { [RUNNING]?: WebhookWorker };

/**
 * Starts the worker unless WEBHOOK_WORKER=off (then undefined) or one already runs in this process, and publishes its
 * status for /readyz. `stopOnSignals`: SIGTERM/SIGINT stop it, and end the process when nothing else listens for them.
 */
export function runWebhookWorker(options: { stopOnSignals: boolean }): WebhookWorker | undefined {
  if (env().WEBHOOK_WORKER === 'off') return undefined;
  const holder = process as WithWorker;
  const running = holder[RUNNING];
  if (running) return running;
  const worker = startWebhookWorker();
  holder[RUNNING] = worker;
  publishWorkerStatus(() => worker.status());
  if (options.stopOnSignals) {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.once(signal, () => {
        // Next exits on SIGTERM without waiting (an attempt cut short is retried after its lease); alone, we end it.
        const alone = process.listenerCount(signal) === 0;
        log.info({ signal }, 'webhook worker stopping');
        worker.stop().then(
          () => alone && process.exit(0),
          (error: unknown) => {
            log.error({ err: error }, 'webhook worker failed to stop cleanly');
            if (alone) process.exit(1);
          },
        );
      });
    }
  }
  return worker;
}
